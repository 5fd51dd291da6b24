"""The guide: the other seat of a guided first game (`meadow.core.guided`), playing its
written moves.

It sees only its observation, as every bot: it finds where the written game stands by the
view its seat had at each written decision, and plays the move written there. Once the game
has left the script (the learner played otherwise) it plays greedy.
"""

from __future__ import annotations

from functools import cache

import orjson

from meadow.bots.base import Bot, Observation
from meadow.bots.simple import GreedyBot
from meadow.core.actions import Action
from meadow.core.guided import guided
from meadow.core.rng import Rng


class GuideBot(Bot):
    name = "guide"

    def __init__(self) -> None:
        self.fallback = GreedyBot()

    def choose(self, observation: Observation, rng: Rng) -> Action:
        written = written_move(observation.game.id, observation.seat, _key(observation.view))
        if written is not None:
            for action in observation.legal:
                if str(action) == written:
                    return action
        return self.fallback.choose(observation, rng)


def written_move(game_id: str, seat: int, view_key: bytes) -> str | None:
    """The written move for `seat` in the position it sees as `view_key`, if the script has one."""
    return _script_by_view(game_id, seat).get(view_key)


@cache
def _script_by_view(game_id: str, seat: int) -> dict[bytes, str]:
    script = guided(game_id)
    states = script.states()
    found: dict[bytes, str] = {}
    for state, move in zip(states, script.moves, strict=False):
        if state.to_move == seat:
            found.setdefault(_key(state.view(seat)), move)
    return found


def _key(view: object) -> bytes:
    return orjson.dumps(view, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
