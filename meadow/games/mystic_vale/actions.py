"""Mystic Vale's decisions. Cards of a player are named c1..c20; an advancement copy by its
type and position ("aurora@top")."""

from __future__ import annotations

from dataclasses import dataclass

from meadow.core.actions import Action


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Planting: play the on-deck card into your field."""

    def __str__(self) -> str:
        return "push"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Planting: stop and go on to the Harvest."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Turn up the next card of your deck as the on-deck card."""

    def __str__(self) -> str:
        return "reveal"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """An ability's choice of one of your cards (discard it, keep it, ...)."""

    card: int  # 1..20

    def __str__(self) -> str:
        return f"choose c{self.card}"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Use an optional ability no further."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Prevent(Action):
    """Stop a spoil with an advancement (Druide des Friedens) or a vale card."""

    source: str  # ability id
    card: int = 0  # the Druide's card, or Aetherbaum's target card; 0 if none

    def __str__(self) -> str:
        return f"prevent {self.source}" + (f" c{self.card}" if self.card else "")


@dataclass(frozen=True, slots=True)
class Spoil(Action):
    """Accept the spoil."""

    def __str__(self) -> str:
        return "spoil"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """Harvest: resolve the harvest ability of an advancement in your field."""

    card: int
    position: str

    def __str__(self) -> str:
        return f"harvest c{self.card} {self.position}"


@dataclass(frozen=True, slots=True)
class BuyAdvancement(Action):
    """Harvest: buy an advancement from the market or a Fertile Soil; with `onto`, sleeve it
    onto that card of Chor des Erdengesangs for 2 mana less."""

    copy: str  # "aurora@top", "fertile_soil@middle"
    onto: int = 0

    def __str__(self) -> str:
        return f"buy {self.copy}" + (f" onto c{self.onto}" if self.onto else "")


@dataclass(frozen=True, slots=True)
class BuyVale(Action):
    vale: str

    def __str__(self) -> str:
        return f"vale {self.vale}"


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Harvest (Yucata and German editions): 3 spirit symbols for 1 VP from the reserve."""

    def __str__(self) -> str:
        return "exchange"


@dataclass(frozen=True, slots=True)
class EndHarvest(Action):
    def __str__(self) -> str:
        return "end harvest"


@dataclass(frozen=True, slots=True)
class Sleeve(Action):
    """Cleanup: sleeve a bought advancement into a card of your field. With `old_band`, a
    vertical ability already on the card stays visible over the new one."""

    copy: str
    card: int
    old_band: bool = False

    def __str__(self) -> str:
        return f"sleeve {self.copy} c{self.card}" + (" old-band" if self.old_band else "")


@dataclass(frozen=True, slots=True)
class StopPrep(Action):
    """German edition: end Prep early (the on-deck card shows 2 or more decay)."""

    def __str__(self) -> str:
        return "stop prep"
