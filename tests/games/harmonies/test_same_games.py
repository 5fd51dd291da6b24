"""Speed work on the engine must leave every game as it was: 200 seeded random games (1-4
players, both board sides, spirits on and off), their legal lists in order, the moves, every
event, the results and the final states, against one digest taken before the engine's
speed-ups of issue 49 (goal 4). A rule change that means to change games updates the digest
(and says so in its commit); nothing else may."""

from __future__ import annotations

import hashlib
import json

from meadow.core.rng import Rng
from tests.games.harmonies.helpers import HARMONIES

GAMES = 200
DIGEST = "fd49a41f4253c8f1b4aad450cec7c453471b81dde5f159433a2fa5e33728eb3f"


def games_digest(games: int) -> str:
    """One SHA-256 over `games` seeded random games, everything a game shows on the way."""
    digest = hashlib.sha256()
    for seed in range(games):
        players = 1 + seed % 4
        options = {"side": "AB"[seed // 4 % 2], "spirits": seed % 3 != 2}
        state = HARMONIES.setup(players, options, seed)
        rng = Rng(seed + 1000)
        while not state.is_over:
            legal = state.legal_actions()
            digest.update(" ".join(map(str, legal)).encode())
            for event in state.apply(legal[rng.below(len(legal))]):
                private = {str(seat): found for seat, found in event.private.items()}
                told = [event.kind, event.seat, event.public, private, event.reveals]
                digest.update(json.dumps(told, sort_keys=True).encode())
        digest.update(json.dumps(state.result().to_json(), sort_keys=True).encode())
        digest.update(json.dumps(state.to_json(), sort_keys=True).encode())
    return digest.hexdigest()


def test_seeded_random_games_are_played_as_before():
    assert games_digest(GAMES) == DIGEST
