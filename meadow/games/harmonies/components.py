"""Harmonies' components, loaded once from `data/` and checked on load.

Board spaces are addressed as BGA does: `col` left to right, `row` top to bottom, flat-top
hexes with odd columns shifted half a hex down ("odd-q"). Their text form is a column letter
and a row number from 1: `c2` is column 2, row 1. Card patterns use axial (q, r) offsets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from meadow.core import data

COLOURS = ("blue", "gray", "brown", "green", "yellow", "red")
POUCH = {"blue": 23, "gray": 23, "brown": 21, "green": 19, "yellow": 19, "red": 15}
ANIMAL_CUBES = 66
HELD_CARD_LIMIT = 4

# Every stack a space may hold, bottom to top (rules.json token_placement).
LEGAL_STACKS: frozenset[tuple[str, ...]] = frozenset(
    {
        (),
        ("gray",),
        ("gray", "gray"),
        ("gray", "gray", "gray"),
        ("red",),
        ("gray", "red"),
        ("brown", "red"),
        ("red", "red"),
        ("brown",),
        ("brown", "brown"),
        ("green",),
        ("brown", "green"),
        ("brown", "brown", "green"),
        ("blue",),
        ("yellow",),
    }
)

# The landscape a stack forms, as named in card patterns; stacks not listed form none.
LANDSCAPES: dict[tuple[str, ...], str] = {
    ("blue",): "water",
    ("yellow",): "field",
    ("green",): "tree1",
    ("brown", "green"): "tree2",
    ("brown", "brown", "green"): "tree3",
    ("gray",): "mountain1",
    ("gray", "gray"): "mountain2",
    ("gray", "gray", "gray"): "mountain3",
    ("brown", "red"): "building",
    ("gray", "red"): "building",
    ("red", "red"): "building",
}

Cell = tuple[int, int]  # (col, row)


def neighbours(col: int, row: int) -> Iterator[Cell]:
    """The six neighbours in odd-q layout, in the order SE, NE, N, NW, SW, S."""
    if col & 1:
        offsets = ((1, 1), (1, 0), (0, -1), (-1, 0), (-1, 1), (0, 1))
    else:
        offsets = ((1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1))
    for dc, dr in offsets:
        yield col + dc, row + dr


def to_axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col - (col & 1)) // 2


def from_axial(q: int, r: int) -> Cell:
    return q, r + (q - (q & 1)) // 2


def cell_name(cell: Cell) -> str:
    """`(2, 1)` -> `c2`."""
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


_CELL_NAME = re.compile(r"^([a-z])([1-9])$")


def parse_cell_name(text: str) -> Cell | None:
    match = _CELL_NAME.match(text.lower())
    if not match:
        return None
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


@dataclass(frozen=True, slots=True)
class BoardSide:
    """One side of the personal board: its spaces in column-major order."""

    side: str  # "A" | "B"
    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    adjacent: tuple[tuple[int, ...], ...]  # neighbour indices per space
    axial: tuple[tuple[int, int], ...]
    water: str  # "river" | "islands"
    names: tuple[str, ...]  # per space: its name, "c2"

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class PatternCell:
    q: int
    r: int
    landscape: str
    cube: bool


@dataclass(frozen=True, slots=True)
class Card:
    """An animal card or a Nature's Spirit card: a habitat pattern and its scoring."""

    id: int
    name: str
    slug: str
    spirit: bool
    pattern: tuple[PatternCell, ...]  # the cube cell is at (0, 0)
    points: tuple[int, ...]  # animal: value per cube placed; spirit: ()
    cubes: int
    scoring: dict[str, Any]  # spirit scoring rule (empty for animals)
    solo_sun_bonus: int

    @property
    def cube_landscape(self) -> str:
        return next(c.landscape for c in self.pattern if c.cube)

    def rotations(self) -> tuple[tuple[tuple[int, int, str], ...], ...]:
        """The pattern's non-cube cells as axial offsets from the cube cell, in all six
        rotations (60 degrees each: (q, r) -> (-r, q + r))."""
        return _rotations(self.id)


def _load(name: str) -> Any:
    return data.load_json(__package__, "harmonies", name)


# What the data files must hold, checked before they are read: a drop-in that lacks a field
# or holds the wrong kind of value is named by file and field (as Renature's and Mystic
# Vale's are), not by a Python message. Other keys (sources, BGA's encodings) are allowed.
class _Strict(BaseModel):
    model_config = ConfigDict(strict=True)


class Space(_Strict):
    index: int
    col: int
    row: int
    neighbors: list[int]


class Side(_Strict):
    num_spaces: Annotated[int, Field(ge=1, le=100)]
    water_scoring: str
    cells: list[Space]


class PatternSpot(_Strict):
    q: int
    r: int
    landscape: str
    cube: bool


class CardEntry(_Strict):
    id: int
    name: Annotated[str, Field(min_length=1)]
    cells: Annotated[list[PatternSpot], Field(min_length=1)]
    cubes: Annotated[int, Field(ge=0, le=9)]
    points: list[int] = []
    scoring: dict[str, Any] = {}
    solo_sun_bonus: int = 0


class CardFile(BaseModel):
    cards: list[CardEntry]


BOARD_FILE = TypeAdapter(dict[str, Side])
CARD_FILE = TypeAdapter(CardFile)


def _checked(name: str, shape: TypeAdapter[Any]) -> Any:
    """The data file `name`, as loaded, once `shape` has found nothing wrong in it."""
    raw = _load(name)
    if isinstance(raw, dict) and name == "boards.json":
        raw = {side: found for side, found in raw.items() if side != "_meta"}
    data.check(data.source("harmonies", name), raw, shape)
    return raw


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


@cache
@data.read_from("harmonies", "boards.json")
def board(side: str) -> BoardSide:
    data = _checked("boards.json", BOARD_FILE)[side]
    cells = tuple((c["col"], c["row"]) for c in data["cells"])
    index = {cell: i for i, cell in enumerate(cells)}
    adjacent = tuple(tuple(index[n] for n in neighbours(*cell) if n in index) for cell in cells)
    for i, c in enumerate(data["cells"]):
        if c["index"] != i or sorted(c["neighbors"]) != sorted(adjacent[i]):
            raise ValueError(f"boards.json side {side}: space {i} disagrees with odd-q layout")
    if len(cells) != data["num_spaces"]:
        raise ValueError(f"boards.json side {side}: expected {data['num_spaces']} spaces")
    axial = tuple(to_axial(*cell) for cell in cells)
    water = "river" if data["water_scoring"] == "river" else "islands"
    names = tuple(cell_name(cell) for cell in cells)
    return BoardSide(side, cells, index, adjacent, axial, water, names)


def _card(data: dict[str, Any], spirit: bool) -> Card:
    pattern = tuple(PatternCell(c["q"], c["r"], c["landscape"], c["cube"]) for c in data["cells"])
    cube_cells = [c for c in pattern if c.cube]
    if len(cube_cells) != 1 or (cube_cells[0].q, cube_cells[0].r) != (0, 0):
        raise ValueError(f"card {data['id']}: the cube cell must be the one at (0, 0)")
    known = set(LANDSCAPES.values())
    if any(c.landscape not in known for c in pattern):
        raise ValueError(f"card {data['id']}: unknown landscape in its pattern")
    return Card(
        id=data["id"],
        name=data["name"],
        slug=slug(data["name"]),
        spirit=spirit,
        pattern=pattern,
        points=tuple(data.get("points", ())),
        cubes=data["cubes"],
        scoring=data.get("scoring", {}),
        solo_sun_bonus=data.get("solo_sun_bonus", 0),
    )


@cache
@data.read_from("harmonies", "animal_cards.json", "spirit_cards.json")
def cards() -> dict[int, Card]:
    """All 42 cards by id: animals 1-32, spirits 33-42."""
    loaded = [_card(c, False) for c in _checked("animal_cards.json", CARD_FILE)["cards"]]
    loaded += [_card(c, True) for c in _checked("spirit_cards.json", CARD_FILE)["cards"]]
    by_id = {c.id: c for c in loaded}
    if sorted(by_id) != list(range(1, 43)):
        raise ValueError("expected card ids 1-42")
    if len({c.slug for c in loaded}) != 42:
        raise ValueError("card names must be distinct")
    for card in loaded:
        if not card.spirit and len(card.points) != card.cubes:
            raise ValueError(f"card {card.id}: one point value per cube expected")
    return by_id


ANIMAL_IDS = tuple(range(1, 33))
SPIRIT_IDS = tuple(range(33, 43))


@cache
def card_by_slug() -> dict[str, int]:
    return {c.slug: c.id for c in cards().values()}


@cache
def _rotations(card_id: int) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    others = [(c.q, c.r, c.landscape) for c in cards()[card_id].pattern if not c.cube]
    result = []
    for _ in range(6):
        result.append(tuple(others))
        others = [(-r, q + r, land) for q, r, land in others]
    return tuple(result)
