"""Mystic Vale (John D. Clair, AEG 2016) with the Vale of Magic expansion."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from meadow.core.actions import Event
from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.mystic_vale import search, text
from meadow.games.mystic_vale.options import MysticValeOptions
from meadow.games.mystic_vale.rules import MysticValeState, setup


class MysticVale(Game):
    id = "mystic_vale"
    title = "Mystic Vale"
    min_players = 2
    max_players = 4
    Options = MysticValeOptions
    state_class = MysticValeState
    rollout_depth = 0  # the evaluation sees the decks' yield to come (search.py)
    lead_from_root = True  # that yield puts seats 10-20 points apart early on

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, MysticValeOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, MysticValeState)
        return search.evaluate(state)

    def points_now(self, state: State, seat: int) -> dict[str, int]:
        assert isinstance(state, MysticValeState)
        return state.final_points(state.seats[seat])

    def revealed(self, state: State, events: list[Event], seat: int) -> Hashable | None:
        assert isinstance(state, MysticValeState)
        return search.revealed(state, events, seat)


GAME = MysticVale()
MysticValeState.game = GAME
