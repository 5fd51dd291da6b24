"""Mystic Vale's arithmetic as pure functions: decay on a card, spirit payments, and the
end-of-game scoring of advancements.

A card is given as its three position slots, each an advancement type id or None.
Rule: seed 003, "Verfall und Wachstum", "Unterstützungen kaufen", "Spielende", glossary.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cache

from meadow.games.mystic_vale import components as c

Slots = Sequence[str | None]


def advancements_on(slots: Slots) -> list[c.Advancement]:
    table = c.advancements()
    return [table[a] for a in slots if a is not None]


# A card's printed values depend only on what is sleeved where, and a game sees few distinct
# cards, so they are summed once per distinct card (searches ask for them constantly).


@cache
def _symbols(slots: tuple[str | None, ...]) -> dict[str, int]:
    """Symbol totals of a card (never mutated: shared between callers)."""
    totals: dict[str, int] = {}
    for adv in advancements_on(slots):
        for symbol, n in adv.symbols.items():
            totals[symbol] = totals.get(symbol, 0) + n
    return totals


@cache
def _decay_parts(slots: tuple[str | None, ...]) -> tuple[int, int]:
    """(decay from Cursed Land, other decay) printed on a card."""
    on = advancements_on(slots)
    cursed = sum(a.count("decay") for a in on if a.id == c.CURSED_LAND)
    return cursed, sum(a.count("decay") for a in on) - cursed


def card_symbol(slots: Slots, symbol: str) -> int:
    """A symbol summed over the card's advancements (printed values, no abilities)."""
    return _symbols(tuple(slots)).get(symbol, 0)


def card_symbols(slots: Slots) -> Mapping[str, int]:
    """Every symbol total of a card, in one look-up (shared: never to be mutated)."""
    return _symbols(tuple(slots))


def card_decay(slots: Slots, active: Collection[str], aether: bool = False) -> int:
    """Decay a card shows, after its persistent abilities.

    `active` holds the card's visible ability ids; `aether` marks a card chosen with the
    Aetherbaum, whose decay not from Cursed Land is ignored this turn.

    >>> card_decay(["cursed_land", None, "samen_des_lebens"], {"samen_des_lebens"})
    0
    >>> card_decay(["cursed_land", "standin_b1a", None], set(), aether=True)
    1
    """
    if "samen_des_lebens" in active:
        return 0
    cursed, other = _decay_parts(tuple(slots))
    if "keimling" in active:
        cursed = 0
    if aether:
        other = 0
    return cursed + other


def pay_spirits(cost: Mapping[str, int], have: Mapping[str, int]) -> dict[str, int] | None:
    """What a vale's spirit cost takes from `have`, or None if it cannot be paid.

    Each named spirit is paid with its own symbol first, then with wild; a wild in the cost
    takes whatever is most plentiful, wild last.

    >>> pay_spirits({"beast": 1, "wild": 1}, {"beast": 1, "sky": 2})
    {'beast': 1, 'sky': 1}
    >>> pay_spirits({"forest": 2}, {"forest": 1, "beast": 3}) is None
    True
    """
    left = dict(have)
    taken: dict[str, int] = {}

    def take(symbol: str, n: int) -> None:
        left[symbol] = left.get(symbol, 0) - n
        taken[symbol] = taken.get(symbol, 0) + n

    for spirit in ("beast", "forest", "sky"):
        need = cost.get(spirit, 0)
        own = min(need, left.get(spirit, 0))
        take(spirit, own)
        rest = need - own
        if rest > left.get("wild", 0):
            return None
        if rest:
            take("wild", rest)
    for _ in range(cost.get("wild", 0)):
        plain = [s for s in ("beast", "forest", "sky") if left.get(s, 0) > 0]
        if plain:
            take(max(plain, key=lambda s: left[s]), 1)
        elif left.get("wild", 0) > 0:
            take("wild", 1)
        else:
            return None
    return {k: v for k, v in taken.items() if v}


def gaias_erwaehlte(slots: Slots) -> int:
    """2 VP plus 1 per symbol on the card's advancements, mana not counted, card texts
    ignored (stand-in reading of the glossary, which its two examples bear out).

    >>> gaias_erwaehlte(["gaias_erwaehlte", "morgenrot_saengerin", "hirsch"])
    6
    >>> gaias_erwaehlte(["gaias_erwaehlte", "hirsch", "samen_des_lebens"])
    4
    """
    counted = [s for s in c.SYMBOLS if s != "mana"]
    return 2 + sum(card_symbol(slots, s) for s in counted)


def sporenverteiler(cards: Iterable[Slots]) -> int:
    """1 VP per growth symbol on all 20 of your cards (stand-in reading: growth)."""
    return sum(card_symbol(slots, "growth") for slots in cards)
