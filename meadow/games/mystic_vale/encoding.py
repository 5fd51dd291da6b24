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
from typing import Any

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


class MysticValeEncoder(Encoder):
    game_id = "mystic_vale"
    options: MysticValeOptions

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


ENCODER = MysticValeEncoder
