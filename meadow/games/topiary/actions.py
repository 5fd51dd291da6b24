"""Topiary's decisions. A turn is up to three: place a visitor, take a tile, place a tile."""

from __future__ import annotations

from dataclasses import dataclass

from meadow.core.actions import Action


@dataclass(frozen=True, slots=True)
class PlaceVisitor(Action):
    """Put one of your visitors on a free edge position, looking along its line."""

    position: str  # a position id from data/positions.json, e.g. "O-N2", "D-r0c1-SE"

    def __str__(self) -> str:
        return f"visit {self.position}"


@dataclass(frozen=True, slots=True)
class TakeTile(Action):
    """Take a face-down tile from the new visitor's line into your hand."""

    cell: str  # "r1c2"

    def __str__(self) -> str:
        return f"take {self.cell}"


@dataclass(frozen=True, slots=True)
class SkipTake(Action):
    """Leave the line as it is (only with the option take=optional)."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Place a tile from your hand face up into the gap."""

    tile: str  # "swan_4"
    cell: str

    def __str__(self) -> str:
        return f"place {self.tile} at {self.cell}"


@dataclass(frozen=True, slots=True)
class KeepTiles(Action):
    """Draft variant: keep three tiles of those in hand and pass the rest on."""

    tiles: tuple[str, str, str]

    def __str__(self) -> str:
        return "keep " + " ".join(self.tiles)
