"""Harmonies' evaluation for search bots: points now plus the prospects of held cards."""

from __future__ import annotations

from meadow.games.harmonies import READY, held_card_prospects
from meadow.games.harmonies import components as c
from tests.games.harmonies.helpers import HARMONIES, fresh, put
from tests.games.harmonies.test_patterns import _layout

FROG = 5  # tree next to water, the cube on the water


def test_a_held_card_counts_more_once_its_habitat_is_built():
    frog = c.cards()[FROG]
    cube_cell, stacks = _layout(frog, 0)  # type: ignore[misc]
    state = fresh()
    state.seats[0].held = [[FROG, 0]]
    waiting = held_card_prospects(state, 0)
    put(state, 0, stacks)
    ready = held_card_prospects(state, 0)
    assert ready == READY * frog.points[0]
    assert 0 < waiting < ready
    assert cube_cell in [state.board.names[i] for i in state.cube_spaces(0)[FROG]]


def test_the_evaluation_adds_prospects_to_the_points_on_the_board():
    state = fresh()
    state.seats[1].held = [[FROG, 0]]
    values = HARMONIES.evaluate(state)
    points = [sum(state.points(seat).values()) for seat in range(2)]
    assert values[0] == points[0]
    assert values[1] == points[1] + held_card_prospects(state, 1) > points[1]
