"""Renature (Kiesling & Kramer, Deep Print Games 2020) with the Valley expansion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.actions import Action
from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.renature import text
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.rules import PLANT, RenatureState, setup


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

    def settled_choice(self, state: State) -> Action | None:
        """The plant after a domino, below a search's root, settled as the evaluation likes
        best (`RenatureState.best_planting`): branched, every domino placement split into
        its plants (a kind times a space beside it), and the search hardly reached the
        reply. At 0.1 s a decision, settled won 42 of 60 games against branching
        (docs/ai.md)."""
        assert isinstance(state, RenatureState)
        return state.best_planting() if state.phase == PLANT else None

    def evaluate(self, state: State) -> list[float]:
        """Points so far, plus clouds, minus plants still to plant, plus the backs of the
        area tokens taken, plus open areas as if scored now."""
        assert isinstance(state, RenatureState)
        if state.is_over:
            return [float(seat.score) for seat in state.seats]
        areas = [0] * len(state.seats)
        for area, totals in state.area_totals().items():  # an area without plants scores none
            for seat_no, points in state.would_score(area, totals).items():
                areas[seat_no] += points
        backs = state.token_backs()
        values = []
        for seat_no, seat in enumerate(state.seats):
            now = seat.score + seat.clouds - seat.unplanted() + backs[seat_no]
            values.append(float(now + areas[seat_no]))
        return values

    def points_now(self, state: State, seat: int) -> dict[str, int]:
        assert isinstance(state, RenatureState)
        return {k: state.seats[seat].points.get(k, 0) for k in state.categories}


GAME = Renature()
RenatureState.game = GAME
