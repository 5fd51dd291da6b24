"""Harmonies' evaluation for bots: points now plus what is half built (`planning`)."""

from __future__ import annotations

import pytest

from meadow.games.harmonies import components as c
from meadow.games.harmonies import planning
from meadow.games.harmonies.actions import PlaceToken, TakeTokens
from tests.games.harmonies.helpers import HARMONIES, fresh, put
from tests.games.harmonies.test_patterns import _layout

FROG = 5  # a tree next to water, the cube on the water
FROG_POINTS = c.cards()[FROG].points


@pytest.mark.parametrize(
    ("stack", "landscape", "tokens"),
    [
        ((), "water", 1),
        ((), "tree3", 3),
        (("brown",), "tree3", 2),
        (("brown", "green"), "tree2", 0),
        (("brown", "green"), "tree3", None),  # leaves end a tree
        (("gray",), "mountain3", 2),
        (("gray", "gray", "gray"), "mountain2", None),
        ((), "building", 2),
        (("brown",), "building", 1),
        (("yellow",), "field", 0),
        (("yellow",), "water", None),
    ],
)
def test_tokens_needed_follow_the_stacking_rules(stack, landscape, tokens):
    """Rulebook p.5 (which token may go on which): data/rules.json token_placement."""
    assert planning.tokens_needed(stack, landscape) == tokens


def test_a_habitat_comes_nearer_token_by_token():
    cube_cell, stacks = _layout(c.cards()[FROG], 0)  # type: ignore[misc]
    state = fresh()
    state.seats[0].held = [[FROG, 0]]
    distances = [min(planning.habitat_distances(state, 0, FROG))]
    for name, stack in stacks.items():
        put(state, 0, {name: stack})
        distances.append(min(planning.habitat_distances(state, 0, FROG)))
    assert distances == [2, 1, 0]
    assert state.board.names.index(cube_cell) in state.cube_spaces(0)[FROG]


def test_a_held_card_is_worth_more_the_nearer_its_habitat():
    state = fresh()
    state.seats[0].held = [[FROG, 0]]
    far = planning.card_prospects(state, 0, left=6)
    _cube_cell, stacks = _layout(c.cards()[FROG], 0)  # type: ignore[misc]
    put(state, 0, stacks)
    near = planning.card_prospects(state, 0, left=6)
    assert 0 < far < near
    # ready now: the first cube's points all but certain; later cubes still need habitats
    assert near >= planning.READY * FROG_POINTS[0]


def test_no_turns_left_no_prospects():
    state = fresh()
    state.seats[0].held = [[FROG, 0]]
    put(state, 0, {"a1": ("brown",), "b1": ("yellow",)})
    assert planning.card_prospects(state, 0, left=0) == 0
    assert planning.landscape_prospects(state, 0, left=0) == 0
    assert planning.landscape_prospects(state, 0, left=3) > 0


def test_a_trunk_counts_part_of_the_tree_it_can_become():
    state = fresh()
    bare = planning.landscape_prospects(state, 0, left=4)
    put(state, 0, {"c3": ("brown", "brown")})
    assert planning.landscape_prospects(state, 0, left=4) == bare + planning.ONE_SHORT * 7


def test_the_evaluation_is_points_plus_prospects_and_final_scores_at_the_end():
    state = fresh()
    put(state, 1, {"c3": ("brown", "brown")})
    state.seats[1].held = [[FROG, 0]]
    values = HARMONIES.evaluate(state)
    points = [sum(state.points(seat).values()) for seat in range(2)]
    left = planning.turns_left(state)
    assert values[0] == points[0] + planning.next_card(state, 0, left)
    assert values[1] > points[1]
    assert values[1] == HARMONIES.evaluate_seat(state, 1)


def test_the_order_tokens_went_down_in_does_not_tell_positions_apart():
    first, second = fresh(), fresh()
    for state in (first, second):
        state.apply(TakeTokens(1))
    a, b = first.hand[0], first.hand[1]
    first.apply(PlaceToken(a, "a1"))
    first.apply(PlaceToken(b, "c3"))
    second.apply(PlaceToken(b, "c3"))
    second.apply(PlaceToken(a, "a1"))
    assert HARMONIES.position_key(first) == HARMONIES.position_key(second)
    third = fresh()
    third.apply(TakeTokens(1))
    third.apply(PlaceToken(a, "c3"))
    third.apply(PlaceToken(b, "a1"))
    assert a == b or HARMONIES.position_key(third) != HARMONIES.position_key(first)


def test_the_seat_about_to_play_counts_the_best_card_it_may_take():
    """What a turn leaves in the display is worth something to the next player."""
    state = fresh()
    left = planning.turns_left(state)
    best = max(planning.card_worth(state, 0, card, 0, 3 * left) for card in state.display)
    assert planning.next_card(state, 0, left) == planning.NEXT_CARD * best > 0
    assert planning.next_card(state, 1, left) == 0  # not its turn
    state.apply(TakeTokens(1))
    assert planning.next_card(state, 0, left) == 0  # its chance to take one is in the turn
