"""Renature (Kiesling & Kramer, Deep Print Games 2020) with the Valley expansion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.renature import text
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.rules import RenatureState, setup


class Renature(Game):
    id = "renature"
    title = "Renature"
    min_players = 2
    max_players = 4
    Options = RenatureOptions
    state_class = RenatureState

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, RenatureOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)


GAME = Renature()
RenatureState.game = GAME
