"""Renature (Kiesling & Kramer, Deep Print Games 2020) with the Valley expansion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.renature import components as c
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
    rollout_depth = 0  # points so far plus open areas scored as if now already see what matters

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, RenatureOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def evaluate(self, state: State) -> list[float]:
        """Points so far, plus clouds, minus plants still to plant, plus open areas as if
        scored now."""
        assert isinstance(state, RenatureState)
        values = []
        for seat_no, seat in enumerate(state.seats):
            unplanted = sum(c.PLANT_VALUE[k.split()[-1]] * n for k, n in seat.supply.items())
            value = seat.score + seat.clouds - unplanted
            if state.is_over:
                value = seat.score
            else:
                value += sum(state.would_score(a).get(seat_no, 0) for a in state.areas())
            values.append(float(value))
        return values


GAME = Renature()
RenatureState.game = GAME
