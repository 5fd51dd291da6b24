"""Harmonies' decisions. A turn is several: take tokens, place each, and in any order take a
card and place cubes; then end the turn."""

from __future__ import annotations

from dataclasses import dataclass

from meadow.core.actions import Action


@dataclass(frozen=True, slots=True)
class TakeTokens(Action):
    """Take all tokens of a central board space (numbered from 1)."""

    space: int

    def __str__(self) -> str:
        return f"take {self.space}"


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """Place one of the taken tokens on a space of your board."""

    colour: str
    cell: str  # "c2": column c, row 2

    def __str__(self) -> str:
        return f"place {self.colour} {self.cell}"


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """Take a face-up animal card (once per turn)."""

    card: str  # the card's name as a slug: "fennec_fox"

    def __str__(self) -> str:
        return f"card {self.card}"


@dataclass(frozen=True, slots=True)
class PlaceCube(Action):
    """Move the bottom cube of a held card onto the matching space of its habitat."""

    card: str
    cell: str

    def __str__(self) -> str:
        return f"cube {self.card} {self.cell}"


@dataclass(frozen=True, slots=True)
class ChooseSpirit(Action):
    """Nature's Spirits: keep one of your two spirit cards (first turn)."""

    spirit: str

    def __str__(self) -> str:
        return f"spirit {self.spirit}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn: the central board and the display are refilled."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class SwapCard(Action):
    """Solo: end the turn, replacing one display card (only if you took no card)."""

    card: str

    def __str__(self) -> str:
        return f"swap {self.card}"
