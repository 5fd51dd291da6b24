"""Harmonies (Johan Benvenuto, Libellud 2024): landscapes of tokens, habitats for animals."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.harmonies import planning, text
from meadow.games.harmonies.calculator import score_board
from meadow.games.harmonies.options import HarmoniesOptions
from meadow.games.harmonies.rules import HarmoniesState, setup


class Harmonies(Game):
    id = "harmonies"
    title = "Harmonies"
    min_players = 1
    max_players = 4
    Options = HarmoniesOptions
    state_class = HarmoniesState
    # The evaluation sees what is half built: at equal time a search without rollouts plays
    # as well as one with 10 random decisions, at three times the iterations (docs/ai.md).
    rollout_depth = 0
    # Prospects put seats far apart early: MCTS scores the change of the lead from the root.
    lead_from_root = True

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, HarmoniesOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def score_board(self, data: Any) -> dict[str, int]:
        return score_board(data)

    def evaluate(self, state: State) -> list[float]:
        """Points now plus what is half built (habitats for held cards, the spirit's,
        landscapes a token short), weighed by the tokens still needed: see `planning`."""
        assert isinstance(state, HarmoniesState)
        if state.is_over:
            return [float(x) for x in state.result().scores]
        return [planning.value(state, seat) for seat in range(state.players)]

    def points_now(self, state: State, seat: int) -> dict[str, int]:
        assert isinstance(state, HarmoniesState)
        return state.points(seat)

    def evaluate_seat(self, state: State, seat: int) -> float:
        assert isinstance(state, HarmoniesState)
        return planning.value(state, seat)

    def position_key(self, state: State) -> Hashable:
        assert isinstance(state, HarmoniesState)
        return planning.position_key(state)


GAME = Harmonies()
HarmoniesState.game = GAME
