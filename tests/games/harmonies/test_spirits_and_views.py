"""Nature's Spirits (rulebook p.10) and what each seat may see."""

from __future__ import annotations

import json

import pytest

from meadow.core.errors import IllegalAction
from meadow.core.play import random_playout
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import ChooseSpirit, TakeTokens
from meadow.games.harmonies.calculator import export_board, score_board
from tests.games.harmonies.helpers import fresh


def test_each_player_is_dealt_two_different_spirits():
    state = fresh(4, spirits=True)
    dealt = [cid for p in state.seats for cid in p.offer]
    assert len(dealt) == len(set(dealt)) == 8
    assert all(cid in c.SPIRIT_IDS for cid in dealt)


def test_the_first_decision_is_the_spirit_and_it_counts_as_a_held_card():
    state = fresh(2, spirits=True)
    offer = state.seats[0].offer
    assert state.legal_actions() == [ChooseSpirit(c.cards()[cid].slug) for cid in offer]
    with pytest.raises(IllegalAction, match="first keep one"):
        state.apply(TakeTokens(1))
    events = state.apply(ChooseSpirit(c.cards()[offer[1]].slug))
    assert state.seats[0].spirit == offer[1]
    assert state.seats[0].held == [[offer[1], 0]]
    returned = c.cards()[offer[0]].slug
    assert events[0].for_seat(0)["returned"] == returned
    assert "returned" not in events[0].for_seat(1)
    assert "returned" not in events[0].for_seat(None)


def test_spirit_offers_are_seen_by_their_owner_on_its_first_turn_only():
    state = fresh(2, spirits=True)
    own = [c.cards()[cid].slug for cid in state.seats[1].offer]
    assert "spirit_offer" not in state.view(1)["boards"][1]  # not yet seat 1's turn
    assert "spirit_offer" in state.view(0)["boards"][0]
    assert "spirit_offer" not in state.view(1)["boards"][0]
    state.apply(state.legal_actions()[0])
    rng = Rng(2)
    while state.to_move == 0:
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    assert state.view(1)["boards"][1]["spirit_offer"] == own
    others_see = json.dumps(state.view(0)) + json.dumps(state.view(None))
    assert not any(f'"{slug}"' in others_see for slug in own)
    kept = state.view(1)["boards"][0]["spirit"]
    assert kept is not None  # the kept spirit is public


def test_views_hide_nothing_public_and_show_no_draw_order():
    state = fresh(3)
    view = state.view(2)
    assert view["deck_size"] == len(state.deck)
    assert "deck" not in view and "rng" not in view
    assert sum(view["pouch"].values()) == sum(state.pouch.values())


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"side": "B"}), (4, {"spirits": True})]
)
def test_the_game_and_the_calculator_agree_on_final_boards(players, options):
    """One scoring code: a final board exported to the calculator's format scores the same."""
    state = fresh(players, seed=players, **options)
    random_playout(state, Rng(players))
    result = state.result()
    for seat in range(players):
        points = score_board(export_board(state, seat))
        assert points["total"] == result.scores[seat]
        assert {k: v for k, v in points.items() if k != "total"} == result.breakdown[seat]
