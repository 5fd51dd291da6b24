"""Mystic Vale's components: advancements, vale cards, the starter deck, the supply numbers.

An advancement in play is a copy: its type and the position it occupies on a card
("aurora@top"). A card is a sleeve with three positions. Card values are mostly stand-ins;
each card's `standin` map says which of its values are (data/advancements.json).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from meadow.core import data

POSITIONS = ("top", "middle", "bottom")
SPIRITS = ("beast", "forest", "sky", "wild")
SYMBOLS = ("mana", "decay", "growth", "vp", "beast", "forest", "sky", "wild", "guardian", "end_vp")
CURSED_LAND = "cursed_land"
FERTILE_SOIL = "fertile_soil"
FERTILE_SOIL_PER_POSITION = 6
ADVANCEMENT_MARKET = 3  # per level
VALE_MARKET = 4  # per level
BUY_LIMIT = 2
SPOIL_AT = 4
PREP_STOPS_AT = 3
SPIRITS_PER_VP = 3


def vp_pool(players: int) -> int:
    """13 + 5 per player: 23 / 28 / 33 (research notes components.json)."""
    return 13 + 5 * players


def level_one_pile(players: int) -> int:
    """6 + 3 per player: 12 / 15 / 18."""
    return 6 + 3 * players


@dataclass(frozen=True, slots=True)
class Advancement:
    """An advancement type: its symbols, cost and ability (copies differ only in position)."""

    id: str
    name: str
    set: str  # base | vale_of_magic | starter
    level: int  # 1-3; 0 for Fertile Soil and printed starter advancements
    cost: int
    symbols: dict[str, int]
    ability: str | None
    timing: str | None
    vertical: bool  # its ability is printed as a vertical band
    standin: bool  # any of its values is a stand-in

    def count(self, symbol: str) -> int:
        return self.symbols.get(symbol, 0)


@dataclass(frozen=True, slots=True)
class Vale:
    id: str
    name: str
    set: str
    level: int
    copies: int
    cost: dict[str, int]
    end_vp: int
    growth: int
    ability: str | None
    timing: str | None
    standin: bool
    # Its values taken from a public source although the card has stand-ins ("cost",
    # "level"): S19 gives 22 vale types' costs and levels and nothing else.
    sourced: tuple[str, ...] = ()
    name_language: str = "de"


def _load(name: str) -> Any:
    return data.load_json(__package__, "mystic_vale", name)


Count = Annotated[int, Field(ge=0, le=99)]
Symbol = Literal[
    "mana", "decay", "growth", "vp", "beast", "forest", "sky", "wild", "guardian", "end_vp"
]
Spirit = Literal["beast", "forest", "sky", "wild"]


class _Card(BaseModel):
    """What a card record in a data file must hold (extra keys, such as `source`, are kept
    out of the game but allowed)."""

    model_config = ConfigDict(strict=True)

    id: Annotated[str, Field(min_length=1)]
    name: Annotated[str, Field(min_length=1)]
    set: Literal["base", "vale_of_magic"]
    ability: str | None
    timing: str | None
    standin: dict[str, bool]
    # The card's name is in German (the seed rules' language) unless a source gave it only
    # in another language (S19 lists English names alone): a page says which.
    name_language: Literal["de", "en"] = "de"


class _AdvancementRecord(_Card):
    level: Annotated[int, Field(ge=1, le=3)]
    cost: Annotated[int, Field(ge=0, le=20)]
    symbols: dict[Symbol, Count]
    vertical: bool


class _ValeRecord(_Card):
    level: Annotated[int, Field(ge=1, le=2)]
    copies: Annotated[int, Field(ge=1, le=9)]
    cost: dict[Spirit, Count]
    end_vp: Count
    growth: Count


class _AdvancementFile(BaseModel):
    advancements: list[_AdvancementRecord]


class _ValeFile(BaseModel):
    vales: list[_ValeRecord]


ADVANCEMENT_FILE = TypeAdapter(_AdvancementFile)
VALE_FILE = TypeAdapter(_ValeFile)


def _unique(label: str, ids: list[str]) -> None:
    seen: set[str] = set()
    for index, card_id in enumerate(ids):
        if card_id in seen:
            raise data.DataFileError(f"{label}: [{index}] ({card_id!r}): the id is listed twice")
        seen.add(card_id)


@cache
def advancements() -> dict[str, Advancement]:
    """Every advancement type, read and checked on first use (a bad drop-in names itself)."""
    name = "advancements.json"
    label = data.source("mystic_vale", name)
    records = data.check(label, _load(name), ADVANCEMENT_FILE).advancements
    _unique(label, [a.id for a in records])
    found = {
        CURSED_LAND: Advancement(
            CURSED_LAND,
            "Cursed Land",
            "starter",
            0,
            0,
            {"mana": 1, "decay": 1},
            None,
            None,
            False,
            False,
        ),
        FERTILE_SOIL: Advancement(
            FERTILE_SOIL, "Fertile Soil", "starter", 0, 2, {"mana": 1}, None, None, False, False
        ),
    }
    for a in records:
        if a.id in found:
            raise data.DataFileError(f"{label}: {a.id!r} is a starter card's id")
        found[a.id] = Advancement(
            id=a.id,
            name=a.name,
            set=a.set,
            level=a.level,
            cost=a.cost,
            symbols=dict(a.symbols),
            ability=a.ability,
            timing=a.timing,
            vertical=a.vertical,
            standin=any(a.standin.values()),
        )
    return found


@cache
def vales() -> dict[str, Vale]:
    """Every vale card, read and checked on first use."""
    name = "vales.json"
    label = data.source("mystic_vale", name)
    records = data.check(label, _load(name), VALE_FILE).vales
    _unique(label, [v.id for v in records])
    return {
        v.id: Vale(
            id=v.id,
            name=v.name,
            set=v.set,
            level=v.level,
            copies=v.copies,
            cost={k: n for k, n in v.cost.items() if n},
            end_vp=v.end_vp,
            growth=v.growth,
            ability=v.ability,
            timing=v.timing,
            standin=any(v.standin.values()),
            sourced=_sourced(v.standin) if any(v.standin.values()) else (),
            name_language=v.name_language,
        )
        for v in records
    }


def _sourced(flags: dict[str, bool]) -> tuple[str, ...]:
    return tuple(value for value in ("cost", "level") if flags.get(value) is False)


def advancement_copies(sets: tuple[str, ...], level: int) -> list[str]:
    """Every copy of the advancements of a level: one per position ("aurora@top")."""
    return [
        f"{a.id}@{position}"
        for a in advancements().values()
        if a.set in sets and a.level == level
        for position in POSITIONS
    ]


def vale_copies(sets: tuple[str, ...], level: int) -> list[str]:
    return [
        v.id
        for v in vales().values()
        if v.set in sets and v.level == level
        for _ in range(v.copies)
    ]


@cache
def split_copy(copy: str) -> tuple[Advancement, int]:
    """`aurora@top` -> (Aurora, 0)."""
    type_id, _, position = copy.partition("@")
    return advancements()[type_id], POSITIONS.index(position)


def starter_deck() -> list[list[str | None]]:
    """The 20 starting cards as position slots: 8 blank, 9 Cursed Land (3 per position, a
    stand-in split), 3 Fertile Soil (one per position, also a stand-in split)."""
    cards: list[list[str | None]] = [[None, None, None] for _ in range(8)]
    for i in range(9):
        slots: list[str | None] = [None, None, None]
        slots[i % 3] = CURSED_LAND
        cards.append(slots)
    for i in range(3):
        slots = [None, None, None]
        slots[i] = FERTILE_SOIL
        cards.append(slots)
    return cards


def standins() -> list[str]:
    found = []
    if any(a.standin for a in advancements().values()):
        found.append("advancement costs, symbols and levels")
    if any(v.standin for v in vales().values()):
        if any("cost" in v.sourced for v in vales().values()):
            found.append("vale symbols and copies; the costs and levels of vales no source lists")
        else:
            found.append("vale costs, symbols, levels and copies")
    found.append("starter card positions")
    return found
