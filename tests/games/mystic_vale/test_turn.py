"""Planting, spoiling, Harvest, Cleanup, markets and the end (seed 003)."""

from __future__ import annotations

import pytest

from meadow.core.errors import IllegalAction
from meadow.core.play import random_playout
from meadow.core.rng import Rng
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    EndHarvest,
    Exchange,
    Pass,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    Spoil,
    StopPrep,
)
from tests.games.mystic_vale.helpers import CL, FS, arrange, fresh, to_harvest


def test_push_then_a_separate_reveal():
    state = fresh()
    arrange(state, [[CL]], on_deck=[FS], deck=[[None], [None]])
    state.apply(Push())
    assert state.phase == "reveal" and state.legal_actions() == [Reveal()]
    state.apply(Reveal())
    assert state.phase == "plant" and state.me.on_deck == 2


def test_auto_reveal_while_fewer_than_three_decay_show():
    state = fresh(auto_reveal=True)
    arrange(state, [[CL]], on_deck=[FS], deck=[[None], [CL], [CL]])
    state.apply(Push())
    assert state.phase == "plant"  # 1 decay showing: revealed at once
    state.apply(Push())
    state.apply(Push())  # now c4 (Cursed Land) is on deck: 2 decay showing before pushing
    assert state.phase in ("plant", "reveal")


def test_spoil_at_four_decay_skips_the_harvest_and_turns_the_mana_token():
    """Spoil: 4+ decay on field and on-deck card; the mana token turns active."""
    state = fresh()
    arrange(state, [[CL], [CL], [CL]], on_deck=[None], deck=[[CL]])
    state.apply(Push())
    events = state.apply(Reveal())
    assert any(e.kind == "spoil" for e in events)
    assert state.seats[0].mana_token and state.seats[0].vp == 0
    assert state.to_move == 1  # Cleanup and Prep ran, the next druid plays


def test_growth_lets_you_show_more_decay():
    state = fresh()
    arrange(state, [[CL], [CL], ["standin_b1d"]], on_deck=[None], deck=[[CL]])  # 1 growth
    state.apply(Push())
    state.apply(Reveal())
    assert state.phase == "plant" and state.decay(state.me) == 3 - 1


def test_you_must_pass_with_all_cards_in_the_field():
    state = fresh()
    arrange(state, [[CL]], on_deck=None)
    state.me.discard = []
    state.me.field = list(range(20))
    state._legal = None
    assert state.legal_actions() == [Pass()]
    with pytest.raises(IllegalAction, match="all 20"):
        state.apply(Push())


def test_harvest_counts_field_symbols_not_the_on_deck_card():
    state = fresh()
    arrange(state, [[CL, "mondwolf"], ["standin_b2a"]], on_deck=["standin_b2d"])
    pool = state.pool
    to_harvest(state)
    h = state.harvest
    assert h.mana_earned == 2 and h.spirits["beast"] == 2 and h.spirits["wild"] == 0
    assert state.me.vp == 1 and state.pool == pool - 1


def test_buy_needs_mana_a_free_position_and_at_most_two():
    state = fresh()
    arrange(state, [[CL, None, None], [FS, None, None], [FS, None, FS]])
    to_harvest(state)
    state.harvest.mana_earned = 10
    state._legal = None
    # no field card has a free top: the fertile soil for top cannot be bought
    assert BuyAdvancement("fertile_soil@top") not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no card in your field has its top position free"):
        state.apply(BuyAdvancement("fertile_soil@top"))
    state.apply(BuyAdvancement("fertile_soil@middle"))
    state.apply(BuyAdvancement("fertile_soil@bottom"))
    assert state.fertile == [6, 5, 5]
    with pytest.raises(IllegalAction, match="at most 2 advancements"):
        state.apply(BuyAdvancement("fertile_soil@middle"))


def test_two_purchases_for_one_free_position_need_two_cards():
    state = fresh()
    arrange(state, [[CL, None, FS], [FS, CL, CL]])
    to_harvest(state)
    state.harvest.mana_earned = 10
    state._legal = None
    state.apply(BuyAdvancement("fertile_soil@middle"))
    assert BuyAdvancement("fertile_soil@middle") not in state.legal_actions()


def test_the_active_mana_token_pays_one_mana():
    state = fresh()
    arrange(state, [[CL], [FS]])  # 2 mana
    state.me.mana_token = True
    to_harvest(state)
    state.market[0][0] = "standin_b1a@middle"
    state._legal = None
    state.apply(BuyAdvancement("standin_b1a@middle"))  # costs 3
    assert not state.me.mana_token


def test_an_any_spirit_symbol_in_a_vale_cost_is_paid_by_any_spirit():
    """S19 lists Conclave of Ents (Konklave der Baumhirten) at 1 sky, 1 forest, 1 beast and 1
    "any"; the symbols' notes (S1, S13): a wild symbol in a cost is paid by any spirit."""
    assert c.vales()["konklave_der_baumhirten"].cost == {
        "sky": 1,
        "forest": 1,
        "beast": 1,
        "wild": 1,
    }
    state = fresh(vale_of_magic=True)
    to_harvest(state)
    state.vale_market[1][0] = "konklave_der_baumhirten"
    state.harvest.spirits = {"beast": 1, "forest": 1, "sky": 1, "wild": 0}
    state._legal = None
    assert BuyVale("konklave_der_baumhirten") not in state.legal_actions()
    state.harvest.spirits = {"beast": 1, "forest": 1, "sky": 2, "wild": 0}
    state._legal = None
    state.apply(BuyVale("konklave_der_baumhirten"))
    assert state.harvest.spirits == {"beast": 0, "forest": 0, "sky": 0, "wild": 0}


def test_vales_are_paid_with_spirits_and_wild():
    state = fresh()
    arrange(state, [["standin_b1e"], ["standin_b1b"]])  # 1 wild, 1 beast
    to_harvest(state)
    state.vale_market[0][0] = "cascading_falls"  # beast 2
    state.vale_market[0][1] = "radiant_pinnacle"  # sky 2
    state._legal = None
    assert BuyVale("radiant_pinnacle") not in state.legal_actions()
    state.apply(BuyVale("cascading_falls"))
    assert state.harvest.spirits == {"beast": 0, "forest": 0, "sky": 0, "wild": 0}
    assert state.me.vales[-1][0] == "cascading_falls"


def test_exchange_three_spirits_for_one_vp_from_the_reserve():
    for edition, allowed in (("yucata", True), ("german", True), ("english", False)):
        state = fresh(edition=edition)
        arrange(state, [["standin_b1e"], ["standin_b1b"], ["hirsch"]])
        pool = state.pool
        to_harvest(state)
        assert (Exchange() in state.legal_actions()) == allowed
        if allowed:
            state.apply(Exchange())
            assert state.me.vp == 1 and state.pool == pool  # from the reserve
        else:
            with pytest.raises(IllegalAction, match="English edition"):
                state.apply(Exchange())


def test_sleeving_never_covers_and_never_uses_the_on_deck_card():
    state = fresh()
    arrange(state, [[CL, None, None], [None, None, None]], on_deck=[None, None, None])
    to_harvest(state)
    state.harvest.mana_earned = 5
    state._legal = None
    state.apply(BuyAdvancement("fertile_soil@top"))
    state.apply(EndHarvest())
    assert state.phase == "sleeve"
    assert state.legal_actions() == [Sleeve("fertile_soil@top", 2)]
    with pytest.raises(IllegalAction, match="already has an advancement at top"):
        state.apply(Sleeve("fertile_soil@top", 1))
    with pytest.raises(IllegalAction, match="not in your field"):
        state.apply(Sleeve("fertile_soil@top", 3))
    state.apply(Sleeve("fertile_soil@top", 2))
    assert state.seats[0].cards[1][0] == FS


def test_vertical_bands_may_cover_each_other():
    state = fresh()
    arrange(state, [[CL, None, "totholz_ernterin"]])
    state.market[1][0] = "achtsame_eule@middle"
    to_harvest(state)
    state.harvest.mana_earned = 9
    state._legal = None
    state.apply(BuyAdvancement("achtsame_eule@middle"))
    state.apply(EndHarvest())
    options = state.legal_actions()
    assert Sleeve("achtsame_eule@middle", 1, old_band=True) in options
    state.apply(Sleeve("achtsame_eule@middle", 1, old_band=True))
    assert state.seats[0].band[0] == 2  # the old band (bottom) still shows


def test_market_refills_fall_back_to_the_next_level():
    state = fresh()
    state.piles[0] = []
    state.market[0][1] = None
    level2 = state.piles[1][-1]
    state.vale_piles[0] = []
    state.vale_market[0][2] = None
    vale2 = state.vale_piles[1][-1]
    state._refill_markets()
    assert state.market[0][1] == level2
    assert state.vale_market[0][2] == vale2


def test_last_level_two_vale_ends_the_game_except_in_english():
    for edition, ends in (("yucata", True), ("german", True), ("english", False)):
        state = fresh(edition=edition)
        state.vale_piles[1] = state.vale_piles[1][-1:]
        state.vale_market[1][0] = None
        state._refill_markets()
        assert state.end_triggered == ends


def test_empty_pool_ends_the_game_after_the_round():
    state = fresh(3)
    state.pool = 1
    arrange(state, [["standin_b2a"]], seat=1)
    state.seat = 1
    to_harvest(state)
    assert state.end_triggered and state.pool == 0
    state.apply(EndHarvest())
    assert state.to_move == 2
    while state.to_move == 2:
        state.apply(state.legal_actions()[-1] if state.phase != "plant" else Pass())
    assert state.is_over


def test_final_scoring_and_tie_break():
    state = fresh()
    random_playout(state, Rng(5))
    result = state.result()
    for seat, druid in enumerate(state.seats):
        assert result.breakdown[seat]["vp_tokens"] == druid.vp
    a, b = state.seats
    b.cards, b.vales, b.vp = [s[:] for s in a.cards], [v[:] for v in a.vales], a.vp
    assert state._result().ranking == ((0, 1),)
    card, pos = next(
        (x, p) for x, slots in enumerate(b.cards) for p, t in enumerate(slots) if t is None
    )
    b.cards[card][pos] = "standin_b3f"  # one more level-3 advancement ...
    a.vp += sum(state.final_points(b).values()) - sum(state.final_points(a).values())
    result = state._result()  # ... and equal scores: the level-3 advancement decides
    assert result.scores[0] == result.scores[1]
    assert result.ranking == ((1,), (0,))


def test_german_edition_may_stop_prep_early():
    state = fresh(edition="german")
    arrange(state, [[None]], on_deck=[None], deck=[["standin_b1a", CL]] + [[None]] * 3)
    to_harvest(state)
    state.apply(EndHarvest())  # cleanup, then Prep: c3 (2 decay) comes up as on-deck card
    assert state.phase == "prep" and StopPrep() in state.legal_actions()
    state.apply(StopPrep())
    assert state.to_move == 1


def test_spoil_can_be_accepted_when_a_prevention_exists():
    state = fresh()
    arrange(
        state, [["druide_des_friedens"], [CL], [CL]], on_deck=[None], deck=[[CL, "standin_b1a"]]
    )
    state.apply(Push())
    state.apply(Reveal())
    assert state.phase == "spoiling"
    state.apply(Spoil())
    assert state.seats[0].spoiled or state.to_move == 1


def _kept_card_spoils_prep(state) -> list:
    """Brutplatz keeps c2 (2 decay); c3 (2 decay) waits on deck; c1's growth is discarded.

    Planting shows 2 + 2 - 1 = 3 decay; once Cleanup discards c1, Prep starts with 4."""
    arrange(
        state,
        [["standin_b1d"], [CL, "brutplatz", "standin_b1a"]],
        on_deck=[CL, "standin_b1a"],
    )
    assert state.decay(state.me) == 3
    to_harvest(state)
    state.apply(EndHarvest())
    assert state.phase == "nest"
    return state.apply(Choose(2))


def test_prep_spoils_when_four_decay_show_before_a_card_is_played():
    """Seed 003, "4) Vorbereiten" and "Verfall und Wachstum - Das Feld verderben": the field
    spoils at any moment of Prep when 4 or more decay show on the field and the on-deck card;
    the druid then skips the Harvest of the next turn and goes straight to Cleanup."""
    state = fresh()
    events = _kept_card_spoils_prep(state)
    druid = state.seats[0]
    assert druid.field == [1] and druid.on_deck == 2 and state.decay(druid) == 4
    assert any(e.kind == "spoil" and e.seat == 0 for e in events)
    assert druid.spoiled and druid.mana_token and state.to_move == 1
    to_harvest(state)  # the other druid's turn; then the spoiled druid's turn begins
    events = state.apply(EndHarvest())
    own = [e.kind for e in events if e.seat == 0]
    assert own[:2] == ["turn", "cleanup"] and "harvest" not in own


def test_a_spoil_in_prep_offers_the_preventions():
    """Seed 003, glossary "Blühende Lichtung" (and Druide des Friedens, Ätherbaum): "Verdirbst
    du im seltenen Fall dein Feld bereits beim Vorbereiten, darfst du die Blühende Lichtung
    auch jetzt bereits abwerfen"."""
    state = fresh()
    state.me.vales.append(["bluehende_lichtung", 0])
    _kept_card_spoils_prep(state)
    assert state.phase == "spoiling" and state.to_move == 0
    assert state.legal_actions() == [Prevent("bluehende_lichtung"), Spoil()]
    state.apply(Prevent("bluehende_lichtung"))
    druid = state.seats[0]
    assert state.decay(druid) == 3 and not druid.spoiled and state.to_move == 1
