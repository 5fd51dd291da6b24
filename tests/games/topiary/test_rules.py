"""Topiary's rules, checked on real and crafted games. Rule: seed 002 unless named."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.core.errors import IllegalAction, OptionError
from meadow.core.play import random_playout
from meadow.core.rng import Rng
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import PlaceTile, PlaceVisitor, SkipTake, TakeTile
from tests.games.topiary.helpers import crafted

TOPIARY = games.get("topiary")


@pytest.mark.parametrize(("players", "visitors", "box"), [(2, 8, 4), (3, 6, 1), (4, 5, 3)])
def test_setup_per_player_count(players: int, visitors: int, box: int):
    """Vorbereitungen: 8/6/5 visitors; one motif set out with 2-3 players; 25 tiles face down
    but the centre; 3 tiles per hand; the rest to the box (data/setup.json by_player_count)."""
    state = TOPIARY.setup(players, seed=3)
    assert state.visitors_left == [visitors] * players
    assert [len(h) for h in state.hands] == [3] * players
    assert len(state.box) == box
    assert state.face_up == [cell == c.CENTRE for cell in range(25)]
    in_play = state.grid + state.box + [t for h in state.hands for t in h]
    assert len(set(in_play)) == len(in_play) == (35 if players < 4 else 40)
    if players < 4:
        assert state.removed_shape is not None
        assert all(c.shape_of(t) != state.removed_shape for t in in_play)
    else:
        assert state.removed_shape is None


def test_chosen_removed_shape_is_out_of_the_game():
    state = TOPIARY.setup(2, {"removed_shape": "whale"}, seed=4)
    tiles = state.to_json()
    text = str(tiles["grid"] + tiles["box"] + tiles["hands"])
    assert "whale" not in text
    assert state.view(0)["removed_shape"] == "whale"


def test_options_are_checked_by_name():
    with pytest.raises(OptionError, match="no option 'takes'"):
        TOPIARY.setup(2, {"takes": "optional"})
    with pytest.raises(OptionError, match="'take' = 'maybe'"):
        TOPIARY.setup(2, {"take": "maybe"})
    with pytest.raises(OptionError, match="with 4 players"):
        TOPIARY.setup(4, {"removed_shape": "swan"})


def test_option_shape_choices_match_the_data():
    choices = TOPIARY.describe()["options"][2]["choices"]
    assert choices == ["random", *(s.id for s in c.shapes())]


def test_one_tile_diagonals_can_be_forbidden():
    allowed = TOPIARY.setup(2, seed=1).legal_actions()
    forbidden = TOPIARY.setup(2, {"one_tile_diagonals": False}, seed=1).legal_actions()
    assert len(allowed) == 56 and len(forbidden) == 48
    assert {str(a) for a in set(allowed) - set(forbidden)} == {
        f"visit {p.id}" for p in c.positions() if p.one_tile_diagonal
    }
    state = TOPIARY.setup(2, {"one_tile_diagonals": False}, seed=1)
    with pytest.raises(IllegalAction, match="one_tile_diagonals"):
        state.apply(PlaceVisitor("D-r0c4-SE"))


def test_one_visitor_per_position_but_both_ends_of_a_line():
    state = TOPIARY.setup(2, seed=2)
    state.apply(PlaceVisitor("O-N2"))
    state.apply(state.legal_actions()[0])  # take
    state.apply(state.legal_actions()[0])  # place
    with pytest.raises(IllegalAction, match="already has a visitor"):
        state.apply(PlaceVisitor("O-N2"))
    assert PlaceVisitor("O-S2") in state.legal_actions()


def test_take_is_mandatory_by_default_and_optional_as_an_option():
    mandatory = TOPIARY.setup(2, seed=5)
    mandatory.apply(PlaceVisitor("O-W0"))
    assert mandatory.legal_actions() == [TakeTile(f"r0c{col}") for col in range(5)]
    with pytest.raises(IllegalAction, match="mandatory"):
        mandatory.apply(SkipTake())

    optional = TOPIARY.setup(2, {"take": "optional"}, seed=5)
    optional.apply(PlaceVisitor("O-W0"))
    assert optional.legal_actions()[-1] == SkipTake()
    optional.apply(SkipTake())
    assert optional.to_move == 1 and optional.phase == "visitor"


def test_take_only_face_down_tiles_of_the_visitors_line():
    state = TOPIARY.setup(2, seed=6)
    state.apply(PlaceVisitor("O-W2"))  # row 2: the centre r2c2 is face up
    assert TakeTile("r2c2") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="face up"):
        state.apply(TakeTile("r2c2"))
    with pytest.raises(IllegalAction, match="not in the line"):
        state.apply(TakeTile("r0c0"))


def test_place_goes_into_the_gap_from_the_hand_and_the_hand_stays_three():
    state = TOPIARY.setup(2, seed=7)
    state.apply(PlaceVisitor("O-N0"))
    state.apply(TakeTile("r3c0"))
    hand = state.view(0)["hand"]
    assert len(hand) == 4
    assert state.legal_actions() == [PlaceTile(t, "r3c0") for t in hand]
    with pytest.raises(IllegalAction, match="gap at r3c0"):
        state.apply(PlaceTile(hand[0], "r1c0"))
    state.apply(PlaceTile(hand[0], "r3c0"))
    assert state.view(1)["garden"][3][0] == hand[0]
    assert len(state.hands[0]) == 3


def test_game_ends_when_every_visitor_is_placed():
    for players, visitors in ((2, 8), (3, 6), (4, 5)):
        state = TOPIARY.setup(players, seed=players)
        random_playout(state, Rng(9))
        assert len(state.view(None)["visitors"]) == players * visitors
        assert all(len(h) == 3 for h in state.hands)


def test_a_line_without_face_down_tiles_ends_the_turn():
    """rules.json step 2: no face-down tile in the line, no rearrangement."""
    state = crafted(
        2,
        {"r0c4": "swan_5"},
        [["swan_1", "whale_1", "t_rex_1"], ["swan_2", "whale_2", "t_rex_2"]],
    )
    state.apply(PlaceVisitor("D-r0c4-SE"))  # looks through r0c4 only
    assert state.to_move == 1 and state.phase == "visitor"


def test_a_scripted_final_round_scores_as_counted_by_hand():
    """Seat 0 watches row 0 (1,2,3,4,5 of five shapes: 15) and, in the last round, column 2
    (whale 3, then the whale 5 it turns up: 8 + bonus 2; the pyramid 3 behind is hidden).
    Seat 1 watches row 0 from the east (spiral 5 hides the rest: 5) and a one-tile diagonal
    onto the same spiral 5. Hands: seat 0's whale 1 and elephant 1 score (it sees whale 5 and
    elephant 4), swan 4 does not (it sees only swan 2); seat 1's spiral 1 scores."""
    row0 = {"r0c0": "t_rex_1", "r0c1": "swan_2", "r0c2": "whale_3", "r0c3": "elephant_4"}
    state = crafted(
        2,
        {**row0, "r0c4": "spiral_5", "r2c2": "pyramid_3"},
        [["whale_1", "swan_4", "elephant_1"], ["spiral_1", "t_rex_5", "pyramid_1"]],
        face_down={"r1c2": "whale_5"},
        visitors={"O-W0": 0, "O-E0": 1},
        visitors_left=[1, 1],
    )
    state.apply(PlaceVisitor("O-N2"))
    state.apply(TakeTile("r1c2"))
    assert state.view(0)["hand"] == ["swan_4", "whale_1", "whale_5", "elephant_1"]
    state.apply(PlaceTile("whale_5", "r1c2"))
    state.apply(PlaceVisitor("D-r0c4-NW"))
    result = state.result()
    assert result.breakdown == (
        {"visitors": 23, "bonus": 2, "hand": 2},
        {"visitors": 10, "bonus": 0, "hand": 1},
    )
    assert result.scores == (27, 11)
    assert result.ranking == ((0,), (1,))


def _tied_end(seat0_hand: list[str], seat0_row: dict[str, str]) -> tuple:
    row4 = {"r4c0": "pyramid_1", "r4c1": "whale_2", "r4c2": "elephant_3", "r4c3": "spiral_4"}
    state = crafted(
        2,
        {**seat0_row, **row4, "r4c4": "icosahedron_5"},
        [seat0_hand, ["t_rex_4", "t_rex_5", "swan_4"]],
        visitors={"O-W0": 0, "O-W4": 1},
        visitors_left=[0, 0],
        seat=None,
        phase="over",
    )
    return state.result()


def test_tie_break_more_hand_points_wins():
    """Patt: equal totals, the player with more hand points wins (seed 002)."""
    row0 = {"r0c0": "swan_2", "r0c1": "whale_3", "r0c2": "elephant_4", "r0c3": "spiral_5"}
    result = _tied_end(["swan_1", "t_rex_2", "t_rex_3"], row0)
    assert result.scores == (15, 15)
    assert [b["hand"] for b in result.breakdown] == [1, 0]
    assert result.ranking == ((0,), (1,))


def test_tie_break_then_the_player_who_moved_last_wins():
    """Patt, still tied: the tied player who took a turn most recently wins (seed 002)."""
    row0 = {"r0c0": "t_rex_1", "r0c1": "swan_2", "r0c2": "whale_3", "r0c3": "elephant_4"}
    result = _tied_end(["t_rex_2", "t_rex_3", "swan_3"], {**row0, "r0c4": "spiral_5"})
    assert result.scores == (15, 15)
    assert [b["hand"] for b in result.breakdown] == [0, 0]
    assert result.ranking == ((1,), (0,))


def test_views_hide_other_hands_and_face_down_tiles():
    """Swapping seat 1's hand tile with a face-down tile changes nothing seat 0 sees."""
    state = TOPIARY.setup(2, seed=8)
    other = state.clone()
    cell = next(i for i in range(25) if not other.face_up[i])
    other.hands[1][0], other.grid[cell] = other.grid[cell], other.hands[1][0]
    assert other.view(0) == state.view(0)
    assert other.view(None) == state.view(None)
    assert other.view(1) != state.view(1)


def test_hands_are_shown_to_all_once_the_game_is_over():
    state = TOPIARY.setup(3, seed=9)
    assert state.view(0)["hands"] is None
    random_playout(state, Rng(1))
    view = state.view(None)
    assert view["hands"] == [sorted(h, key=c.tile_ids().__getitem__) for h in view["hands"]]
    assert [len(h) for h in view["hands"]] == [3, 3, 3]
    assert view["result"]["scores"] == list(state.result().scores)
