"""Harmonies (Johan Benvenuto, Libellud 2024): landscapes of tokens, habitats for animals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.harmonies import text
from meadow.games.harmonies.calculator import score_board
from meadow.games.harmonies.components import cards
from meadow.games.harmonies.options import HarmoniesOptions
from meadow.games.harmonies.rules import HarmoniesState, setup
from meadow.games.harmonies.scoring import animal_points


class Harmonies(Game):
    id = "harmonies"
    title = "Harmonies"
    min_players = 1
    max_players = 4
    Options = HarmoniesOptions
    state_class = HarmoniesState
    rollout_depth = 10  # board points miss habitats and animals in progress; a turn each shows them

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
        """Points now, plus part of what each held animal card's next cube would add: more
        when its habitat is already on the board."""
        assert isinstance(state, HarmoniesState)
        if state.is_over:
            return [float(x) for x in state.result().scores]
        return [
            sum(state.points(seat).values()) + held_card_prospects(state, seat)
            for seat in range(state.players)
        ]


READY, LATER = 0.7, 0.3  # share of the next cube's points counted (judged by play tests)


def held_card_prospects(state: HarmoniesState, seat: int) -> float:
    ready = state.cube_spaces(seat)
    total = 0.0
    for card_id, placed in state.seats[seat].held:
        card = cards()[card_id]
        if card.spirit or placed >= card.cubes:
            continue
        gain = animal_points(card, placed + 1) - animal_points(card, placed)
        total += gain * (READY if ready[card_id] else LATER)
    return total


GAME = Harmonies()
HarmoniesState.game = GAME
