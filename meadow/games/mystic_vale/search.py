"""What a search needs from Mystic Vale: an estimate of the final scores, and what a step
revealed.

The estimate is the points now plus what each druid's 20 cards should still bring: a deck
yields per turn the VP, mana and spirits of the cards it plays, and it plays more cards the
less net decay each card carries. Mana and spirits count as the VP they buy, worth less as
the end nears; the turns left come from the VP pool and the level-2 vales.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache

from meadow.core.actions import Event
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.druid import Druid, shown_abilities
from meadow.games.mystic_vale.rules import HARVEST, MysticValeState
from meadow.games.mystic_vale.scoring import card_decay

# Decay a druid lets show before it stops pushing: Prep stops at 3, a spoil comes at 4.
DECAY_PER_TURN = 3.5
SPIRIT_VP = 0.5  # a spirit buys part of a vale's end VP, or a third of a VP by exchange
MOST_TURNS = 12.0
# Vale abilities worth something every turn: mana, or VP.
VALE_MANA = {"azurblauer_see": 1.0, "bach_der_vitalitaet": 2.5, "manatau_wiese": 1.0}
VALE_VP = {"tal_der_magie": 1.0}
# Harvest abilities: VP (Aurora: 1 per 2 field cards) or mana per play of the card.
ABILITY_VP = {"aurora": 3.0}
ABILITY_MANA = {"magischer_samen": 5.0, "wachstumsueberlauf": 3.0}


@dataclass(frozen=True, slots=True)
class Yield:
    """What one card brings when it is played, and what it costs in decay."""

    vp: float = 0.0
    mana: float = 0.0
    spirits: float = 0.0
    decay: float = 0.0
    growth: float = 0.0

    def __add__(self, other: Yield) -> Yield:
        return Yield(
            self.vp + other.vp,
            self.mana + other.mana,
            self.spirits + other.spirits,
            self.decay + other.decay,
            self.growth + other.growth,
        )


@cache
def card_yield(slots: tuple[str | None, ...], band: int) -> Yield:
    """A card's yield per play, its shown abilities applied (cached: few distinct cards)."""
    table = c.advancements()
    active = {a for _, a in shown_abilities(slots, band)}
    vp = mana = spirits = growth = 0.0
    for type_id in slots:
        if type_id is None:
            continue
        symbols = table[type_id].symbols
        vp += symbols.get("vp", 0)
        mana += symbols.get("mana", 0)
        spirits += sum(symbols.get(s, 0) for s in c.SPIRITS)
        growth += symbols.get("growth", 0)
    vp += sum(ABILITY_VP.get(a, 0.0) for a in active)
    mana += sum(ABILITY_MANA.get(a, 0.0) for a in active)
    return Yield(vp, mana, spirits, card_decay(slots, active), growth)


@cache
def advancement_yield(copy: str) -> Yield:
    """A bought advancement not yet sleeved, as if on a card of its own."""
    type_id = copy.partition("@")[0]
    position = c.POSITIONS.index(copy.partition("@")[2])
    slots: list[str | None] = [None, None, None]
    slots[position] = type_id
    band = position if c.advancements()[type_id].vertical else -1
    return card_yield(tuple(slots), band)


def deck_yield(druid: Druid, waiting: list[str]) -> Yield:
    yields = [
        card_yield(tuple(slots), band) for slots, band in zip(druid.cards, druid.band, strict=True)
    ]
    yields += [advancement_yield(copy) for copy in waiting]
    return total_yield(yields)


def total_yield(yields: list[Yield]) -> Yield:
    """The sum of the cards' yields, added in their order (as `Yield.__add__` would, so the
    floats come out the same) without a `Yield` made per card: an evaluation sums 20 and
    more of them for every druid."""
    vp = mana = spirits = decay = growth = 0.0
    for y in yields:
        vp += y.vp
        mana += y.mana
        spirits += y.spirits
        decay += y.decay
        growth += y.growth
    return Yield(vp, mana, spirits, decay, growth)


def cards_per_turn(deck: Yield, vale_growth: float) -> float:
    """How many of its 20 cards a druid plays in a turn before the decay stops it."""
    net = max(0.15, (deck.decay - deck.growth) / 20)
    return min(20.0, (DECAY_PER_TURN + vale_growth) / net)


def mana_vp(turns: float) -> float:
    """What one mana is worth in VP: an advancement bought early pays back for longer."""
    return 0.2 + 0.06 * min(turns, 8.0)


@dataclass(frozen=True, slots=True)
class Outlook:
    """One druid's deck as a search sees it."""

    turn_vp: float  # VP its deck takes from the pool in an average turn
    turn_mana: float
    turn_spirits: float


def outlook(state: MysticValeState, seat: int) -> Outlook:
    druid = state.seats[seat]
    waiting = [copy for copy, _ in state.harvest.to_sleeve] if state.seat == seat else []
    deck = deck_yield(druid, waiting)
    vales = [c.vales()[vid] for vid, _ in druid.vales]
    played = cards_per_turn(deck, sum(v.growth for v in vales)) / 20
    return Outlook(
        played * deck.vp + sum(VALE_VP.get(v.ability or "", 0.0) for v in vales),
        played * deck.mana + sum(VALE_MANA.get(v.ability or "", 0.0) for v in vales),
        played * deck.spirits,
    )


def rounds_left(state: MysticValeState, outlooks: list[Outlook]) -> float:
    """Rounds still to come after this one: the pool's VP at the rate the decks take them,
    or the level-2 vales at about one bought a round (the Yucata and German end)."""
    rate = max(0.8, sum(o.turn_vp for o in outlooks))
    turns = min(MOST_TURNS, state.pool / rate)
    if state.options.edition != "english":
        turns = min(turns, float(len(state.vale_piles[0]) + len(state.vale_piles[1])))
    return turns


def evaluate(state: MysticValeState) -> list[float]:
    """Points now, plus each druid's turns to come: a field already laid out (the turn in
    progress, or the next one prepared) by its cards, later turns at the deck's yield."""
    values = [float(sum(state.final_points(d).values())) for d in state.seats]
    if state.is_over:
        return values
    outlooks = [outlook(state, s) for s in range(state.players)]
    rounds = 0.0 if state.end_triggered else rounds_left(state, outlooks)
    mover = state.seat
    assert mover is not None
    for seat, o in enumerate(outlooks):
        turns = turns_to_come(state, seat, rounds)
        mana = mana_vp(rounds)
        average = o.turn_vp + mana * o.turn_mana + SPIRIT_VP * o.turn_spirits
        values[seat] += min(1.0, turns) * laid_out(state, seat, mana)
        values[seat] += max(0.0, turns - 1.0) * average
        if state.seats[seat].mana_token and turns > 0:  # one mana more at a coming harvest
            values[seat] += mana
    return values


def in_turn(state: MysticValeState, seat: int) -> bool:
    """The seat's turn is under way (Prep already belongs to its next turn)."""
    return seat == state.seat and state.stage == "plant"


def turns_to_come(state: MysticValeState, seat: int, rounds: float) -> float:
    """Turns the seat still plays, the one in progress or prepared counted first: one per
    round to come, and this round's own if it is under way or still ahead."""
    mover = state.seat
    assert mover is not None
    if in_turn(state, seat) or seat > mover:
        return rounds + 1.0
    return rounds


def laid_out(state: MysticValeState, seat: int, mana: float) -> float:
    """What the seat's first turn to come brings that is already known: the field not yet
    harvested, or in the Harvest the mana and spirits not yet spent (a spoil: nothing)."""
    druid = state.seats[seat]
    if druid.spoiled:
        return 0.0
    if in_turn(state, seat):
        if state.phase == HARVEST:
            h = state.harvest
            return mana * state.mana_left() + SPIRIT_VP * sum(h.spirits.values())
        if state.phase not in ("plant", "reveal", "ability", "spoiling"):
            return 0.0
    field = total_yield([card_yield(tuple(druid.cards[x]), druid.band[x]) for x in druid.field])
    return field.vp + mana * field.mana + SPIRIT_VP * field.spirits


def revealed(state: MysticValeState, events: list[Event], seat: int) -> Hashable | None:
    """What `seat` saw come up by chance: cards turned up (by what is on them, so that twin
    cards are one outcome), market refills, vales and cards looked at."""
    seen: list[Hashable] = []
    for event in events:
        if not event.reveals or event.kind in ("shuffle_deck", "game_over"):
            continue
        if event.kind == "reveal":
            card = event.public["card"]
            druid = state.seats[event.seat]  # type: ignore[index]
            if isinstance(card, int):
                seen.append((event.seat, tuple(druid.cards[card - 1]), druid.band[card - 1]))
            else:
                seen.append((event.seat, None))
        else:
            seen.append(json.dumps(event.for_seat(seat), sort_keys=True))
    return tuple(seen) if seen else None
