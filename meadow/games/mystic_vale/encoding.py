"""Mystic Vale: actions and observation.

Cards are a druid's c1..c20; an advancement copy is its type and position ("aurora@top"), for
every type of the sets in play (base, and with `vale_of_magic` the expansion) in
data/advancements.json order, then Fertile Soil.

Actions, in this order: push, pass, reveal, stop prep (German edition), choosing each card,
decline, the spoil preventions the sets hold (Druide des Friedens with each card, Blühende
Lichtung, Ätherbaum on each card, Konklave der Baumhirten), spoil, harvesting the ability at
each position of each card, buying each copy (and, where Chor des Erdengesangs is in play,
onto each card), buying each vale card, the exchange (not in the English edition), ending
the harvest, and sleeving each copy into each card (vertical ones also keeping the old band).
A file of printed card values ($MEADOW_GAME_DATA) changes the types, and so the space.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import chain, compress
from operator import getitem
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.actions import (
    BuyAdvancement,
    BuyVale,
    Choose,
    Decline,
    EndHarvest,
    Exchange,
    Pass,
    Prevent,
    Push,
    Reveal,
    Sleeve,
    Spoil,
    StopPrep,
    UseAbility,
)
from meadow.games.mystic_vale.options import MysticValeOptions
from meadow.games.mystic_vale.rules import _card_decay_growth

if TYPE_CHECKING:
    from meadow.games.mystic_vale.druid import Druid
    from meadow.games.mystic_vale.rules import MysticValeState

CARDS = 20
PHASES = ("plant", "prep", "ability", "reveal", "spoiling", "harvest", "sleeve", "nest", "over")
STAGES = ("plant", "prep")
WHERE = ("field", "on_deck", "deck", "discard", "deck_top")
CHOICES = (
    "discard_from_field",
    "ruhiges_wetter",
    "reinigender_regen",
    "lebenskraft_orakel",
    "hort_der_waldgeister",
)
DRUID = ("vp", "mana_token", "spoiled", "decay", "growth", "deck_size", "discard_size")
HARVEST = (
    "active",
    "mana",
    *c.SPIRITS,
    "advancements_bought",
    "vales_bought",
    "buy_limit",
    "to_sleeve",
)
VP_SCALE = 50.0
MANA_SCALE = 20.0
SYMBOL_SCALE = 10.0
QUARTER = 1 / c.VALE_MARKET  # what a vale card in the market adds (`fill`)
OLD_ROOTS = "alte_lebenswurzeln"  # a vale adding 1 growth once owned since an earlier turn
SLEEVES_SEEN = 4096  # druids' sleeves remembered per encoder, some 1.5 kB each

# What a druid's cards show: its ones of `cards` and `bands` as seat 0 sees them, and each
# card's (decay, growth) without Ätherbaum as the rules count them, None until the card is
# in play (see `_shown`).
DruidSleeves = tuple[np.ndarray, list[tuple[int, int] | None]]
# The same for every druid: all their ones, and each druid's cards' values in turn order.
Sleeves = tuple[np.ndarray, list[list[tuple[int, int] | None]]]


class MysticValeEncoder(Encoder):
    game_id = "mystic_vale"
    options: MysticValeOptions
    points_blocks: ClassVar[dict[str, int | None]] = {"druids": 0}  # the VP column
    labelled_blocks: ClassVar[tuple[str, ...]] = ("cards", "bands", "where")

    def __init__(self, players: int, options: MysticValeOptions) -> None:  # type: ignore[override]
        super().__init__(players, options)
        self.sets = ("base", "vale_of_magic") if options.vale_of_magic else ("base",)
        advancements = c.advancements()
        self.types = [a.id for a in advancements.values() if a.set in ("starter", *self.sets)]
        self.type_index = {t: i for i, t in enumerate(self.types)}
        self.vales = [v.id for v in c.vales().values() if v.set in self.sets]
        self.vale_index = {v: i for i, v in enumerate(self.vales)}
        self.copies = [
            copy for level in (1, 2, 3) for copy in c.advancement_copies(self.sets, level)
        ] + [f"{c.FERTILE_SOIL}@{p}" for p in c.POSITIONS]
        self.piles = [max(1, len(c.advancement_copies(self.sets, level))) for level in (1, 2, 3)]
        self.vale_piles = [max(1, len(c.vale_copies(self.sets, level))) for level in (1, 2)]
        self._index_tables()

    def _index_tables(self) -> None:
        """Where each fact of a position lands in the flat observation array, for
        `fill_state`: looked up, never computed, while a game is played."""
        start: dict[str, int] = {}
        at = 0
        for block in self.blocks():  # the order `Encoding` lays the blocks out in
            start[block.name] = at
            at += block.size
        types, vales = len(self.types), len(self.vales)
        positions = range(len(c.POSITIONS))
        seats = range(self.players)
        copy_at = {
            f"{type_id}@{position}": t * len(positions) + p
            for type_id, t in self.type_index.items()
            for p, position in enumerate(c.POSITIONS)
        }
        # per seat, one table per sleeve slot in the order the slots of the 20 cards follow
        # each other: the type sleeved there -> its entry
        self._slot_at: list[list[dict[str, int]]] = [
            [
                {
                    type_id: start["cards"] + ((r * CARDS + x) * len(positions) + p) * types + t
                    for type_id, t in self.type_index.items()
                }
                for x in range(CARDS)
                for p in positions
            ]
            for r in seats
        ]
        # per seat and card, indexed by the band (-1, no band, gives 0: no entry of `bands`)
        self._band_at: list[list[tuple[int, ...]]] = [
            [
                (*(start["bands"] + (r * CARDS + x) * len(positions) + p for p in positions), 0)
                for x in range(CARDS)
            ]
            for r in seats
        ]
        # The ones of `cards` and `bands` are remembered as seat 0 sees them; any other seat
        # sees the same blocks with the seats turned: per observer, each entry -> its own.
        per_seat = {"cards": CARDS * len(positions) * types, "bands": CARDS * len(positions)}
        end = max(start[block] + self.players * size for block, size in per_seat.items())
        self._seen_from: list[np.ndarray] = []
        for me in seats:
            entry = np.arange(end, dtype=np.intp)
            for block, size in per_seat.items():
                for owner in seats:
                    at = start[block] + owner * size
                    seen = start[block] + self.relative(owner, me) * size
                    entry[at : at + size] = np.arange(seen, seen + size)
            self._seen_from.append(entry)
        # per seat and column of WHERE, each card's entry
        self._where_at: list[list[list[int]]] = [
            [
                [start["where"] + (r * CARDS + x) * len(WHERE) + column for x in range(CARDS)]
                for column in range(len(WHERE))
            ]
            for r in seats
        ]
        self._vale_at: list[tuple[dict[str, int], ...]] = [
            tuple(
                {vid: start[block] + r * vales + v for vid, v in self.vale_index.items()}
                for block in ("vales", "new_vales", "boxed_vales")
            )
            for r in seats
        ]
        self._druid_at = [start["druids"] + r * len(DRUID) for r in seats]
        self._market_at = {copy: start["market"] + i for copy, i in copy_at.items()}
        self._vale_market_at = {vid: start["vale_market"] + v for vid, v in self.vale_index.items()}
        # per advancement pile 1-3, then vale pile 1-2: its entry and its full size
        self._pile_at = tuple(enumerate((*self.piles, *self.vale_piles), start["piles"]))
        self._fertile_at = start["fertile_soil"]
        self._pool_at = start["pool"]
        self._phase_at = {phase: start["phase"] + i for i, phase in enumerate(PHASES)}
        self._stage_at = {stage: start["stage"] + i for i, stage in enumerate(STAGES)}
        self._to_move_at = start["to_move"]
        self._harvest_at = start["harvest"]
        self._to_sleeve_at = {copy: start["to_sleeve"] + i for copy, i in copy_at.items()}
        self._sleeve_next_at = {copy: start["sleeve_next"] + i for copy, i in copy_at.items()}
        self._choice_at = {ability: start["choice"] + i for i, ability in enumerate(CHOICES)}
        self._choice_left_at = start["choice"] + len(CHOICES)
        self._sleeves_seen: dict[tuple[object, ...], DruidSleeves] = {}
        # the last position's cards and bands (copies) and what they show; none at first
        self._last_sleeves: tuple[list[Any], list[Any], Sleeves] = ([], [], (np.zeros(0), []))
        self._vale_growth = {vid: c.vales()[vid].growth for vid in self.vales}
        self._old_roots = {vid for vid in self.vales if c.vales()[vid].ability == OLD_ROOTS}

    def _abilities(self) -> set[str]:
        found = {a.ability for a in c.advancements().values() if a.set in self.sets}
        found |= {v.ability for v in c.vales().values() if v.set in self.sets}
        return {a for a in found if a}

    def actions(self) -> list[Action]:
        abilities = self._abilities()
        cards = range(1, CARDS + 1)
        found: list[Action] = [Push(), Pass(), Reveal()]
        if self.options.edition == "german":
            found.append(StopPrep())
        found += [Choose(x) for x in cards]
        found.append(Decline())
        if "druide_des_friedens" in abilities:
            found += [Prevent("druide_des_friedens", x) for x in cards]
        if "bluehende_lichtung" in abilities:
            found.append(Prevent("bluehende_lichtung"))
        if "aetherbaum" in abilities:
            found += [Prevent("aetherbaum", x) for x in cards]
        if "konklave_der_baumhirten" in abilities:
            found.append(Prevent("konklave_der_baumhirten"))
        found.append(Spoil())
        found += [UseAbility(x, position) for x in cards for position in c.POSITIONS]
        found += [BuyAdvancement(copy) for copy in self.copies]
        if "chor_des_erdengesangs" in abilities:
            found += [BuyAdvancement(copy, x) for copy in self.copies for x in cards]
        found += [BuyVale(vid) for vid in self.vales]
        if self.options.edition != "english":
            found.append(Exchange())
        found.append(EndHarvest())
        for copy in self.copies:
            vertical = c.split_copy(copy)[0].vertical
            for x in cards:
                found.append(Sleeve(copy, x))
                if vertical:
                    found.append(Sleeve(copy, x, old_band=True))
        return found

    def blocks(self) -> list[Block]:
        p, types, vales, positions = self.players, len(self.types), len(self.vales), 3
        return [
            Block(
                "cards",
                (p, CARDS, positions, types),
                "per seat, card c1-c20 and position (top, middle, bottom): the advancement "
                "type sleeved there, one-hot",
            ),
            Block("bands", (p, CARDS, positions), "the position whose vertical ability shows"),
            Block(
                "where",
                (p, CARDS, len(WHERE)),
                "per seat and card: in the field, on deck, and for the observer's own cards "
                "in the deck, the discard pile, among the deck's known top cards",
            ),
            Block("vales", (p, vales), "vale cards owned, per type, / 2"),
            Block("new_vales", (p, vales), "vale cards bought this turn, per type, / 2"),
            Block("boxed_vales", (p, vales), "vale cards spent to the box, per type, / 2"),
            Block(
                "druids",
                (p, len(DRUID)),
                "per seat: VP / 50, mana token active, spoiled, decay / 10, growth / 10, "
                "deck size / 20, discard size / 20",
                low=-2.0,
                high=4.0,
            ),
            Block("market", (types, positions), "advancement copies in the market"),
            Block("vale_market", (vales,), "vale cards in the market, per type, / 4"),
            Block("piles", (5,), "cards left in the advancement piles 1-3 and vale piles 1-2"),
            Block("fertile_soil", (positions,), "Fertile Soil left per position, / 6"),
            Block("pool", (2,), "VP left in the counted pool / its start; end triggered"),
            Block("phase", (len(PHASES),), ", ".join(PHASES)),
            Block("stage", (len(STAGES),), "planting or prep"),
            Block("to_move", (p,), "the seat to move, relative (all 0 once over)"),
            Block(
                "harvest",
                (len(HARVEST),),
                "harvest under way; mana / 20; beast, forest, sky, wild / 10; advancements "
                "and vales bought, buy limit / 3; purchases to sleeve / 3",
                low=-1.0,
                high=5.0,
            ),
            Block("to_sleeve", (types, positions), "purchases waiting to be sleeved, / 3"),
            Block("sleeve_next", (types, positions), "the purchase to sleeve now"),
            Block("choice", (len(CHOICES) + 1,), "the ability waiting for a choice; left / 10"),
        ]

    def fill(self, view: Mapping[str, Any], me: int, parts: Parts) -> None:
        types, vales = self.type_index, self.vale_index
        positions = {p: i for i, p in enumerate(c.POSITIONS)}
        for owner, druid in enumerate(view["druids"]):
            r = self.relative(owner, me)
            cards, bands, where = parts["cards"][r], parts["bands"][r], parts["where"][r]
            for entry in druid["cards"]:
                x = entry["card"] - 1
                for position, type_id in enumerate(entry["slots"]):
                    if type_id is not None:
                        cards[x, position, types[type_id]] = 1
                if entry["band"] is not None:
                    bands[x, positions[entry["band"]]] = 1
            for x in druid["field"]:
                where[x - 1, 0] = 1
            if druid["on_deck"] is not None:
                where[druid["on_deck"] - 1, 1] = 1
            for column, key in ((2, "deck"), (3, "discard"), (4, "deck_top")):
                for x in druid.get(key, ()):
                    where[x - 1, column] = 1
            for entry in druid["vales"]:
                parts["vales"][r, vales[entry["vale"]]] += 0.5
                if entry["new"]:
                    parts["new_vales"][r, vales[entry["vale"]]] += 0.5
            for vid in druid["boxed_vales"]:
                parts["boxed_vales"][r, vales[vid]] += 0.5
            parts["druids"][r] = (
                druid["vp"] / VP_SCALE,
                druid["mana_token"],
                druid["spoiled"],
                druid["decay"] / SYMBOL_SCALE,
                druid["growth"] / SYMBOL_SCALE,
                druid["deck_size"] / CARDS,
                druid["discard_size"] / CARDS,
            )
        for level in view["market"]:
            for copy in level:
                if copy is not None:
                    type_id, _, position = copy.partition("@")
                    parts["market"][types[type_id], positions[position]] += 1
        for level in view["vale_market"]:
            for vid in level:
                if vid is not None:
                    parts["vale_market"][vales[vid]] += 1 / c.VALE_MARKET
        sizes = [*self.piles, *self.vale_piles]
        parts["piles"][:] = [
            n / size for n, size in zip([*view["piles"], *view["vale_piles"]], sizes, strict=True)
        ]
        parts["fertile_soil"][:] = [n / c.FERTILE_SOIL_PER_POSITION for n in view["fertile_soil"]]
        parts["pool"][:] = (view["vp_pool"] / c.vp_pool(self.players), view["end_triggered"])
        parts["phase"][PHASES.index(view["phase"])] = 1
        parts["stage"][STAGES.index(view["stage"])] = 1
        if view["to_move"] is not None:
            parts["to_move"][self.relative(view["to_move"], me)] = 1
        harvest = view["harvest"]
        if harvest is not None:
            parts["harvest"][:] = (
                1,
                harvest["mana"] / MANA_SCALE,
                *(harvest["spirits"].get(s, 0) / SYMBOL_SCALE for s in c.SPIRITS),
                harvest["advancements_bought"] / 3,
                harvest["vales_bought"] / 3,
                harvest["buy_limit"] / 3,
                len(harvest["to_sleeve"]) / 3,
            )
            for i, copy in enumerate(harvest["to_sleeve"]):
                type_id, _, position = copy.partition("@")
                at = types[type_id], positions[position]
                parts["to_sleeve"][at] += 1 / 3
                if i == 0:
                    parts["sleeve_next"][at] = 1
        choice = view["choice"]
        if choice is not None:
            parts["choice"][CHOICES.index(choice["ability"])] = 1
            parts["choice"][-1] = choice["left"] / 10

    def fill_state(self, state: MysticValeState, me: int, parts: Parts) -> None:  # type: ignore[override]
        # Numbers go one at a time through a memoryview: cheaper than numpy's item writes and,
        # for the few dozen written here, than gathering indices for one numpy assignment.
        # The ones of the sleeves, most of the array's ones, change rarely: remembered.
        seats = state.seats
        sleeves, card_shows = self._sleeves(seats)
        out = memoryview(parts.array)
        for owner, druid in enumerate(seats):
            r = (owner - me) % self.players
            field_at, on_deck_at, deck_at, discard_at, deck_top_at = self._where_at[r]
            for x in druid.field:
                out[field_at[x]] = 1.0
            if druid.on_deck is not None:
                out[on_deck_at[druid.on_deck]] = 1.0
            if owner == me:  # a seat's own deck (as a set), discard pile and known top cards
                for x in druid.deck:
                    out[deck_at[x]] = 1.0
                for x in druid.discard:
                    out[discard_at[x]] = 1.0
                if druid.known_top:  # the view's slice, even where it outruns the deck
                    for x in druid.deck[len(druid.deck) - druid.known_top :]:
                        out[deck_top_at[x]] = 1.0
            vale_growth = 0
            if druid.vales or druid.boxed_vales:
                # halves add up exactly in float32, as the view's `+=` does
                owned_at, new_at, boxed_at = self._vale_at[r]
                turn = state.active_turn(druid)
                for vid, bought in druid.vales:
                    out[owned_at[vid]] += 0.5
                    vale_growth += self._vale_growth[vid]
                    if bought >= turn:
                        out[new_at[vid]] += 0.5
                    elif vid in self._old_roots:  # grows from the turn after its purchase
                        vale_growth += 1
                for vid in druid.boxed_vales:
                    out[boxed_at[vid]] += 0.5
            if druid.aether:  # a card under Ätherbaum: the rules' own sum
                shown, growth = state._decay_and_growth(druid)
            else:  # the rules' sum (MysticValeState._decay_and_growth), cards' part remembered
                shown, growth = _shown(druid, card_shows[owner])
                growth += vale_growth + druid.growth_bonus
            at = self._druid_at[r]
            out[at] = druid.vp / VP_SCALE
            out[at + 1] = druid.mana_token
            out[at + 2] = druid.spoiled
            out[at + 3] = (shown - growth) / SYMBOL_SCALE
            out[at + 4] = growth / SYMBOL_SCALE
            out[at + 5] = len(druid.deck) / CARDS
            out[at + 6] = len(druid.discard) / CARDS
        market_at = self._market_at
        for level in state.market:
            for copy in level:
                if copy is not None:
                    out[market_at[copy]] = 1.0
        vale_market_at = self._vale_market_at
        for level in state.vale_market:
            for vid in level:
                if vid is not None:
                    out[vale_market_at[vid]] += QUARTER  # exact in float32, as in the view
        piles = chain(state.piles, state.vale_piles)
        for pile, (i, size) in zip(piles, self._pile_at, strict=True):
            out[i] = len(pile) / size
        at = self._fertile_at
        for i, n in enumerate(state.fertile, at):
            out[i] = n / c.FERTILE_SOIL_PER_POSITION
        at = self._pool_at
        out[at] = state.pool / c.vp_pool(self.players)
        out[at + 1] = state.end_triggered
        out[self._phase_at[state.phase]] = 1.0
        out[self._stage_at[state.stage]] = 1.0
        to_move = state.to_move
        if to_move is not None:
            out[self._to_move_at + (to_move - me) % self.players] = 1.0
        h = state.harvest
        if state.phase == "harvest" or h.to_sleeve:  # when the view shows the harvest
            at = self._harvest_at
            out[at] = 1.0
            out[at + 1] = (h.mana_earned - h.mana_spent) / MANA_SCALE
            for i, spirit in enumerate(c.SPIRITS, at + 2):
                out[i] = h.spirits.get(spirit, 0) / SYMBOL_SCALE
            at += 2 + len(c.SPIRITS)
            out[at] = h.advancements_bought / 3
            out[at + 1] = h.vales_bought / 3
            out[at + 2] = h.buy_limit / 3
            out[at + 3] = len(h.to_sleeve) / 3
            if h.to_sleeve:
                waiting: dict[str, int] = {}
                for copy, _ in h.to_sleeve:
                    waiting[copy] = waiting.get(copy, 0) + 1
                for copy, n in waiting.items():
                    out[self._to_sleeve_at[copy]] = _float32_sum(1 / 3, n)
                out[self._sleeve_next_at[h.to_sleeve[0][0]]] = 1.0
        choice = state.choice
        if choice is not None and me == to_move:  # only the chooser sees it
            out[self._choice_at[choice["ability"]]] = 1.0
            out[self._choice_left_at] = choice["left"] / 10
        parts.array[self._seen_from[me][sleeves]] = 1.0

    def _sleeves(self, seats: list[Druid]) -> Sleeves:
        """What the druids' cards show: remembered by what is sleeved where, which changes
        only when a purchase is sleeved, while every decision is observed."""
        # Positions usually follow each other in one game: the last one's sleeves are
        # compared first (list equality: no key to build or hash).
        cards = [druid.cards for druid in seats]
        bands = [druid.band for druid in seats]
        last_cards, last_bands, found = self._last_sleeves
        if cards == last_cards and bands == last_bands:
            return found
        druids = [self._druid_sleeves(owner, druid) for owner, druid in enumerate(seats)]
        found = np.concatenate([ones for ones, _ in druids]), [shows for _, shows in druids]
        # copies: a state's lists change in place as it is played
        self._last_sleeves = (
            [list(map(list.copy, slots)) for slots in cards],
            list(map(list.copy, bands)),
            found,
        )
        return found

    def _druid_sleeves(self, owner: int, druid: Druid) -> DruidSleeves:
        """What one druid's cards show (a purchase changes one druid's: the others' are
        found again)."""
        key = (owner, *chain.from_iterable(druid.cards), *druid.band)
        found = self._sleeves_seen.get(key)
        if found is None:
            slots = list(chain.from_iterable(druid.cards))
            ones = chain(
                map(getitem, compress(self._slot_at[owner], slots), compress(slots, slots)),
                filter(None, map(getitem, self._band_at[owner], druid.band)),
            )
            found = np.fromiter(ones, np.intp), [None] * CARDS
            if len(self._sleeves_seen) >= SLEEVES_SEEN:  # a bound on memory, nothing subtler
                self._sleeves_seen.clear()
            self._sleeves_seen[key] = found
        return found


def _shown(druid: Druid, card_shows: list[tuple[int, int] | None]) -> tuple[int, int]:
    """The decay and growth the druid's field and on-deck card show (none under Ätherbaum),
    from its cards' values remembered with its sleeves, each asked of the rules the first
    time the card is in play."""
    shown = growth = 0
    for x in druid.field if druid.on_deck is None else [*druid.field, druid.on_deck]:
        shows = card_shows[x]
        if shows is None:
            shows = card_shows[x] = _card_decay_growth(tuple(druid.cards[x]), druid.band[x], False)
        shown += shows[0]
        growth += shows[1]
    return shown, growth


@cache
def _float32_sum(step: float, times: int) -> float:
    """`step` added `times` times to a float32 zero, as `fill`'s `+=` adds it (thirds drift
    from n/3 in float32)."""
    cell = np.zeros(1, dtype=np.float32)
    for _ in range(times):
        cell[0] += step
    return float(cell[0])


ENCODER = MysticValeEncoder
