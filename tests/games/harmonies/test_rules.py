"""Harmonies' turn, end and set-up rules (rulebook pages as in data/rules.json)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from meadow.core.errors import IllegalAction
from meadow.core.play import random_playout
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import (
    EndTurn,
    PlaceCube,
    PlaceToken,
    SwapCard,
    TakeCard,
    TakeTokens,
)
from tests.games.harmonies.helpers import HARMONIES, fill, fresh, put

RULES = json.loads(
    resources.files("meadow.games.harmonies").joinpath("data").joinpath("rules.json").read_text()
)


@pytest.mark.parametrize(("players", "spaces", "cards"), [(1, 3, 3), (2, 5, 5), (4, 5, 5)])
def test_setup(players, spaces, cards):
    """pp.2-3 and 11: 120 tokens; 5 spaces x 3 (solo 3); 5 face-up cards (solo 3)."""
    state = fresh(players)
    assert [len(s) for s in state.central] == [3] * spaces
    assert len(state.display) == cards
    assert len(state.deck) == 32 - cards
    on_board = sum(len(s) for s in state.central)
    assert sum(state.pouch.values()) + on_board == 120
    assert all(p.empty_spaces() == 23 for p in state.seats)
    assert fresh(players, side="B").seats[0].empty_spaces() == 25


def test_token_placement_follows_the_stacking_diagram_exactly():
    """p.4: a colour may go on a stack iff the result is in the diagram (rules.json)."""
    legal = {tuple(s) for s in RULES["token_placement"]["legal_stacks_bottom_to_top"]}
    state = fresh()
    state.apply(TakeTokens(1))
    stacks = sorted(legal, key=lambda s: (len(s), s))
    for colour in c.COLOURS:
        state.hand = [colour]
        put(state, 0, {c.cell_name(state.board.cells[i]): s for i, s in enumerate(stacks)})
        offered = {a.cell for a in state.legal_actions() if isinstance(a, PlaceToken)}
        for i, stack in enumerate(stacks):
            cell = c.cell_name(state.board.cells[i])
            assert (cell in offered) == ((*stack, colour) in legal), (colour, stack)


def test_tokens_first_taken_then_all_placed_before_the_turn_ends():
    state = fresh()
    with pytest.raises(IllegalAction, match="take the tokens"):
        state.apply(EndTurn())
    tokens = list(state.central[1])
    state.apply(TakeTokens(2))
    assert state.central[1] == [] and state.hand == tokens
    with pytest.raises(IllegalAction, match="once per turn"):
        state.apply(TakeTokens(1))
    with pytest.raises(IllegalAction, match="place all taken tokens first"):
        state.apply(EndTurn())
    for colour, cell in zip(tokens, ("a1", "a3", "a5"), strict=True):
        state.apply(PlaceToken(colour, cell))
    pouch = sum(state.pouch.values())
    state.apply(EndTurn())
    assert len(state.central[1]) == 3 and sum(state.pouch.values()) == pouch - 3
    assert state.to_move == 1


def test_no_token_on_a_space_with_a_cube():
    state = fresh()
    put(state, 0, {"a1": ("blue",)})
    state.seats[0].cubes[0] = 5
    state.apply(TakeTokens(1))
    state.hand = ["gray"]
    assert PlaceToken("gray", "a1") not in state.legal_actions()
    put(state, 0, {"a1": ()})
    with pytest.raises(IllegalAction, match="holds a cube"):
        state.apply(PlaceToken("gray", "a1"))


def test_one_card_per_turn_and_at_most_four_unfinished_including_the_spirit():
    state = fresh(spirits=True)
    state.apply(state.legal_actions()[0])  # keep a spirit: it counts as an unfinished card
    first, second = state.display[:2]
    state.apply(TakeCard(c.cards()[first].slug))
    with pytest.raises(IllegalAction, match="once per turn"):
        state.apply(TakeCard(c.cards()[second].slug))
    state.card_taken = False
    state.seats[0].held += [[1, 0], [2, 0]]
    state.forget_derived()
    assert not any(isinstance(a, TakeCard) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="4 unfinished"):
        state.apply(TakeCard(c.cards()[second].slug))


def test_cubes_go_bottom_up_and_a_completed_card_frees_its_place():
    """p.6: each cube needs its own habitat; the last cube completes the card."""
    state = fresh()
    state.display[0] = 25  # Eagle: field next to mountain3*, 2 cubes: 5 / 11
    put(state, 0, {"a1": ("yellow",), "b1": ("gray",) * 3, "c1": ("gray",) * 3})
    state.apply(TakeCard("eagle"))
    assert state.cube_reserve == 66 - 2
    cubes = [a for a in state.legal_actions() if isinstance(a, PlaceCube)]
    assert cubes == [PlaceCube("eagle", "b1")]  # c1 does not touch the field
    state.apply(PlaceCube("eagle", "b1"))
    assert state.points(0)["animals"] == 5
    put(state, 0, {"d1": ("yellow",)})  # now c1 touches a field too
    state.apply(PlaceCube("eagle", "c1"))
    assert state.seats[0].held == [] and state.seats[0].done == [[25, 2]]
    assert state.points(0)["animals"] == 11


def test_cube_needs_its_habitat():
    state = fresh()
    state.display[0] = 25
    state.apply(TakeCard("eagle"))
    with pytest.raises(IllegalAction, match="habitat is not on your board"):
        state.apply(PlaceCube("eagle", "b1"))
    with pytest.raises(IllegalAction, match="no unfinished boar"):
        state.apply(PlaceCube("boar", "b1"))


def test_two_or_fewer_empty_spaces_ends_the_game_after_the_round():
    """p.7: the trigger ends the game once every player has had the same number of turns."""
    state = fresh(3)
    state.apply(TakeTokens(1))
    fill(state, 0, leave_empty=5)
    _place_on_empty_spaces(state)
    assert state.seats[0].empty_spaces() == 2
    state.apply(EndTurn())
    assert state.end_triggered and state.to_move == 1
    for seat in (1, 2):
        assert state.to_move == seat
        state.apply(TakeTokens(1))
        while state.hand:
            state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceToken)))
        state.apply(EndTurn())
    assert state.is_over


def _place_on_empty_spaces(state) -> None:
    player = state.seats[state.to_move]
    while state.hand:
        empty = [c.cell_name(state.board.cells[i]) for i, s in enumerate(player.stacks) if not s]
        state.apply(PlaceToken(state.hand[0], empty[0]))


def test_three_empty_spaces_left_do_not_end_the_game():
    state = fresh(2)
    state.apply(TakeTokens(1))
    fill(state, 0, leave_empty=6)
    _place_on_empty_spaces(state)
    state.apply(EndTurn())
    assert state.seats[0].empty_spaces() == 3 and not state.end_triggered


def test_pouch_that_cannot_refill_ends_the_game():
    """p.7 and open point: a pouch with fewer than 3 tokens fills what it can and ends it."""
    state = fresh(2)
    state.pouch = dict.fromkeys(c.COLOURS, 0) | {"red": 2}
    state.apply(TakeTokens(3))
    while state.hand:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceToken)))
    state.apply(EndTurn())
    assert state.central[2] == ["red", "red"] and state.end_triggered
    assert state.to_move == 1


def test_tie_break_animal_cubes_then_shared():
    """p.7: equal points -> most animal cubes placed; still equal -> shared victory."""
    state = fresh(2)
    random_playout(state, Rng(1))
    state.seats[1] = state.seats[0].clone()
    for player in state.seats:
        player.held, player.done = [], []
    assert state.result().ranking == ((0, 1),)
    state.seats[0].done = [[1, 1]]  # Crocodile, 1 cube: 4 points
    state.seats[1].done = [[5, 2]]  # Frog, 2 cubes: 4 points
    result = state.result()
    assert result.scores[0] == result.scores[1]
    assert result.ranking == ((1,), (0,))
    assert result.tiebreak == ("animal cubes placed",)


def test_solo_discards_leftovers_refills_all_and_may_swap():
    """p.11: 3 spaces, 3 cards; leftovers to the box; swap a card if none was taken."""
    state = fresh(1)
    left = [t for i, s in enumerate(state.central) if i != 0 for t in s]
    state.apply(TakeTokens(1))
    while state.hand:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceToken)))
    swaps = [a for a in state.legal_actions() if isinstance(a, SwapCard)]
    assert len(swaps) == 3
    gone = c.card_by_slug()[swaps[0].card]
    state.apply(swaps[0])
    assert sum(state.discarded.values()) == len(left) == 6
    assert all(len(s) == 3 for s in state.central)
    assert gone not in state.display and gone not in state.deck and len(state.display) == 3


def test_solo_no_swap_after_taking_a_card():
    state = fresh(1)
    state.apply(TakeCard(c.cards()[state.display[0]].slug))
    state.apply(TakeTokens(1))
    while state.hand:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceToken)))
    assert not any(isinstance(a, SwapCard) for a in state.legal_actions())


def test_solo_result_counts_suns():
    state = fresh(1, side="B")
    random_playout(state, Rng(4))
    result = state.result()
    total = result.scores[0]
    expected = sum(total >= t for t in (40, 70, 90, 110, 130, 140, 150, 160)) + 0 + 2
    assert result.extra["suns"] == expected


def test_random_games_keep_every_token():
    """Tokens are never created or lost: pouch + central + hands + boards + box = 120."""
    for players in (1, 2, 3, 4):
        state = fresh(players, seed=players)
        rng = Rng(players)
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
            count = sum(state.pouch.values()) + sum(len(s) for s in state.central)
            count += len(state.hand) + sum(state.discarded.values())
            count += sum(len(s) for p in state.seats for s in p.stacks)
            assert count == 120


@pytest.mark.parametrize("side", ["A", "B"])
def test_cube_spaces_kept_from_move_to_move_are_a_fresh_boards(side: str):
    """Each board keeps its held cards' cube spaces from one move to the next and works a
    card's out again only when its habitat names the landscape a token changed: the kept
    spaces must be those a board read afresh from JSON works out, for every seat at every
    step, the others' boards included."""
    rng = Rng(5)
    compared = found = 0
    for seed in range(12):
        state = fresh(2 + seed % 3, seed, side=side, spirits=seed % 2 == 0)
        while not state.is_over:
            again = HARMONIES.state_from_json(state.to_json())
            for seat in range(state.players):
                kept = state.cube_spaces(seat)
                assert kept == again.cube_spaces(seat), (seed, state.ply, seat)
                compared += len(kept)
                found += sum(1 for spaces in kept.values() if spaces)
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
    assert compared > 1000 and found > 100, (compared, found)
