"""Renature's decisions: a turn is a domino (or a discard), maybe a mushroom (Valley), maybe
a plant, and cloud actions at any time; the turn ends with `end` or a bought extra turn."""

from __future__ import annotations

from dataclasses import dataclass

from meadow.core.actions import Action


@dataclass(frozen=True, slots=True)
class PlaceDomino(Action):
    """Step A: the domino's first animal on `first`, its second on `second`."""

    domino: str  # "D17"
    first: str  # "c4"
    second: str

    def __str__(self) -> str:
        return f"{self.domino} {self.first}-{self.second}"


@dataclass(frozen=True, slots=True)
class DiscardDomino(Action):
    """Step A instead: return a domino from your hand to the box."""

    domino: str

    def __str__(self) -> str:
        return f"discard {self.domino}"


@dataclass(frozen=True, slots=True)
class PlaceMushroom(Action):
    """Valley: the mushroom for a covered stump, beside an area space, joining areas."""

    cell: str

    def __str__(self) -> str:
        return f"mushroom {self.cell}"


@dataclass(frozen=True, slots=True)
class SkipMushroom(Action):
    def __str__(self) -> str:
        return "no mushroom"


@dataclass(frozen=True, slots=True)
class PlacePlant(Action):
    """Step B: a plant of your colour (or neutral) on a free area space beside the domino."""

    plant: str  # turf | bush | pine | oak
    neutral: bool
    cell: str

    def __str__(self) -> str:
        return f"plant {'neutral ' if self.neutral else ''}{self.plant} {self.cell}"


@dataclass(frozen=True, slots=True)
class SkipPlant(Action):
    def __str__(self) -> str:
        return "no plant"


@dataclass(frozen=True, slots=True)
class ChangeJoker(Action):
    """Cloud action (2 clouds): move the joker marker to another animal."""

    animal: str

    def __str__(self) -> str:
        return f"joker {self.animal}"


@dataclass(frozen=True, slots=True)
class ReturnPlant(Action):
    """Cloud action (clouds = the plant's value): an own or neutral plant back to your board."""

    cell: str

    def __str__(self) -> str:
        return f"return {self.cell}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class ExtraTurn(Action):
    """Cloud action (3 clouds), at the end of the turn: take another turn at once."""

    def __str__(self) -> str:
        return "extra turn"
