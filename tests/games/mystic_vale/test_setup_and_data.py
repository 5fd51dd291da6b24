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
    for card in advancements.values():
        assert card["standin"]["cost"], "no printed advancement cost is public"
    for card in vales.values():
        sourced = "S19" in card["source"]
        assert card["standin"]["cost"] is not sourced, card["id"]


S19 = Path(__file__).parents[3] / "scripts" / "data" / "mystic_vale_vale_costs_S19.json"


def test_the_vale_costs_of_the_public_list_are_the_cards_costs():
    """S19 (sources.json): 22 vale types with English name, level and spirit cost; "any" is a
    cost symbol any spirit pays, the printed wild symbol in a cost. Each is a card of
    vales.json, matched by its German name where the list gives one, else by its English name;
    its cost and level are real values there, every other value stays a stand-in."""
    rows = json.loads(S19.read_text(encoding="utf-8"))["vales"]
    assert len(rows) == 22
    by_name = {v.name: v for v in c.vales().values()}
    for row in rows:
        vale = by_name[row["name_de_matched"] or row["name_en"]]
        cost = {("wild" if s == "any" else s): n for s, n in row["cost_spirit"].items() if n}
        assert (vale.level, vale.cost) == (row["level"], cost), row["name_en"]
        assert vale.standin and set(vale.sourced) == {"cost", "level"}
    listed = {row["name_de_matched"] or row["name_en"] for row in rows}
    assert all(not v.sourced for v in c.vales().values() if v.name not in listed)


def test_the_public_lists_level_one_vales_are_the_base_games():
    """S19's nine level-1 types of two copies each are the base game's 18 level-1 vale cards
    (research notes README): no level-1 stand-in is left in the base game."""
    base_one = [v for v in c.vales().values() if v.set == "base" and v.level == 1]
    assert len(base_one) == 9 and all(v.sourced for v in base_one)


def test_known_levels_are_kept():
    assert c.advancements()["druide_des_friedens"].level == 1
    assert c.vales()["bluehende_lichtung"].level == 1


def test_views_label_stand_ins():
    state = fresh(vale_of_magic=True)
    state.vale_market[1][:2] = ["konklave_der_baumhirten", "erdenwiege"]
    view = state.view(0)
    vales = "vale symbols and copies; the costs and levels of vales no source lists"
    assert "advancement costs, symbols and levels" in view["standins"]
    assert vales in view["standins"]
    catalog = view["catalog"]["vales"]
    assert catalog["konklave_der_baumhirten"]["sourced"] == ["cost", "level"]
    assert catalog["konklave_der_baumhirten"]["standin"]
    assert catalog["erdenwiege"]["sourced"] == []
