"""Topiary (Danny Devine, 2017): place visitors around a garden of sculpture tiles."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.actions import Action
from meadow.core.errors import OptionError
from meadow.core.game import Game, State, best_by_evaluation
from meadow.core.options import GameOptions
from meadow.games.topiary import text
from meadow.games.topiary.options import TopiaryOptions
from meadow.games.topiary.rules import PLACE, TopiaryState, setup


class Topiary(Game):
    id = "topiary"
    title = "Topiary"
    min_players = 2
    max_players = 4
    Options = TopiaryOptions
    state_class = TopiaryState
    drop_in_data = False  # printed values all, built into tables at import
    rollout_depth = 0  # the garden scored as if the game ended now already sees what matters

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, TopiaryOptions)
        return setup(players, options, seed)

    def _check_options(self, players: int, options: GameOptions) -> None:
        assert isinstance(options, TopiaryOptions)
        if players == 4 and options.removed_shape != "random":
            raise OptionError(
                f"option 'removed_shape' = {options.removed_shape!r}: with 4 players all "
                "8 motif sets are used, so none can be removed"
            )

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def settled_choice(self, state: State) -> Action | None:
        """The tile into the gap, below a search's root: after a take each world holds
        its own drawn tile, so a tree branching on the placement splits every take into
        some 30 draws times 4 tiles and barely reaches the next turn in a second. At 0.2 s a
        decision, placing by the evaluation won 49 of 80 games against branching (docs/ai.md)."""
        assert isinstance(state, TopiaryState)
        return best_by_evaluation(self, state) if state.phase == PLACE else None

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, TopiaryState)
        return [float(x) for x in state._result().scores]  # visitors, bonus and hands now

    def points_now(self, state: State, seat: int) -> dict[str, int]:
        assert isinstance(state, TopiaryState)
        return state._result().breakdown[seat]


GAME = Topiary()
TopiaryState.game = GAME
