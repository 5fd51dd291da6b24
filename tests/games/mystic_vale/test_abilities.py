"""Every ability of the glossary (seed 003, "Kartenglossar") and Yucata's notes."""

from __future__ import annotations

import pytest

from meadow.core.errors import IllegalAction
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    Decline,
    EndHarvest,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    UseAbility,
)
from tests.games.mystic_vale.helpers import CL, FS, arrange, fresh, to_harvest


def _own_vale(state, vale: str, bought: int = 0) -> None:
    state.me.vales.append([vale, bought])
    state._legal = None


# -- on play ------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ["achtsame_eule", "totholz_ernterin"])
def test_discard_a_card_already_in_the_field(card):
    state = fresh()
    arrange(state, [[CL]], on_deck=[None, None, card], deck=[[None]])
    state.apply(Push())
    assert state.phase == "ability"
    assert state.legal_actions() == [Choose(1), Decline()]
    state.apply(Choose(1))
    assert state.me.field == [1] and 0 in state.me.discard
    assert state.phase == "reveal"


def test_discard_ability_on_the_first_card_does_nothing():
    state = fresh()
    arrange(state, [], on_deck=[None, None, "achtsame_eule"], deck=[[None]])
    state.apply(Push())
    assert state.phase == "reveal"


def test_ruhiges_wetter_looks_at_the_next_card_and_discards_or_keeps_it():
    state = fresh()
    arrange(state, [], on_deck=["ruhiges_wetter"], deck=[[CL], [None]])
    state.apply(Push())
    assert state.legal_actions() == [Choose(2), Decline()]
    assert state.view(0)["druids"][0]["deck_top"] == [2]
    assert "deck_top" not in state.view(1)["druids"][0]
    state.apply(Choose(2))  # discard the Cursed Land waiting on top
    state.apply(Reveal())
    assert state.me.on_deck == 2 and 1 in state.me.discard


def test_reinigender_regen_searches_the_deck_then_shuffles():
    state = fresh()
    arrange(state, [], on_deck=["reinigender_regen"], deck=[[None], [None], [CL]])
    state.apply(Push())
    assert Choose(4) in state.legal_actions()
    events = state.apply(Choose(4))
    assert 3 in state.me.discard and 3 not in state.me.deck
    assert any(e.kind == "shuffle_deck" for e in events)
    assert "card" not in events[0].for_seat(1) and events[0].for_seat(0)["card"] == 4


def test_lebenskraft_orakel_searches_once_per_guardian():
    state = fresh()
    arrange(state, [], on_deck=["lebenskraft_orakel"], deck=[[CL], [CL], [None]])
    state.apply(Push())
    state.apply(Choose(2))
    assert state.phase == "ability"  # 2 guardians: a second search
    state.apply(Choose(3))
    assert state.phase == "reveal" and {1, 2} <= set(state.me.discard)


def test_goldfluegel_greif_turns_the_mana_token():
    state = fresh()
    arrange(state, [], on_deck=["goldfluegel_greif"], deck=[[None]])
    state.apply(Push())
    assert state.me.mana_token


# -- persistent and spoil preventions -----------------------------------------------------


def test_samen_des_lebens_ignores_decay_on_its_card():
    state = fresh()
    arrange(state, [[CL, "samen_des_lebens"]], on_deck=["standin_b1a"])
    assert state.decay(state.me) == 1  # only the on-deck card's decay


def test_keimling_ignores_cursed_land_decay_on_its_card():
    state = fresh()
    arrange(state, [[CL, "keimling"], [CL, "standin_b1a"]])
    assert state.decay(state.me) == 2


def _about_to_spoil(state, revealed, extra_field=()):
    """3 Cursed Land in the field, then `revealed` comes up on deck: 4+ decay."""
    arrange(state, [[CL], [CL], *extra_field], on_deck=[CL], deck=[revealed, [None]])
    state.apply(Push())
    return state.apply(Reveal())


def test_druide_des_friedens_discards_the_spoiling_card_once_per_turn():
    state = fresh()
    _about_to_spoil(state, ["standin_b1a", CL], [["druide_des_friedens"]])
    assert state.phase == "spoiling"
    assert Prevent("druide_des_friedens", 3) in state.legal_actions()
    state.apply(Prevent("druide_des_friedens", 3))
    assert 4 in state.me.discard and state.me.on_deck == 5
    assert state.to_move == 0 and state.phase == "plant"
    assert "druide_des_friedens" in state.me.used


def test_bluehende_lichtung_returns_to_the_box_for_one_growth():
    state = fresh()
    _own_vale(state, "bluehende_lichtung")
    _about_to_spoil(state, ["standin_b1a"])
    state.apply(Prevent("bluehende_lichtung"))
    assert state.to_move == 0 and state.phase == "plant"
    assert state.me.growth_bonus == 1 and "bluehende_lichtung" in state.me.boxed_vales
    assert state.decay(state.me) == 3  # 3 Cursed Land + 1 on the new card, 1 growth


def test_a_vale_bought_this_turn_does_not_prevent():
    state = fresh()
    _own_vale(state, "bluehende_lichtung", bought=state.me.turn)
    events = _about_to_spoil(state, ["standin_b1a"])
    assert any(e.kind == "spoil" for e in events) and state.to_move == 1


def test_aetherbaum_ignores_decay_not_from_cursed_land_on_one_card():
    state = fresh()
    _own_vale(state, "aetherbaum")
    _about_to_spoil(state, ["standin_b1a", "standin_b1c"])  # 2 decay, not from Cursed Land
    assert Prevent("aetherbaum", 4) in state.legal_actions()  # the on-deck card may be chosen
    state.apply(Prevent("aetherbaum", 4))
    assert state.to_move == 0 and state.phase == "plant"
    assert state.decay(state.me) == 3


def test_aetherbaum_leaves_cursed_land_decay():
    state = fresh()
    _own_vale(state, "aetherbaum")
    _about_to_spoil(state, ["standin_b1a", CL])
    events = state.apply(Prevent("aetherbaum", 4))  # ignores only the 1 not from Cursed Land
    assert any(e.kind == "spoil" for e in events)  # 3 + 2 - 1 = 4: still spoiled
    assert state.seats[0].mana_token and state.to_move == 1


def test_konklave_stand_in_gives_two_growth():
    state = fresh()
    _own_vale(state, "konklave_der_baumhirten")
    _about_to_spoil(state, ["standin_b1a", CL])
    state.apply(Prevent("konklave_der_baumhirten"))
    assert state.to_move == 0 and state.phase == "plant" and state.me.growth_bonus == 2


def test_alte_lebenswurzeln_grows_and_only_one_may_be_owned():
    state = fresh()
    arrange(state, [[CL], [CL]], on_deck=[CL])
    _own_vale(state, "alte_lebenswurzeln")
    assert state.growth(state.me) == 1
    arrange(state, [["standin_b1b", "standin_b1b"], ["standin_b1b"], ["hirsch", "hirsch"]])
    to_harvest(state)
    state.vale_market[0][0] = "alte_lebenswurzeln"
    state._legal = None
    with pytest.raises(IllegalAction, match="only one Alte Lebenswurzeln"):
        state.apply(BuyVale("alte_lebenswurzeln"))


# -- harvest ----------------------------------------------------------------------------


def test_harvest_abilities_are_mandatory_once_each():
    state = fresh()
    arrange(state, [[CL], [FS], [None, None, "standin_b1d"], ["aurora"]])
    to_harvest(state)
    assert EndHarvest() not in state.legal_actions()
    with pytest.raises(IllegalAction, match="mandatory"):
        state.apply(EndHarvest())
    vp = state.me.vp
    state.apply(UseAbility(4, "top"))
    assert state.me.vp == vp + 4 // 2  # 1 VP per 2 cards in the field
    assert UseAbility(4, "top") not in state.legal_actions()


def test_magischer_samen_and_wachstumsueberlauf_in_the_chosen_order():
    state = fresh()
    arrange(state, [[CL], [FS], ["magischer_samen"], ["wachstumsueberlauf"]])
    to_harvest(state)
    assert state.harvest.mana_earned == 3  # Cursed Land, Fertile Soil, Wachstumsueberlauf
    state.apply(UseAbility(3, "top"))  # +3 for the other cards
    state.apply(UseAbility(4, "top"))  # doubles 6
    assert state.harvest.mana_earned == 12


def test_two_wachstumsueberlauf_quadruple():
    state = fresh()
    arrange(state, [[FS], ["wachstumsueberlauf"], [None, "wachstumsueberlauf"]])
    to_harvest(state)
    state.apply(UseAbility(2, "top"))
    state.apply(UseAbility(3, "middle"))
    assert state.harvest.mana_earned == 3 * 4


@pytest.mark.parametrize(
    "order",
    [
        ("double", "standin_b3c@middle", "fertile_soil@bottom"),
        ("double", "fertile_soil@bottom", "standin_b3c@middle"),
        ("fertile_soil@bottom", "double", "standin_b3c@middle"),
    ],
)
def test_wachstumsueberlauf_doubles_the_mana_token_whatever_the_order(order):
    """Seed 003, glossary "Wachstumsüberlauf": the mana from card symbols, harvest abilities
    "und ggf. durch das Manaplättchen" is doubled. 4 card mana and the active token make
    (4 + 1) x 2 = 10: an 8-cost and a 2-cost advancement, bought before or after the doubling."""
    state = fresh()
    arrange(state, [["wachstumsueberlauf"], [CL], [FS], [FS]])  # 4 mana
    state.me.mana_token = True
    state.market[2][0] = "standin_b3c@middle"  # costs 8
    to_harvest(state)
    assert state.harvest.mana_earned == 4
    for step in order:
        state.apply(UseAbility(1, "top") if step == "double" else BuyAdvancement(step))
    assert state.harvest.advancements_bought == 2 and state.mana_left() == 0
    assert not state.me.mana_token


def test_a_purchase_beyond_the_doubled_card_mana_spends_the_token():
    """Issue 43, item 7. Seed 003, "Aufwertungen kaufen": "Gibst du alles Mana aus, musst du
    das Plättchen auf die inaktive graue Seite drehen." 4 card mana doubled are 8; buying
    7 + 2 = 9 can only be paid by counting the token (its 1, doubled), which turns grey."""
    state = fresh()
    arrange(state, [["wachstumsueberlauf"], [CL], [FS], [FS]])  # 4 mana
    state.me.mana_token = True
    state.market[2][0] = "standin_b3a@middle"  # costs 7
    state.market[0][0] = "standin_b1d@middle"  # costs 2
    to_harvest(state)
    state.apply(UseAbility(1, "top"))
    assert state.mana_left() == 10
    state.apply(BuyAdvancement("standin_b3a@middle"))
    assert state.me.mana_token
    state.apply(BuyAdvancement("standin_b1d@middle"))
    assert not state.me.mana_token
    assert state.mana_left() == 1  # what is left of the token's doubled mana lapses


def test_a_purchase_within_the_doubled_card_mana_keeps_the_token():
    """Seed 003, "Aufwertungen kaufen": "Nutzt du dein aktives Manaplättchen nicht, bleibt es
    auf der aktiven Seite". 4 card mana doubled pay for 8 without the token."""
    state = fresh()
    arrange(state, [["wachstumsueberlauf"], [CL], [FS], [FS]])  # 4 mana
    state.me.mana_token = True
    state.market[2][0] = "standin_b3c@middle"  # costs 8
    to_harvest(state)
    state.apply(UseAbility(1, "top"))
    state.apply(BuyAdvancement("standin_b3c@middle"))
    assert state.me.mana_token
    assert state.mana_left() == 2  # the token's 1, doubled, for this harvest only


def test_a_token_turned_again_by_a_vale_is_spent_by_a_purchase_beyond_the_card_mana():
    """Issue 43, item 7, the same gap after a vale turns the token active again: with 4 card
    mana and the token spent to 1 by Bernsteinbaum and turned again, doubling gives
    (5 + 1) x 2 = 12; paying more than the 10 the cards and the spent token give needs the
    new token, which turns grey."""
    state = fresh()
    arrange(state, [["wachstumsueberlauf"], [CL], [FS], [FS]])  # 4 mana
    state.me.mana_token = True
    _buy_vale(state, "bernsteinbaum")
    state.apply(UseAbility(1, "top"))
    assert state.mana_left() == 12
    state.market[2][0] = "standin_b3c@middle"  # costs 8
    state.market[0][0] = "standin_b1a@middle"  # costs 3: 11 in all
    state._legal = None
    state.apply(BuyAdvancement("standin_b3c@middle"))
    assert state.me.mana_token
    state.apply(BuyAdvancement("standin_b1a@middle"))
    assert not state.me.mana_token


def test_wachstumsueberlauf_doubles_a_token_spent_by_a_mana_token_vale():
    """Seed 003, glossary "Wachstumsüberlauf" with Yucata's note on Bernsteinbaum: the active
    token is spent (1 mana) before the vale turns it again; both are mana from the token."""
    state = fresh()
    arrange(state, [["wachstumsueberlauf"], [CL], [FS], [FS]])  # 4 mana
    state.me.mana_token = True
    _buy_vale(state, "bernsteinbaum")
    assert state.harvest.mana_earned == 5 and state.me.mana_token
    state.apply(UseAbility(1, "top"))
    assert state.mana_left() == (4 + 1 + 1) * 2


def test_baumkronen_erkunder_adds_cards_from_under_the_on_deck_card():
    state = fresh()
    arrange(state, [["baumkronen_erkunder"]], on_deck=[CL], deck=[[FS], ["standin_b2a"]])
    to_harvest(state)
    mana, vp = state.harvest.mana_earned, state.me.vp
    state.apply(UseAbility(1, "top"))  # 1 guardian: 1 card
    assert state.me.field == [0, 2] and state.me.on_deck == 1
    assert state.harvest.mana_earned == mana + 1 and state.me.vp == vp


def test_chor_des_erdengesangs_discounts_and_binds_the_sleeve():
    state = fresh()
    arrange(state, [[None, None, "chor_des_erdengesangs"], [None, None, None]])
    state.market[2][0] = "standin_b3f@top"  # cost 6
    to_harvest(state)
    state.harvest.mana_earned = 4
    state._legal = None
    assert BuyAdvancement("standin_b3f@top") not in state.legal_actions()
    state.apply(BuyAdvancement("standin_b3f@top", onto=1))
    state.apply(EndHarvest())
    assert state.legal_actions() == [Sleeve("standin_b3f@top", 1)]


def test_vale_harvest_abilities_work_from_the_next_turn():
    state = fresh()
    arrange(state, [[FS]])
    _own_vale(state, "azurblauer_see", bought=state.me.turn)
    _own_vale(state, "bach_der_vitalitaet", bought=state.me.turn - 1)
    _own_vale(state, "tal_der_magie", bought=state.me.turn - 1)
    to_harvest(state)
    assert state.harvest.mana_earned == 1 + 2  # the lake is new; the brook gives 2
    assert state.harvest.buy_limit == 3 and state.me.vp == 1


def test_manatau_wiese_stand_in():
    state = fresh()
    arrange(state, [["lebenskraft_orakel"], ["hirsch"]])
    _own_vale(state, "manatau_wiese")
    to_harvest(state)
    assert state.harvest.mana_earned == 2  # 2 guardians on the best card


# -- on purchase --------------------------------------------------------------------------


def _buy_vale(state, vale: str) -> list:
    to_harvest(state)
    state.vale_market[0][0] = vale
    state.harvest.spirits = {"beast": 5, "forest": 5, "sky": 5, "wild": 0}
    state._legal = None
    return state.apply(BuyVale(vale))


def test_erdenwiege_counts_every_vale_including_itself():
    state = fresh()
    arrange(state, [[FS]])
    _own_vale(state, "cascading_falls")
    _buy_vale(state, "erdenwiege")
    state.apply(EndHarvest())
    assert state.seats[0].vp == 2


@pytest.mark.parametrize("first", ["erdenwiege", "cascading_falls"])
def test_erdenwiege_counts_the_vales_bought_with_it_in_either_order(first):
    """Seed 003, glossary "Erdenwiege" (Unterstützungen Erweiterung 1): 1 VP per vale in front
    of you, "inklusive der Erdenwiege und anderer Unterstützungen, die du zusammen mit der
    Erdenwiege im selben Zug gekauft hast": counted when the Harvest ends."""
    state = fresh()
    arrange(state, [[FS]])
    second = "cascading_falls" if first == "erdenwiege" else "erdenwiege"
    _buy_vale(state, first)
    state.vale_market[0][1] = second
    state._legal = None
    state.apply(BuyVale(second))
    pool = state.pool
    events = state.apply(EndHarvest())
    assert state.seats[0].vp == 2 and state.pool == pool - 2
    assert [e.public["reason"] for e in events if e.kind == "vp"] == ["erdenwiege"]


def test_hoehle_der_tierwelt_gives_two_mana_now():
    state = fresh()
    arrange(state, [[FS]])
    _buy_vale(state, "hoehle_der_tierwelt")
    assert state.harvest.mana_earned == 3


def test_hort_der_waldgeister_looks_at_three_and_discards_any():
    state = fresh()
    arrange(state, [[FS]], on_deck=[None], deck=[[CL], [None], [CL], [None]])
    _buy_vale(state, "hort_der_waldgeister")
    assert state.phase == "ability"
    assert state.view(0)["druids"][0]["deck_top"] == [3, 4, 5]
    state.apply(Choose(3))
    state.apply(Choose(5))
    state.apply(Decline())
    assert state.phase == "harvest" and state.me.deck[-1] == 3  # c4 stays on top
    assert state.me.on_deck == 1


def test_sonnenquell_tempel_takes_the_top_level_one_vale():
    state = fresh()
    arrange(state, [[FS]])
    top = state.vale_piles[0][-1]
    _buy_vale(state, "sonnenquell_tempel")
    assert [v for v, _ in state.me.vales] == ["sonnenquell_tempel", top]


@pytest.mark.parametrize("vale", ["bernsteinbaum", "wolfsbau", "glitzerklippen_horst"])
def test_mana_token_vales(vale):
    state = fresh()
    arrange(state, [[FS]])
    _buy_vale(state, vale)
    assert state.me.mana_token
    state.me.mana_token = True
    arrange(state, [[FS]])
    state.seat = 0
    mana = state.harvest.mana_earned
    state._on_purchase(c.vales()[vale])
    assert state.harvest.mana_earned == mana + 1  # active already: its 1 mana now


# -- cleanup and end of game ----------------------------------------------------------------


def test_brutplatz_keeps_a_card_that_is_not_first():
    state = fresh()
    arrange(state, [[FS], [None, "brutplatz"], [CL]], on_deck=[CL], deck=[[None]] * 3)
    to_harvest(state)
    state.apply(EndHarvest())
    assert state.phase == "nest" and state.legal_actions() == [Choose(2), Decline()]
    state.apply(Choose(2))
    assert state.seats[0].field[0] == 1  # kept: first card of the next field
    assert 1 not in state.seats[0].discard


def test_brutplatz_not_in_the_round_it_was_bought():
    state = fresh()
    arrange(state, [[FS], [None, None, None]])
    state.market[0][0] = "brutplatz@middle"
    to_harvest(state)
    state.harvest.mana_earned = 5
    state._legal = None
    state.apply(BuyAdvancement("brutplatz@middle"))
    state.apply(EndHarvest())
    state.apply(Sleeve("brutplatz@middle", 2))
    assert state.phase != "nest"


def test_gaias_erwaehlte_and_sporenverteiler_score_at_the_end():
    state = fresh()
    druid = state.seats[0]
    druid.cards[0] = ["gaias_erwaehlte", "morgenrot_saengerin", "hirsch"]
    druid.cards[1] = ["sporenverteiler", "standin_b1d", None]  # 2 growth
    points = state.final_points(druid)
    assert points["abilities"] == 6 + 2


def test_aetherbaum_with_keimling_clears_both_kinds():
    """Yucata's note: Keimling takes the Cursed Land decay, Aetherbaum the rest."""
    state = fresh()
    arrange(state, [[CL, "keimling", "standin_b1a"]], on_deck=[None])
    assert state.decay(state.me) == 1
    state.me.aether.append(0)
    assert state.decay(state.me) == 0
