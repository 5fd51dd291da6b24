"""Topiary's components, loaded once from `data/` and checked on load.

A tile is an int 0..39 (shape index * 5 + value - 1) inside the engine, for speed; its text
form is the data's id, `swan_4`. A cell is an int 0..24 (row * 5 + col); its text form `r1c2`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

SIZE = 5
CELLS = SIZE * SIZE
CENTRE = 2 * SIZE + 2
VALUES = (1, 2, 3, 4, 5)
HAND_SIZE = 3
VISITORS_PER_PLAYER = {2: 8, 3: 6, 4: 5}


@dataclass(frozen=True, slots=True)
class Shape:
    """A motif set: five tiles of one sculpture, valued 1 to 5."""

    index: int
    id: str
    name_en: str
    name_de: str
    abbreviation: str
    standin: bool


@dataclass(frozen=True, slots=True)
class Position:
    """A place for a visitor on the garden's edge and the line of cells it looks along."""

    index: int
    id: str
    kind: str  # orthogonal | diagonal
    direction: str  # N, S, E, W, NE, ...
    cells: tuple[int, ...]  # nearest first
    one_tile_diagonal: bool


def _load(name: str) -> Any:
    return json.loads(
        resources.files(__package__).joinpath("data").joinpath(name).read_text("utf-8")
    )


@cache
def shapes() -> tuple[Shape, ...]:
    data = _load("tiles.json")
    loaded = tuple(
        Shape(
            index=i,
            id=s["id"],
            name_en=s["name_en"],
            name_de=s["name_de"],
            abbreviation=s["abbreviation"],
            standin=bool(s.get("standin", False)),
        )
        for i, s in enumerate(data["shapes"])
    )
    if len(loaded) != data["shape_count"] or data["values_per_shape"] != list(VALUES):
        raise ValueError("tiles.json: expected 8 shapes of values 1-5")
    if len({s.id for s in loaded}) != len(loaded):
        raise ValueError("tiles.json: shape ids must be distinct")
    return loaded


@cache
def positions() -> tuple[Position, ...]:
    data = _load("positions.json")["positions"]
    loaded = []
    for i, p in enumerate(data):
        cells = tuple(r * SIZE + c for r, c in p["cells"])
        if not cells or any(not 0 <= cell < CELLS for cell in cells):
            raise ValueError(f"positions.json: {p['id']} has cells outside the garden")
        loaded.append(
            Position(
                index=i,
                id=p["id"],
                kind=p["kind"],
                direction=p["direction"],
                cells=cells,
                one_tile_diagonal=p["kind"] == "diagonal" and len(cells) == 1,
            )
        )
    if len(loaded) != 56 or len({p.id for p in loaded}) != 56:
        raise ValueError("positions.json: expected 56 distinct positions")
    return tuple(loaded)


@cache
def position_index() -> dict[str, int]:
    return {p.id: p.index for p in positions()}


def shape_of(tile: int) -> int:
    return tile // 5


def value_of(tile: int) -> int:
    return tile % 5 + 1


def tile_id(tile: int) -> str:
    return tile_names()[tile]


@cache
def tile_names() -> tuple[str, ...]:
    """Every tile's id, by tile; views name every face-up tile after every move."""
    return tuple(f"{shape.id}_{value}" for shape in shapes() for value in range(1, 6))


@cache
def tile_ids() -> dict[str, int]:
    return {tile_id(t): t for t in range(len(shapes()) * 5)}


def cell_id(cell: int) -> str:
    return _CELL_NAMES[cell]


_CELL_NAMES = tuple(f"r{cell // SIZE}c{cell % SIZE}" for cell in range(CELLS))


@cache
def cell_ids() -> dict[str, int]:
    return {cell_id(c): c for c in range(CELLS)}


@cache
def shape_index() -> dict[str, int]:
    return {s.id: s.index for s in shapes()}
