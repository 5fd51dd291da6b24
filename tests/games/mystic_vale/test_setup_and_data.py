"""Set-up and card data (seed 003 "Spielaufbau"; research notes components.json)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from meadow.games.mystic_vale import components as c
from tests.games.mystic_vale.helpers import CL, FS, fresh

DATA = Path(c.__file__).parent / "data"


@pytest.mark.parametrize(("players", "pool", "pile"), [(2, 23, 12), (3, 28, 15), (4, 33, 18)])
def test_setup(players, pool, pile):
    state = fresh(players)
    assert state.pool == pool
    assert len(state.piles[0]) + 3 == pile
    assert [len(m) for m in state.market] == [3, 3, 3]
    assert [len(m) for m in state.vale_market] == [4, 4]
    assert state.fertile == [6, 6, 6]
    for druid in state.seats:
        slots = Counter(t for card in druid.cards for t in card if t)
        assert slots == {CL: 9, FS: 3}
        assert sum(1 for card in druid.cards if not any(card)) == 8
        assert not druid.mana_token
        # "until two Cursed Land are in the field and one is the on-deck card"
        assert sum(druid.cards[x].count(CL) for x in druid.field) == 2
        assert druid.cards[druid.on_deck].count(CL) == 1
        assert len(druid.field) + 1 + len(druid.deck) + len(druid.discard) == 20
    assert state.to_move == 0 and state.phase == "plant"


def test_card_counts_per_level_and_set_are_the_real_ones():
    base = Counter(
        c.split_copy(x)[0].level
        for x in c.advancement_copies(("base",), 1)
        + c.advancement_copies(("base",), 2)
        + c.advancement_copies(("base",), 3)
    )
    assert base == {1: 33, 2: 30, 3: 33}
    magic = Counter(
        c.split_copy(x)[0].level
        for lv in (1, 2, 3)
        for x in c.advancement_copies(("vale_of_magic",), lv)
    )
    assert magic == {1: 18, 2: 21, 3: 15}
    assert [len(c.vale_copies(("base",), lv)) for lv in (1, 2)] == [18, 18]
    assert [len(c.vale_copies(("vale_of_magic",), lv)) for lv in (1, 2)] == [9, 9]


def test_every_card_named_in_the_glossary_has_its_ability():
    advancements = {
        a["id"]: a for a in json.loads((DATA / "advancements.json").read_text())["advancements"]
    }
    vales = {v["id"]: v for v in json.loads((DATA / "vales.json").read_text())["vales"]}
    expected = {
        "achtsame_eule": "discard_from_field",
        "totholz_ernterin": "discard_from_field",
        "aurora": "aurora",
        "chor_des_erdengesangs": "chor_des_erdengesangs",
        "druide_des_friedens": "druide_des_friedens",
        "gaias_erwaehlte": "gaias_erwaehlte",
        "magischer_samen": "magischer_samen",
        "reinigender_regen": "reinigender_regen",
        "ruhiges_wetter": "ruhiges_wetter",
        "samen_des_lebens": "samen_des_lebens",
        "baumkronen_erkunder": "baumkronen_erkunder",
        "brutplatz": "brutplatz",
        "goldfluegel_greif": "goldfluegel_greif",
        "lebenskraft_orakel": "lebenskraft_orakel",
        "sporenverteiler": "sporenverteiler",
        "wachstumsueberlauf": "wachstumsueberlauf",
        "keimling": "keimling",
    }
    for card, ability in expected.items():
        assert advancements[card]["ability"] == ability and advancements[card]["named"]
    for card in (
        "alte_lebenswurzeln",
        "azurblauer_see",
        "bach_der_vitalitaet",
        "bluehende_lichtung",
        "aetherbaum",
        "erdenwiege",
        "hoehle_der_tierwelt",
        "hort_der_waldgeister",
        "sonnenquell_tempel",
        "tal_der_magie",
        "manatau_wiese",
        "bernsteinbaum",
        "glitzerklippen_horst",
        "wolfsbau",
        "konklave_der_baumhirten",
    ):
        assert vales[card]["ability"] and vales[card]["named"]
    for card in list(advancements.values()) + list(vales.values()):
        assert card["standin"]["cost"], "no printed cost is public: every cost is a stand-in"


def test_known_levels_are_kept():
    assert c.advancements()["druide_des_friedens"].level == 1
    assert c.vales()["bluehende_lichtung"].level == 1


def test_views_label_stand_ins():
    assert "advancement costs, symbols and levels" in fresh().view(0)["standins"]
