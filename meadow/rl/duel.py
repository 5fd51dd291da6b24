"""One game between named players, for the learning curve: each seat's share of the points
(a sole winner 1, k seats sharing first place 1/k each)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from meadow.bots.base import observe
from meadow.core import registry
from meadow.core.rng import Rng
from meadow.rl.players import make_player

MOST_PLIES = 3_000  # past this a game is taken not to end (random Mystic Vale: some 700)


@dataclass(frozen=True)
class Duel:
    game_id: str
    players: int
    options: dict[str, Any]
    specs: tuple[str, ...]  # the player in each seat
    seed: int
    models: str | None = None  # the folder of the models to play with ($MEADOW_MODELS)


def duel(match: Duel) -> list[float]:
    """Each seat's points: 1 for a sole winner, 1/k to each of k seats sharing first place,
    0 for the rest; 1/n each for a game that did not end."""
    if match.models is not None:
        os.environ["MEADOW_MODELS"] = match.models
    state = registry.get(match.game_id).setup(match.players, match.options, match.seed)
    seats = [make_player(spec) for spec in match.specs]
    rng = Rng(match.seed ^ 0xD0E1)
    for _ in range(MOST_PLIES):
        if state.is_over:
            break
        mover = state.to_move
        assert mover is not None
        state.apply(seats[mover].choose(observe(state, mover), rng))
    if not state.is_over:
        return [1.0 / match.players] * match.players
    first = state.result().winners
    return [1.0 / len(first) if seat in first else 0.0 for seat in range(match.players)]
