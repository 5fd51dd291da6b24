"""Renature's rules (seed 001) on real and small boards."""

from __future__ import annotations

import json

import pytest

from meadow import games
from meadow.core.errors import IllegalAction
from meadow.core.play import random_playout
from meadow.core.rng import Rng
from meadow.games.renature import components as c
from meadow.games.renature.actions import (
    ChangeJoker,
    DiscardDomino,
    EndTurn,
    ExtraTurn,
    PlaceDomino,
    PlacePlant,
    ReturnPlant,
    SkipPlant,
)
from meadow.games.renature.board import from_data
from meadow.games.renature.scoring import NEUTRAL
from tests.games.renature.helpers import (
    BUTTERFLY,
    OWL,
    RING,
    SALAMANDER,
    WOODPECKER,
    cover,
    domino,
    give,
    plant,
    state_on,
)

RENATURE = games.get("renature")
SNAIL = 4

# Two rows of brook above a 4-space area, a start on a1.
STRIP = from_data({"kind": "test", "map": ["......", "......", ".AAAA."], "start": ["a1"]}, "strip")


@pytest.mark.parametrize(("players", "dealt"), [(2, 26), (3, 18), (4, 13)])
def test_setup(players, dealt):
    state = RENATURE.setup(players, seed=2)
    for i, seat in enumerate(state.seats):
        assert len(seat.hand) == 3 and len(seat.hand) + len(seat.reserve) == dealt
        assert seat.points["start"] == (4, 3, 2, 1)[i]
        assert seat.clouds == 6
    every = state.box_dominoes + [d for s in state.seats for d in s.hand + s.reserve]
    assert sorted(every) == list(range(55))
    assert c.animals()[state.joker].name == "butterfly"
    sizes = {a: len(cells) for a, cells in state.board.areas().items()}
    assert all(c.area_tokens()[t].main == sizes[a] for a, t in state.tokens_on.items())
    assert len(state.tokens_on) == 18 and len(state.box_tokens) == 3
    assert sum(state.board_clouds.values()) == 5


def test_four_players_leave_the_excluded_spaces_empty():
    three = RENATURE.setup(3, seed=1).seats[0].capacity
    four = RENATURE.setup(4, seed=1).seats[0].capacity
    assert sum(four.values()) < sum(three.values())
    assert all(four[k] <= three[k] for k in three)
    assert sum(four.values()) == 13  # one plant per domino dealt (stand-in boards)


def test_domino_needs_a_start_space_or_a_matching_neighbour():
    state = state_on(STRIP)
    give(state, 0, [domino(OWL, SNAIL)])
    legal = state.legal_actions()
    assert PlaceDomino(domino(OWL, SNAIL), "a1", "b1") in legal
    assert PlaceDomino(domino(OWL, SNAIL), "b1", "a1") in legal  # either way round
    with pytest.raises(IllegalAction, match="neither half is on a start space"):
        state.apply(PlaceDomino(domino(OWL, SNAIL), "d1", "e1"))
    cover(state, ["c1"], OWL)
    assert PlaceDomino(domino(OWL, SNAIL), "d1", "e1") in state.legal_actions()


def test_every_animal_beside_the_domino_must_match():
    state = state_on(STRIP)
    cover(state, ["c1"], OWL)
    cover(state, ["f1"], SALAMANDER)
    give(state, 0, [domino(OWL, SNAIL)])
    # the owl on d1 matches the owl on c1, but the snail on e1 would touch the salamander
    with pytest.raises(IllegalAction, match="snail on e1 would sit beside the salamander on f1"):
        state.apply(PlaceDomino(domino(OWL, SNAIL), "d1", "e1"))
    assert PlaceDomino(domino(OWL, SNAIL), "d1", "d2") in state.legal_actions()


def test_the_joker_matches_every_animal_both_ways():
    state = state_on(STRIP)
    cover(state, ["c1"], OWL)
    give(state, 0, [domino(BUTTERFLY, SNAIL)])
    # a butterfly (the joker) beside the owl is fine and anchors the domino
    assert PlaceDomino(domino(BUTTERFLY, SNAIL), "d1", "e1") in state.legal_actions()
    cover(state, ["f2"], BUTTERFLY)
    give(state, 0, [domino(SNAIL, SALAMANDER)])
    # anything may go beside a butterfly on the board
    assert PlaceDomino(domino(SNAIL, SALAMANDER), "e2", "d2") in state.legal_actions()


def test_dominoes_stay_on_free_brook_spaces_inside_the_grid():
    state = state_on(STRIP)
    cover(state, ["a1"], OWL)
    give(state, 0, [domino(OWL, OWL)])
    with pytest.raises(IllegalAction, match="area space"):
        state.apply(PlaceDomino(domino(OWL, OWL), "b2", "b3"))
    with pytest.raises(IllegalAction, match="already covered"):
        state.apply(PlaceDomino(domino(OWL, OWL), "a1", "b1"))
    with pytest.raises(IllegalAction, match="not a space"):
        state.apply(PlaceDomino(domino(OWL, OWL), "b1", "z9"))
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply(PlaceDomino(domino(SNAIL, SNAIL), "b1", "c1"))


def test_a_discard_skips_to_the_refill():
    state = RENATURE.setup(2, seed=5)
    hand = list(state.seats[0].hand)
    reserve = len(state.seats[0].reserve)
    events = state.apply(DiscardDomino(c.dominoes()[hand[0]].id))
    assert len(state.seats[0].hand) == 3 and len(state.seats[0].reserve) == reserve - 1
    assert state.seats[0].discarded == [hand[0]]
    assert "domino" not in events[0].for_seat(1)


def test_isolated_brook_spaces_close_an_area():
    """b1 is free but has no free brook neighbour, so the area below it can close."""
    state = state_on(RING)
    cover(state, ["a1", "c1", "d1", "a2", "a3", "a4", "b4", "c4", "d4"], OWL)
    assert not state.closed("A")
    give(state, 0, [domino(OWL, OWL)])
    state.apply(PlaceDomino(domino(OWL, OWL), "d2", "d3"))
    state.apply(SkipPlant())
    assert "A" in state.scored  # b1 is left free but isolated


def test_diagonal_brook_does_not_keep_an_area_open():
    state = state_on(STRIP)
    cover(state, ["b2", "c2", "d2", "e2", "a3"], OWL)  # a2 and f2 touch the area diagonally
    assert not state.closed("A")
    cover(state, ["f3"], OWL)
    assert state.closed("A")


def test_change_joker_costs_two_clouds():
    state = RENATURE.setup(2, seed=3)
    state.apply(ChangeJoker("owl"))
    assert state.seats[0].clouds == 4 and c.animals()[state.joker].name == "owl"
    state.seats[0].clouds = 1
    state.forget_derived()
    assert not any(isinstance(a, ChangeJoker) for a in state.legal_actions())
    with pytest.raises(IllegalAction, match="costs 2 clouds"):
        state.apply(ChangeJoker("snail"))


def test_return_plant_costs_its_value_and_needs_a_free_space():
    state = state_on(RING)
    plant(state, "b2", "pine", 0)
    plant(state, "c2", "oak", NEUTRAL)
    plant(state, "b3", "bush", 1)
    seat = state.seats[0]
    seat.supply["pine"] -= 1  # the pine came from seat 0's board
    legal = state.legal_actions()
    assert ReturnPlant("b2") in legal and ReturnPlant("c2") not in legal  # neutral space full
    with pytest.raises(IllegalAction, match="own colour or neutral"):
        state.apply(ReturnPlant("b3"))
    with pytest.raises(IllegalAction, match="no free space"):
        state.apply(ReturnPlant("c2"))
    state.apply(ReturnPlant("b2"))
    assert seat.clouds == 3 and seat.supply["pine"] == seat.capacity["pine"]
    assert state.plant_at[state.board.cell_at("b2")] is None
    seat.supply["neutral oak"] -= 1
    state.forget_derived()
    with pytest.raises(IllegalAction, match="costs 4 clouds"):
        state.apply(ReturnPlant("c2"))


def test_extra_turns_cost_three_clouds_and_repeat():
    state = RENATURE.setup(2, seed=4)
    for _ in range(2):
        state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceDomino)))
        if state.phase == "plant":
            state.apply(SkipPlant())
        assert state.phase == "end" and state.to_move == 0
        state.apply(ExtraTurn())
    assert state.seats[0].clouds == 0 and state.to_move == 0
    state.apply(next(a for a in state.legal_actions() if isinstance(a, PlaceDomino)))
    if state.phase == "plant":
        state.apply(SkipPlant())
    assert state.to_move == 1  # no clouds left: the turn ended by itself


def test_plants_go_beside_the_new_domino_and_take_clouds():
    board = from_data(
        {"kind": "test", "map": ["....", ".AA.", "...."], "start": ["a1"], "clouds": {"b2": 3}},
        "clouds",
    )
    state = state_on(board)
    give(state, 0, [domino(OWL, OWL)])
    state.seats[0].clouds = 4
    state.apply(PlaceDomino(domino(OWL, OWL), "a1", "b1"))
    cells = {a.cell for a in state.legal_actions() if isinstance(a, PlacePlant)}
    assert cells == {"b2"}  # c2 is not beside a1-b1
    state.apply(PlacePlant("turf", False, "b2"))
    assert state.seats[0].clouds == 6  # 3 lay there, 2 spaces were free: 1 to the box
    assert not state.board_clouds


def test_players_without_dominoes_are_skipped_and_the_game_ends():
    state = RENATURE.setup(3, seed=6)
    for seat in state.seats:
        seat.reserve = []
        seat.clouds = 0
    state.seats[1].hand = []
    state.forget_derived()
    state.apply(DiscardDomino(c.dominoes()[state.seats[0].hand[0]].id))
    assert state.to_move == 2  # seat 1 holds nothing and is skipped
    while not state.is_over:
        state.apply(next(a for a in state.legal_actions() if isinstance(a, DiscardDomino)))
    assert all(not s.hand for s in state.seats)


def test_final_scoring():
    """Open areas scored, +1 per cloud, minus unplanted values, plus token backs."""
    state = state_on(RING)
    plant(state, "b2", "oak", 0)
    token = state.tokens_on["A"]
    state.seats[1].collected = [t for t in state.box_tokens[:1]]
    for seat in state.seats:
        seat.hand, seat.reserve = [], []
    state.seats[0].clouds = 2
    events = state._final_scoring()
    first, second = state.seats
    assert first.points["open_areas"] == c.area_tokens()[token].main + c.area_tokens()[token].minor
    assert first.points["clouds"] == 2
    supply_value = sum(c.PLANT_VALUE[k.split()[-1]] * n for k, n in first.supply.items())
    assert first.points["unplanted"] == -supply_value
    assert second.points["token_backs"] == c.area_tokens()[second.collected[0]].back
    assert token in state.box_tokens
    assert events[-1].kind == "game_over"


def test_tie_break_area_tokens_then_shared():
    state = state_on(RING)
    for seat in state.seats:
        seat.hand, seat.reserve = [], []
        seat.points = dict.fromkeys(seat.points, 0)
        seat.supply = dict.fromkeys(seat.supply, 0)
        seat.clouds = 0
    state.tokens_on = {}
    state._final_scoring()
    assert state.result().ranking == ((0, 1),)
    state.seats[1].collected = [state.box_tokens[0]]
    state.seats[1].points["token_backs"] = 0
    state.seats[0].points["start"] = c.area_tokens()[state.box_tokens[0]].back  # equal totals
    state.seats[1].points["token_backs"] = c.area_tokens()[state.box_tokens[0]].back
    assert state.result().ranking == ((1,), (0,))


def test_views_hide_hands_reserves_and_token_backs():
    state = RENATURE.setup(3, seed=8)
    state.seats[0].collected = [state.box_tokens[0]]
    own = state.view(0)["seats"][0]
    other = state.view(1)["seats"][0]
    assert "hand" in own and "hand" not in other
    assert "token_backs" not in other and own["token_backs"] == [
        c.area_tokens()[state.box_tokens[0]].back
    ]
    assert "reserve" not in json.dumps(state.view(None)).replace("reserve_size", "")


def test_every_game_option_plays_to_the_end():
    for board in ("base", "valley", "valley_variant"):
        state = RENATURE.setup(4, {"board": board}, seed=9)
        random_playout(state, Rng(9))
        assert state.is_over and len(state.result().scores) == 4
    assert EndTurn() and WOODPECKER == 3
