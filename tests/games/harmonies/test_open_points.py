"""The points the rulebook leaves open, decided as in docs/harmonies.md."""

from __future__ import annotations

import pytest

from meadow.core.errors import IllegalAction
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import EndTurn, PlaceToken, TakeCard, TakeTokens
from meadow.games.harmonies.scoring import river_length, water
from tests.games.harmonies.helpers import fresh


def _finish_turn(state) -> None:
    if state.taken_space < 0:
        state.apply(TakeTokens(next(i + 1 for i, s in enumerate(state.central) if s)))
    while state.hand:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceToken)))
    state.apply(EndTurn())


def test_an_empty_draw_pile_leaves_the_display_short():
    state = fresh(2)
    state.deck = []
    state.apply(TakeCard(c.cards()[state.display[0]].slug))
    _finish_turn(state)
    assert len(state.display) == 4


def test_a_card_needs_enough_cubes_in_the_reserve():
    state = fresh(2)
    big = max(state.display, key=lambda cid: c.cards()[cid].cubes)
    state.cube_reserve = c.cards()[big].cubes - 1
    state.forget_derived()
    assert TakeCard(c.cards()[big].slug) not in state.legal_actions()
    with pytest.raises(IllegalAction, match="too few animal cubes"):
        state.apply(TakeCard(c.cards()[big].slug))


def test_a_river_loop_counts_its_shortest_path_between_its_farthest_ends():
    """Six blue tokens around one space: the farthest two are 3 steps apart -> 4 tokens."""
    ring = [(2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]  # the neighbours of (2, 2)
    assert sorted(ring) == sorted(c.neighbours(2, 2))
    stacks = {cell: () for cell in c.board("A").cells} | {cell: ("blue",) for cell in ring}
    assert river_length(stacks) == 4
    assert water(stacks, "A") == 8


def test_the_spirit_cube_does_not_break_ties():
    state = fresh(2, spirits=True)
    for player in state.seats:
        player.held, player.done = [], []
    state.seats[1].done = [[state.seats[1].offer[0], 1]]
    state.seats[1].spirit = state.seats[1].offer[0]
    state.seats[0].spirit = state.seats[0].offer[0]
    state.seats[0].done = [[state.seats[0].offer[0], 0]]
    assert state.seats[1].animal_cubes() == state.seats[0].animal_cubes() == 0
