"""Writes Mystic Vale's card files (advancements.json, vales.json) with stand-in values.

The printed costs and symbols of Mystic Vale's cards are not public. This script records how
Meadow's stand-ins were made: every card named in the seed's glossary keeps its documented
ability and gets stand-in numbers; the remaining slots are filled with plain stand-in cards
from the same symbol vocabulary, so that the counts per level and set are the real ones.
Real values replace these with `meadow mystic-vale import-cards FILE.csv`.

    python scripts/mystic_vale_standins.py      # rewrites meadow/games/mystic_vale/data/
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "meadow" / "games" / "mystic_vale" / "data"
SYMBOLS = ("mana", "decay", "growth", "vp", "beast", "forest", "sky", "wild", "guardian", "end_vp")


def adv(
    id_: str,
    name_de: str,
    set_: str,
    level: int,
    cost: int,
    ability: str | None = None,
    timing: str | None = None,
    vertical: bool = False,
    named: bool = True,
    source: str = "S1",
    **symbols: int,
) -> dict[str, Any]:
    return {
        "id": id_,
        "name": name_de,
        "named": named,
        "set": set_,
        "level": level,
        "cost": cost,
        "symbols": {s: symbols.get(s, 0) for s in SYMBOLS if symbols.get(s, 0)},
        "ability": ability,
        "timing": timing,
        "vertical": vertical,
        "standin": {
            "cost": True,
            "symbols": True,
            "level": id_ != "druide_des_friedens",
            "ability": ability is None and named,
        },
        "source": source if named else "Meadow stand-in",
    }


def vale(
    id_: str,
    name_de: str,
    set_: str,
    level: int,
    copies: int,
    cost: dict[str, int],
    ability: str | None = None,
    timing: str | None = None,
    named: bool = True,
    source: str = "S1",
    end_vp: int = 0,
    growth: int = 0,
) -> dict[str, Any]:
    return {
        "id": id_,
        "name": name_de,
        "named": named,
        "set": set_,
        "level": level,
        "copies": copies,
        "cost": cost,
        "end_vp": end_vp,
        "growth": growth,
        "ability": ability,
        "timing": timing,
        "standin": {
            "cost": True,
            "symbols": True,
            "copies": True,
            "level": id_ != "bluehende_lichtung",
            "ability": False,
        },
        "source": source if named else "Meadow stand-in",
    }


ADVANCEMENTS = [
    # -- base, level 1 (11 types) --
    adv(
        "druide_des_friedens",
        "Druide des Friedens",
        "base",
        1,
        4,
        "druide_des_friedens",
        "spoil_prevention",
        forest=1,
    ),
    adv("ruhiges_wetter", "Ruhiges Wetter", "base", 1, 3, "ruhiges_wetter", "on_play", sky=1),
    adv(
        "totholz_ernterin",
        "Totholz-Ernterin",
        "base",
        1,
        3,
        "discard_from_field",
        "on_play",
        vertical=True,
        mana=1,
    ),
    adv("druidenlied", "Druidenlied", "base", 1, 3, source="S15", mana=1, end_vp=1),
    adv("mondwolf", "Mondwolf", "base", 1, 4, source="S15", mana=1, beast=1, end_vp=1),
    # Hirsch and Morgenrot-Saengerin: symbols chosen so that the glossary's two Gaias
    # Erwaehlte examples (6 VP and 4 VP) come out under Meadow's reading of that ability.
    adv("hirsch", "Hirsch", "base", 1, 3, forest=1),
    adv("standin_b1a", "Stand-in B1-A", "base", 1, 3, named=False, mana=2, decay=1),
    adv("standin_b1b", "Stand-in B1-B", "base", 1, 3, named=False, beast=1, growth=1),
    adv("standin_b1c", "Stand-in B1-C", "base", 1, 3, named=False, sky=1, mana=1, decay=1, vp=1),
    adv("standin_b1d", "Stand-in B1-D", "base", 1, 2, named=False, growth=1),
    adv("standin_b1e", "Stand-in B1-E", "base", 1, 4, named=False, wild=1),
    # -- base, level 2 (10 types) --
    adv(
        "achtsame_eule",
        "Achtsame Eule",
        "base",
        2,
        5,
        "discard_from_field",
        "on_play",
        vertical=True,
        sky=1,
        guardian=1,
    ),
    adv(
        "reinigender_regen",
        "Reinigender Regen",
        "base",
        2,
        5,
        "reinigender_regen",
        "on_play",
        forest=1,
        growth=1,
    ),
    adv(
        "samen_des_lebens",
        "Samen des Lebens",
        "base",
        2,
        4,
        "samen_des_lebens",
        "persistent",
        mana=2,
        decay=1,
    ),
    adv("magischer_samen", "Magischer Samen", "base", 2, 6, "magischer_samen", "harvest"),
    adv("morgenrot_saengerin", "Morgenrot-Sängerin", "base", 2, 6, vp=1, sky=1, end_vp=1),
    adv("standin_b2a", "Stand-in B2-A", "base", 2, 5, named=False, vp=1, beast=1),
    adv("standin_b2b", "Stand-in B2-B", "base", 2, 5, named=False, mana=2, forest=1, vp=1),
    adv("standin_b2c", "Stand-in B2-C", "base", 2, 4, named=False, mana=3, decay=1),
    adv("standin_b2d", "Stand-in B2-D", "base", 2, 6, named=False, wild=1, vp=1),
    adv("standin_b2e", "Stand-in B2-E", "base", 2, 5, named=False, growth=1, sky=1, end_vp=1, vp=1),
    # -- base, level 3 (11 types) --
    adv("aurora", "Aurora", "base", 3, 7, "aurora", "harvest", sky=1, vp=1),
    adv(
        "chor_des_erdengesangs",
        "Chor des Erdengesangs",
        "base",
        3,
        6,
        "chor_des_erdengesangs",
        "persistent",
        mana=1,
        forest=1,
        vp=1,
    ),
    adv("gaias_erwaehlte", "Gaias Erwählte", "base", 3, 7, "gaias_erwaehlte", "end_of_game"),
    adv("standin_b3a", "Stand-in B3-A", "base", 3, 7, named=False, vp=3, end_vp=2),
    adv("standin_b3b", "Stand-in B3-B", "base", 3, 7, named=False, wild=2, end_vp=2, vp=1),
    adv(
        "standin_b3c", "Stand-in B3-C", "base", 3, 8, named=False, vp=2, beast=1, forest=1, end_vp=3
    ),
    adv("standin_b3d", "Stand-in B3-D", "base", 3, 7, named=False, mana=2, vp=2, end_vp=2),
    adv("standin_b3e", "Stand-in B3-E", "base", 3, 7, named=False, vp=2, sky=1, decay=1, end_vp=2),
    adv("standin_b3f", "Stand-in B3-F", "base", 3, 6, named=False, end_vp=3, vp=1),
    adv("standin_b3g", "Stand-in B3-G", "base", 3, 7, named=False, growth=1, vp=2, end_vp=3),
    adv("standin_b3h", "Stand-in B3-H", "base", 3, 8, named=False, vp=3, decay=1, end_vp=1),
    # -- Vale of Magic, level 1 (6 types) --
    adv(
        "goldfluegel_greif",
        "Goldflügel-Greif",
        "vale_of_magic",
        1,
        3,
        "goldfluegel_greif",
        "on_play",
        sky=1,
    ),
    adv("keimling", "Keimling", "vale_of_magic", 1, 3, "keimling", "persistent", mana=1),
    adv("brutplatz", "Brutplatz", "vale_of_magic", 1, 4, "brutplatz", "cleanup", beast=1),
    adv(
        "standin_m1a",
        "Stand-in M1-A",
        "vale_of_magic",
        1,
        3,
        named=False,
        forest=1,
        mana=1,
        decay=1,
    ),
    adv("standin_m1b", "Stand-in M1-B", "vale_of_magic", 1, 2, named=False, mana=1, guardian=1),
    adv(
        "standin_m1c",
        "Stand-in M1-C",
        "vale_of_magic",
        1,
        4,
        named=False,
        beast=1,
        sky=1,
        decay=1,
        vp=1,
    ),
    # -- Vale of Magic, level 2 (7 types) --
    adv(
        "lebenskraft_orakel",
        "Lebenskraft-Orakel",
        "vale_of_magic",
        2,
        5,
        "lebenskraft_orakel",
        "on_play",
        guardian=2,
    ),
    adv(
        "baumkronen_erkunder",
        "Baumkronen-Erkunder",
        "vale_of_magic",
        2,
        6,
        "baumkronen_erkunder",
        "harvest",
        guardian=1,
        forest=1,
        vp=1,
    ),
    adv("standin_m2a", "Stand-in M2-A", "vale_of_magic", 2, 5, named=False, vp=1, forest=1),
    adv("standin_m2b", "Stand-in M2-B", "vale_of_magic", 2, 5, named=False, mana=2, sky=1, vp=1),
    adv(
        "standin_m2c",
        "Stand-in M2-C",
        "vale_of_magic",
        2,
        4,
        named=False,
        mana=2,
        growth=1,
        decay=1,
    ),
    adv(
        "standin_m2d",
        "Stand-in M2-D",
        "vale_of_magic",
        2,
        6,
        named=False,
        wild=1,
        guardian=1,
        end_vp=1,
    ),
    adv("standin_m2e", "Stand-in M2-E", "vale_of_magic", 2, 5, named=False, beast=1, vp=1),
    # -- Vale of Magic, level 3 (5 types) --
    adv(
        "wachstumsueberlauf",
        "Wachstumsüberlauf",
        "vale_of_magic",
        3,
        7,
        "wachstumsueberlauf",
        "harvest",
        mana=1,
        vp=1,
    ),
    adv(
        "sporenverteiler",
        "Sporenverteiler",
        "vale_of_magic",
        3,
        6,
        "sporenverteiler",
        "end_of_game",
        growth=1,
        vp=1,
    ),
    adv("standin_m3a", "Stand-in M3-A", "vale_of_magic", 3, 7, named=False, vp=2, wild=1, end_vp=1),
    adv(
        "standin_m3b",
        "Stand-in M3-B",
        "vale_of_magic",
        3,
        7,
        named=False,
        end_vp=3,
        guardian=2,
        vp=1,
    ),
    adv(
        "standin_m3c", "Stand-in M3-C", "vale_of_magic", 3, 8, named=False, vp=2, beast=1, end_vp=2
    ),
]

VALES = [
    # -- base, level 1: 18 cards, 9 types x 2 copies --
    vale(
        "bluehende_lichtung",
        "Blühende Lichtung",
        "base",
        1,
        2,
        {"forest": 1, "beast": 1},
        "bluehende_lichtung",
        "spoil_prevention",
    ),
    vale(
        "alte_lebenswurzeln",
        "Alte Lebenswurzeln",
        "base",
        1,
        2,
        {"forest": 2},
        "alte_lebenswurzeln",
        "persistent",
    ),
    vale("azurblauer_see", "Azurblauer See", "base", 1, 2, {"sky": 2}, "azurblauer_see", "harvest"),
    vale("standin_vb1a", "Stand-in Vale B1-A", "base", 1, 2, {"beast": 2}, named=False, end_vp=2),
    vale("standin_vb1b", "Stand-in Vale B1-B", "base", 1, 2, {"forest": 2}, named=False, end_vp=2),
    vale("standin_vb1c", "Stand-in Vale B1-C", "base", 1, 2, {"sky": 2}, named=False, end_vp=2),
    vale(
        "standin_vb1d",
        "Stand-in Vale B1-D",
        "base",
        1,
        2,
        {"beast": 1, "sky": 1},
        named=False,
        end_vp=2,
    ),
    vale("standin_vb1e", "Stand-in Vale B1-E", "base", 1, 2, {"wild": 2}, named=False, end_vp=1),
    vale(
        "standin_vb1f",
        "Stand-in Vale B1-F",
        "base",
        1,
        2,
        {"beast": 1, "forest": 1},
        named=False,
        end_vp=1,
        growth=1,
    ),
    # -- base, level 2: 18 cards, 9 types x 2 copies --
    vale(
        "bach_der_vitalitaet",
        "Bach der Vitalität",
        "base",
        2,
        2,
        {"sky": 2, "forest": 1},
        "bach_der_vitalitaet",
        "harvest",
        end_vp=1,
    ),
    vale("standin_vb2a", "Stand-in Vale B2-A", "base", 2, 2, {"beast": 3}, named=False, end_vp=5),
    vale("standin_vb2b", "Stand-in Vale B2-B", "base", 2, 2, {"forest": 3}, named=False, end_vp=5),
    vale("standin_vb2c", "Stand-in Vale B2-C", "base", 2, 2, {"sky": 3}, named=False, end_vp=5),
    vale(
        "standin_vb2d",
        "Stand-in Vale B2-D",
        "base",
        2,
        2,
        {"beast": 1, "forest": 1, "sky": 1},
        named=False,
        end_vp=4,
    ),
    vale("standin_vb2e", "Stand-in Vale B2-E", "base", 2, 2, {"wild": 3}, named=False, end_vp=4),
    vale(
        "standin_vb2f",
        "Stand-in Vale B2-F",
        "base",
        2,
        2,
        {"beast": 2, "sky": 2},
        named=False,
        end_vp=6,
    ),
    vale(
        "standin_vb2g",
        "Stand-in Vale B2-G",
        "base",
        2,
        2,
        {"forest": 2, "beast": 2},
        named=False,
        end_vp=6,
    ),
    vale(
        "standin_vb2h",
        "Stand-in Vale B2-H",
        "base",
        2,
        2,
        {"sky": 2, "forest": 2},
        named=False,
        end_vp=6,
    ),
    # -- Vale of Magic, level 1: 9 cards --
    vale(
        "aetherbaum",
        "Ätherbaum",
        "vale_of_magic",
        1,
        1,
        {"sky": 1, "forest": 1},
        "aetherbaum",
        "spoil_prevention",
        end_vp=1,
    ),
    vale(
        "hoehle_der_tierwelt",
        "Höhle der Tierwelt",
        "vale_of_magic",
        1,
        1,
        {"beast": 2},
        "hoehle_der_tierwelt",
        "on_purchase",
    ),
    vale(
        "hort_der_waldgeister",
        "Hort der Waldgeister",
        "vale_of_magic",
        1,
        1,
        {"forest": 2},
        "hort_der_waldgeister",
        "on_purchase",
    ),
    vale(
        "sonnenquell_tempel",
        "Sonnenquell Tempel",
        "vale_of_magic",
        1,
        1,
        {"sky": 2},
        "sonnenquell_tempel",
        "on_purchase",
    ),
    vale(
        "bernsteinbaum",
        "Bernsteinbaum",
        "vale_of_magic",
        1,
        1,
        {"forest": 1, "beast": 1},
        "mana_token",
        "on_purchase",
        end_vp=1,
    ),
    vale(
        "wolfsbau",
        "Wolfsbau",
        "vale_of_magic",
        1,
        1,
        {"beast": 2},
        "mana_token",
        "on_purchase",
        end_vp=1,
    ),
    vale(
        "manatau_wiese",
        "Manatau-Wiese",
        "vale_of_magic",
        1,
        1,
        {"sky": 1, "wild": 1},
        "manatau_wiese",
        "harvest",
    ),
    vale(
        "standin_vm1a",
        "Stand-in Vale M1-A",
        "vale_of_magic",
        1,
        1,
        {"wild": 2},
        named=False,
        end_vp=2,
    ),
    vale(
        "standin_vm1b",
        "Stand-in Vale M1-B",
        "vale_of_magic",
        1,
        1,
        {"beast": 1, "sky": 1},
        named=False,
        end_vp=2,
    ),
    # -- Vale of Magic, level 2: 9 cards --
    vale(
        "erdenwiege",
        "Erdenwiege",
        "vale_of_magic",
        2,
        1,
        {"forest": 2, "beast": 1},
        "erdenwiege",
        "on_purchase",
    ),
    vale(
        "tal_der_magie",
        "Tal der Magie",
        "vale_of_magic",
        2,
        1,
        {"sky": 2, "beast": 1},
        "tal_der_magie",
        "harvest",
        end_vp=2,
    ),
    vale(
        "glitzerklippen_horst",
        "Glitzerklippen-Horst",
        "vale_of_magic",
        2,
        1,
        {"sky": 2, "forest": 1},
        "mana_token",
        "on_purchase",
        end_vp=3,
    ),
    vale(
        "konklave_der_baumhirten",
        "Konklave der Baumhirten",
        "vale_of_magic",
        2,
        1,
        {"forest": 3},
        "konklave_der_baumhirten",
        "spoil_prevention",
        end_vp=2,
    ),
    vale(
        "standin_vm2a",
        "Stand-in Vale M2-A",
        "vale_of_magic",
        2,
        1,
        {"beast": 3},
        named=False,
        end_vp=5,
    ),
    vale(
        "standin_vm2b",
        "Stand-in Vale M2-B",
        "vale_of_magic",
        2,
        1,
        {"sky": 3},
        named=False,
        end_vp=5,
    ),
    vale(
        "standin_vm2c",
        "Stand-in Vale M2-C",
        "vale_of_magic",
        2,
        1,
        {"forest": 3},
        named=False,
        end_vp=5,
    ),
    vale(
        "standin_vm2d",
        "Stand-in Vale M2-D",
        "vale_of_magic",
        2,
        1,
        {"wild": 3},
        named=False,
        end_vp=4,
    ),
    vale(
        "standin_vm2e",
        "Stand-in Vale M2-E",
        "vale_of_magic",
        2,
        1,
        {"beast": 1, "forest": 1, "sky": 1},
        named=False,
        end_vp=4,
    ),
]

# Abilities whose effect the sources leave partly open: Meadow's reading, labelled stand-in.
ABILITY_STANDIN = {
    "aurora": "the elided symbol is read as VP from the pool",
    "gaias_erwaehlte": (
        "the elided symbol list is read as every symbol but mana on the card's advancements "
        "(this reading gives the glossary's examples: 6 VP and 4 VP)"
    ),
    "lebenskraft_orakel": "the elided symbol is read as guardian",
    "baumkronen_erkunder": "the elided symbol is read as guardian",
    "sporenverteiler": "the elided symbol is read as growth",
    "keimling": "read from Yucata's note: its card's Cursed Land decay is ignored",
    "alte_lebenswurzeln": "the elided symbol is read as growth",
    "manatau_wiese": (
        "unknown text; stand-in: harvest +1 mana per guardian on the field card with the most"
    ),
    "konklave_der_baumhirten": (
        "unknown text; stand-in: when the field would spoil, return it to the box for 2 growth"
    ),
    "mana_token": (
        "Bernsteinbaum, Glitzerklippen-Horst, Wolfsbau: exact text unknown; Yucata's note: "
        "turn the mana token active (if active already: 1 mana now)"
    ),
}


def main() -> None:
    for card in ADVANCEMENTS + VALES:
        if card["ability"] in ABILITY_STANDIN:
            card["standin"]["ability"] = True
            card["ability_note"] = ABILITY_STANDIN[card["ability"]]
    about = (
        "Meadow's Mystic Vale cards. Names, sets and abilities of 'named' cards come from the "
        "seed's glossary and Yucata's notes (research notes advancements.json / vales.json, "
        "sources.json). Costs, symbols, levels (but Druide des Friedens L1, Bluehende Lichtung L1) "
        "and copy counts are NOT public: every such value is a Meadow stand-in, marked in "
        "'standin'. Cards with named=false are plain stand-ins that fill the real counts per "
        "level and set. Written by scripts/mystic_vale_standins.py; replace values with "
        "`meadow mystic-vale import-cards FILE.csv`."
    )
    (DATA / "advancements.json").write_text(
        json.dumps(
            {"about": about, "copies_per_type": 3, "advancements": ADVANCEMENTS},
            indent=1,
            ensure_ascii=False,
        )
        + "\n"
    )
    (DATA / "vales.json").write_text(
        json.dumps({"about": about, "vales": VALES}, indent=1, ensure_ascii=False) + "\n"
    )


if __name__ == "__main__":
    main()
