"""Mystic Vale's evaluation for search bots: points now plus what each deck should still
bring, and the reveal hook that gives the search its chance nodes."""

from __future__ import annotations

from meadow.core.rng import Rng
from meadow.games.mystic_vale import search
from meadow.games.mystic_vale.actions import BuyAdvancement, Pass, Push, Reveal
from meadow.games.mystic_vale.components import advancements
from meadow.games.mystic_vale.rules import HARVEST, SLEEVE, MysticValeState
from tests.games.mystic_vale.helpers import CL, MYSTIC_VALE, fresh

VP_CARD = "standin_b3a"  # 3 VP at each harvest, 2 at the end
GROWTH = "standin_b1d"  # 1 growth


def lead(state: MysticValeState) -> float:
    values = MYSTIC_VALE.evaluate(state)
    return values[0] - values[1]


def sleeve_on_blanks(state: MysticValeState, seat: int, type_id: str, count: int) -> None:
    druid = state.seats[seat]
    blanks = [x for x, slots in enumerate(druid.cards) if slots == [None, None, None]]
    for x in blanks[:count]:
        druid.cards[x][0] = type_id


def test_a_deck_with_vp_cards_is_worth_more_than_their_end_points():
    state = fresh()
    before = lead(state)
    sleeve_on_blanks(state, 0, VP_CARD, 3)
    end_points = 3 * 2
    assert lead(state) > before + end_points


def test_growth_is_worth_something_and_decay_costs():
    plain = fresh()
    grown, cursed = fresh(), fresh()
    sleeve_on_blanks(grown, 0, GROWTH, 3)
    sleeve_on_blanks(cursed, 0, CL, 3)
    assert lead(cursed) < lead(plain) < lead(grown)


def test_fewer_vp_left_in_the_pool_make_a_deck_worth_less():
    early, late = fresh(), fresh()
    for state in (early, late):
        sleeve_on_blanks(state, 0, VP_CARD, 3)
    late.pool = 3
    assert 0 < lead(late) < lead(early)


def test_a_purchase_counts_as_much_waiting_as_sleeved():
    state = fresh()
    state.apply(Pass())
    state.harvest.mana_earned = 7
    plain = [
        copy
        for level in state.market
        for copy in level
        if copy and copy.endswith("@top") and not advancements()[copy.split("@")[0]].ability
    ]
    copy = plain[0]
    state.apply(BuyAdvancement(copy))
    state.apply(state.legal_actions()[-1])  # end harvest
    assert state.phase == SLEEVE
    waiting = MYSTIC_VALE.evaluate(state)[0]
    target = next(x for x in state.seats[0].field if state.seats[0].cards[x] == [None] * 3)
    state.harvest.to_sleeve.clear()
    state.seats[0].cards[target][0] = copy.partition("@")[0]
    assert abs(MYSTIC_VALE.evaluate(state)[0] - waiting) < 1e-9


def test_a_spoil_costs_the_turn_in_progress():
    state = fresh()
    assert state.phase == "plant"
    before = MYSTIC_VALE.evaluate(state)[0]
    state.seats[0].spoiled = True
    assert MYSTIC_VALE.evaluate(state)[0] < before


def test_unspent_mana_counts_in_the_harvest():
    state = fresh()
    state.apply(Pass())
    assert state.phase == HARVEST
    before = MYSTIC_VALE.evaluate(state)[0]
    state.harvest.mana_earned += 3
    assert MYSTIC_VALE.evaluate(state)[0] > before


def test_the_reveal_hook_names_exactly_the_steps_that_turn_a_card_up():
    state, rng = fresh(seed=7), Rng(7)
    turned_up = quiet = 0
    while not state.is_over and state.ply < 400:
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        events = state.apply(action)
        outcome = search.revealed(state, events, 0)
        shows = [e for e in events if e.reveals and e.kind not in ("shuffle_deck", "game_over")]
        assert (outcome is not None) == bool(shows)
        if isinstance(action, Reveal):
            assert outcome is not None
            turned_up += 1
        elif isinstance(action, Push | BuyAdvancement | Pass):
            quiet += outcome is None
    assert turned_up > 5 and quiet > 5


def test_twin_cards_turned_up_are_one_outcome_and_different_cards_two():
    state = fresh()
    druid = state.seats[0]
    state.apply(Push())
    assert state.legal_actions() == [Reveal()]
    blanks = [x for x in druid.deck if druid.cards[x] == [None, None, None]]
    cursed = [x for x in druid.deck if CL in druid.cards[x]]
    outcomes = []
    for card in (blanks[0], blanks[1], cursed[0]):
        world = state.clone()
        deck = world.seats[0].deck
        deck.remove(card)
        deck.append(card)  # the next card up
        outcomes.append(search.revealed(world, world.apply(Reveal()), 0))
    assert outcomes[0] == outcomes[1] != outcomes[2]
