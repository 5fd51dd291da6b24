"""The draft variant (seed 002, "DRAFT-Variante"; data/setup.json draft_variant)."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.core.errors import IllegalAction
from meadow.core.rng import Rng
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import KeepTiles

TOPIARY = games.get("topiary")


@pytest.mark.parametrize(("players", "surplus", "choices"), [(2, 4, 35), (3, 1, 4), (4, 3, 20)])
def test_last_player_keeps_three_and_the_surplus_travels_right(players, surplus, choices):
    state = TOPIARY.setup(players, {"draft": True}, seed=12)
    assert state.to_move == players - 1
    assert len(state.hands[-1]) == 3 + surplus
    assert len(state.legal_actions()) == choices
    for seat in reversed(range(players)):
        assert state.to_move == seat
        hand = list(state.hands[seat])
        events = state.apply(state.legal_actions()[-1])
        assert len(state.hands[seat]) == 3
        assert sorted(state.passed[seat]) == sorted(set(hand) - set(state.hands[seat]))
        assert events[0].public == {"passed": surplus, "to": seat - 1 if seat else None}
        assert "passed_tiles" not in events[0].for_seat((seat + 1) % players)
    assert sorted(state.box) == sorted(state.passed[0])
    assert state.to_move == 0 and state.phase == "visitor"


def test_keep_must_name_tiles_of_the_hand():
    state = TOPIARY.setup(2, {"draft": True}, seed=13)
    own = state.legal_actions()[0].tiles
    foreign = c.tile_id(state.hands[0][0])
    with pytest.raises(IllegalAction, match="three tiles of your hand"):
        state.apply(KeepTiles((own[0], own[1], foreign)))


def test_sampled_worlds_keep_what_a_drafter_knows():
    """Seat 0 passed its surplus to the box: it knows the box. Seat 1 knows the tiles it
    passed went to seat 0's hand or the box, never into the garden."""
    state = TOPIARY.setup(2, {"draft": True}, seed=14)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    rng = Rng(3)
    for _ in range(50):
        world0 = state.sample_hidden(0, rng)
        assert sorted(world0.box) == sorted(state.box)
        world1 = state.sample_hidden(1, rng)
        for tile in state.passed[1]:
            assert tile in world1.hands[0] or tile in world1.box
