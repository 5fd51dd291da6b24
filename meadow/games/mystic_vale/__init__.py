"""Mystic Vale (John D. Clair, AEG 2016) with the Vale of Magic expansion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.mystic_vale import text
from meadow.games.mystic_vale.options import MysticValeOptions
from meadow.games.mystic_vale.rules import MysticValeState, setup


class MysticVale(Game):
    id = "mystic_vale"
    title = "Mystic Vale"
    min_players = 2
    max_players = 4
    Options = MysticValeOptions
    state_class = MysticValeState

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, MysticValeOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, MysticValeState)
        return [float(sum(state.final_points(d).values())) for d in state.seats]


GAME = MysticVale()
MysticValeState.game = GAME
