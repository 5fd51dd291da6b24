"""A druid's cards, deck and tokens, and what the active druid has to spend in a Harvest:
the pieces of a Mystic Vale state, below the rules, the views and the stored form that
read them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cache
from typing import Any

from meadow.games.mystic_vale import components as c


@dataclass(slots=True)
class Druid:
    """One player: 20 sleeved cards, where each one is, vale cards, VP and the mana token."""

    cards: list[list[str | None]]  # per card: the advancement type in each position
    band: list[int]  # per card: the position whose vertical ability shows, -1 if none
    deck: list[int]  # face down, the top is the last
    on_deck: int | None = None
    field: list[int] = dataclasses.field(default_factory=list)
    discard: list[int] = dataclasses.field(default_factory=list)
    known_top: int = 0  # top cards of the deck their owner has looked at
    vales: list[list[Any]] = dataclasses.field(default_factory=list)  # [vale id, turn bought]
    boxed_vales: list[str] = dataclasses.field(
        default_factory=list
    )  # spent vales returned to the box
    vp: int = 0
    mana_token: bool = False  # True: the blue, active side
    turn: int = 0  # own turns begun
    # -- for the current turn (Prep already belongs to the next one) --
    used: list[str] = dataclasses.field(default_factory=list)
    growth_bonus: int = 0
    aether: list[int] = dataclasses.field(default_factory=list)
    spoiled: bool = False
    fresh: list[list[int]] = dataclasses.field(
        default_factory=list
    )  # [card, position] sleeved this turn
    kept: list[int] = dataclasses.field(default_factory=list)  # kept in the field by Brutplatz

    def clone(self) -> Druid:
        return Druid(
            [s[:] for s in self.cards],
            self.band[:],
            self.deck[:],
            self.on_deck,
            self.field[:],
            self.discard[:],
            self.known_top,
            [v[:] for v in self.vales],
            self.boxed_vales[:],
            self.vp,
            self.mana_token,
            self.turn,
            self.used[:],
            self.growth_bonus,
            self.aether[:],
            self.spoiled,
            [f[:] for f in self.fresh],
            self.kept[:],
        )

    def abilities(self, card: int) -> tuple[tuple[int, str], ...]:
        """(position, ability) of the abilities that show on a card."""
        return shown_abilities(tuple(self.cards[card]), self.band[card])


@cache
def shown_abilities(slots: tuple[str | None, ...], band: int) -> tuple[tuple[int, str], ...]:
    """A vertical band shows only at its own position; other abilities always show."""
    shown = []
    for pos, type_id in enumerate(slots):
        if type_id is None:
            continue
        adv = c.advancements()[type_id]
        if adv.ability and (not adv.vertical or band == pos):
            shown.append((pos, adv.ability))
    return tuple(shown)


@dataclass(slots=True)
class Harvest:
    """What the active player has to spend during this Harvest."""

    mana_earned: int = 0
    mana_doublable: int = 0  # earned from card symbols, advancement abilities, a spent token
    mana_spent: int = 0
    spirits: dict[str, int] = dataclasses.field(default_factory=dict)
    advancements_bought: int = 0
    vales_bought: int = 0
    buy_limit: int = c.BUY_LIMIT
    to_sleeve: list[list[Any]] = dataclasses.field(
        default_factory=list
    )  # [copy, forced card or -1]
    resolved: list[list[int]] = dataclasses.field(default_factory=list)  # harvest abilities done
    erdenwiege: int = 0  # Erdenwiege bought: each counts the vales when the Harvest ends
    # What the active token is worth while unspent: 1, doubled by each Wachstumsüberlauf.
    # Kept apart from the cards' mana so that a purchase needing more than those spends it.
    token_mana: int = 1

    def clone(self) -> Harvest:
        return Harvest(
            self.mana_earned,
            self.mana_doublable,
            self.mana_spent,
            dict(self.spirits),
            self.advancements_bought,
            self.vales_bought,
            self.buy_limit,
            [s[:] for s in self.to_sleeve],
            [r[:] for r in self.resolved],
            self.erdenwiege,
            self.token_mana,
        )
