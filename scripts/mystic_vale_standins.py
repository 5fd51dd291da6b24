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
    # -- base, level 1: 18 cards, 9 types x 2 copies (the other seven from S19, below) --
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
    # -- base, level 2: 18 cards, 9 types x 2 copies (Alte Lebenswurzeln, level 2 by S19, and
    # seven more from S19, below) --
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
    # -- Vale of Magic, level 2: 9 cards (three more from S19, below) --
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


# Vale cards from a public list (S19, sources.json): English names, levels and spirit costs of
# 22 types, five of them matched to German names above. Its cost symbol "any" is the printed
# wild symbol in a cost: any spirit pays it.
S19 = Path(__file__).resolve().parent / "data" / "mystic_vale_vale_costs_S19.json"
# S19 names no set. Its nine level-1 types of two copies each are exactly the base game's 18
# level-1 cards. Of its ten level-2 types without a German match, seven fill the base game's
# level 2 and three Vale of Magic's; which three is not known, so Meadow takes the last three
# of S19's (alphabetical) list, and marks the set a stand-in.
S19_VALE_OF_MAGIC = ("Verdant Valley", "Webwood Canopy", "Wellspring Glade")


VALES_ABOUT = (
    " Vale cards: the names, levels and spirit costs of 22 types come from a public list (S19; "
    "'source' says which); their cost and level are not stand-ins. A card known only from S19 "
    "has its English name, and its set, copies, grey VP and (missing) ability are stand-ins."
)


def s19_cost(cost: dict[str, int]) -> dict[str, int]:
    return {("wild" if s == "any" else s): n for s, n in cost.items() if n}


def s19_vale(row: dict[str, Any]) -> dict[str, Any]:
    """A vale card known only from S19: its name, level and cost are real; its set, copies and
    grey VP are stand-ins (the plain stand-ins' rule: 2 at level 1, at level 2 two more than
    the symbols it costs, one less for each any-spirit symbol), and no ability is known."""
    cost = s19_cost(row["cost_spirit"])
    magic = row["name_en"] in S19_VALE_OF_MAGIC
    end_vp = 2 if row["level"] == 1 else sum(cost.values()) + 2 - cost.get("wild", 0)
    card = vale(
        row["name_en"].lower().replace(" ", "_"),
        row["name_en"],
        "vale_of_magic" if magic else "base",
        row["level"],
        1 if magic else 2,
        cost,
        source="S19",
        end_vp=end_vp,
    )
    card["name_note"] = "S19's English name; the German name is not known"
    card["name_language"] = "en"
    card["standin"].update(cost=False, level=False, set=True, ability=True)
    return card


def apply_s19(vales: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards with S19's values: a matched card takes its level and cost (and English name),
    the others are added; in the order of the game's sets and levels."""
    by_name = {card["name"]: card for card in vales}
    for row in json.loads(S19.read_text(encoding="utf-8"))["vales"]:
        matched = by_name.get(row["name_de_matched"])
        if matched is None:
            vales.append(s19_vale(row))
            continue
        matched.update(
            level=row["level"],
            cost=s19_cost(row["cost_spirit"]),
            name_en=row["name_en"],
            source=f"{matched['source']}, S19",
        )
        matched["standin"].update(cost=False, level=False)
    return sorted(vales, key=lambda card: (card["set"] != "base", card["level"]))


def main() -> None:
    vales = apply_s19(VALES)
    for card in ADVANCEMENTS + vales:
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
        json.dumps({"about": about + VALES_ABOUT, "vales": vales}, indent=1, ensure_ascii=False)
        + "\n"
    )


if __name__ == "__main__":
    main()
