"""What each seat may know of a Mystic Vale game, worlds consistent with it, and the JSON
form of the state.

Public: every druid's 20 cards (what is sleeved where: purchases and sleeving happen in
the open), their fields and on-deck cards, vale cards, VP, mana tokens, deck and discard
counts; the markets, piles' sizes and the VP pool. A seat also sees its own deck as a set
(never its order, except the top cards an ability let it look at) and its own discard pile.
Hidden: the order of every deck and pile, others' decks and discard piles, and which
level-1 advancements went back to the box.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from meadow.core.actions import JSON
from meadow.core.rng import Rng
from meadow.games.mystic_vale import components as c
from meadow.games.mystic_vale.druid import Druid, Harvest
from meadow.games.mystic_vale.options import MysticValeOptions

if TYPE_CHECKING:
    from meadow.games.mystic_vale.rules import MysticValeState

S = TypeVar("S", bound="MysticValeState")


def _cards(druid: Druid) -> list[dict[str, JSON]]:
    return [
        {
            "card": i + 1,
            "slots": list(slots),
            "band": None if druid.band[i] < 0 else c.POSITIONS[druid.band[i]],
        }
        for i, slots in enumerate(druid.cards)
    ]


def _numbers(cards: list[int]) -> list[int]:
    return [x + 1 for x in cards]


def _druid_view(state: MysticValeState, viewer: int | None, owner: int) -> dict[str, JSON]:
    druid = state.seats[owner]
    data: dict[str, JSON] = {
        "cards": _cards(druid),
        "field": _numbers(druid.field),
        "on_deck": None if druid.on_deck is None else druid.on_deck + 1,
        "deck_size": len(druid.deck),
        "discard_size": len(druid.discard),
        "vales": [
            {"vale": vid, "new": bought >= state.active_turn(druid)} for vid, bought in druid.vales
        ],
        "boxed_vales": list(druid.boxed_vales),
        "vp": druid.vp,
        "mana_token": druid.mana_token,
        "spoiled": druid.spoiled,
        "decay": state.decay(druid),
        "growth": state.growth(druid),
    }
    if viewer == owner:
        known = druid.deck[len(druid.deck) - druid.known_top :] if druid.known_top else []
        data["deck"] = sorted(_numbers(druid.deck))
        data["deck_top"] = _numbers(known[::-1])  # seen by an ability, top first
        data["discard"] = sorted(_numbers(druid.discard))
    return data


def _catalog(data: dict[str, Any]) -> dict[str, JSON]:
    """Printed values of every card type the view names, for drawing them (presentation
    only: the values may come from an imported card file, so the browser cannot know them)."""
    adv_ids = {c.CURSED_LAND, c.FERTILE_SOIL}
    vale_ids: set[str] = set()
    for level in data["market"]:
        adv_ids.update(copy.partition("@")[0] for copy in level if copy)
    for level in data["vale_market"]:
        vale_ids.update(vid for vid in level if vid)
    for druid in data["druids"]:
        for card in druid["cards"]:
            adv_ids.update(type_id for type_id in card["slots"] if type_id)
        vale_ids.update(v["vale"] for v in druid["vales"])
        vale_ids.update(druid["boxed_vales"])
    if data["harvest"]:
        adv_ids.update(copy.partition("@")[0] for copy in data["harvest"]["to_sleeve"])
    return {
        "advancements": {i: _advancement_values(i) for i in sorted(adv_ids)},
        "vales": {i: _vale_values(i) for i in sorted(vale_ids)},
    }


# The catalog's entries are the same in every view: built once per card type. A view is
# read-only data (serialised, compared, encoded), so sharing them is safe.
@cache
def _advancement_values(card_id: str) -> dict[str, JSON]:
    a = c.advancements()[card_id]
    return {
        "name": a.name,
        "level": a.level,
        "cost": a.cost,
        "symbols": dict(a.symbols),
        "ability": a.ability,
        "timing": a.timing,
        "vertical": a.vertical,
        "standin": a.standin,
    }


@cache
def _vale_values(vale_id: str) -> dict[str, JSON]:
    v = c.vales()[vale_id]
    return {
        "name": v.name,
        "level": v.level,
        "cost": dict(v.cost),
        "end_vp": v.end_vp,
        "growth": v.growth,
        "ability": v.ability,
        "timing": v.timing,
        "standin": v.standin,
        "sourced": list(v.sourced),
        "name_language": v.name_language,
    }


def view(state: MysticValeState, seat: int | None) -> dict[str, JSON]:
    over = state.to_move is None
    h = state.harvest
    data: dict[str, JSON] = {
        "game": "mystic_vale",
        "players": state.players,
        "seat": seat,
        "ply": state.ply,
        "options": state.options.model_dump(mode="json"),
        "standins": c.standins(),
        "phase": state.phase,
        "stage": state.stage,
        "to_move": state.to_move,
        "market": [list(level) for level in state.market],
        "piles": [len(p) for p in state.piles],
        "fertile_soil": list(state.fertile),
        "vale_market": [list(level) for level in state.vale_market],
        "vale_piles": [len(p) for p in state.vale_piles],
        "vp_pool": state.pool,
        "end_triggered": state.end_triggered,
        "druids": [_druid_view(state, seat, owner) for owner in range(state.players)],
        "harvest": None
        if state.phase != "harvest" and not h.to_sleeve
        else {
            "mana": h.mana_earned - h.mana_spent,
            "token_mana": h.token_mana if state.me.mana_token else 0,
            "spirits": dict(h.spirits),
            "advancements_bought": h.advancements_bought,
            "vales_bought": h.vales_bought,
            "buy_limit": h.buy_limit,
            "to_sleeve": [copy for copy, _ in h.to_sleeve],
        },
        "choice": None,
        "result": state.result().to_json() if over else None,
    }
    if state.choice is not None and seat == state.to_move:
        data["choice"] = {"ability": state.choice["ability"], "left": state.choice["left"]}
    # Every seat's view of one ply names the same cards (a server sends each seat and the
    # spectators a view of one move): the catalog is gathered once.
    cached = state._catalog
    if cached is None or cached[0] != state.ply:
        cached = state._catalog = (state.ply, _catalog(data))
    data["catalog"] = cached[1]
    return data


def sample_hidden(state: S, seat: int | None, rng: Rng) -> S:
    """A copy with deck orders, others' deck/discard split, and the piles redrawn."""
    world = state.clone()
    world.rng = rng.spawn()
    for owner, druid in enumerate(world.seats):
        if owner == seat:
            keep = druid.known_top
            bottom = sorted(druid.deck[: len(druid.deck) - keep])  # known as a set only
            rng.shuffle(bottom)
            druid.deck[: len(bottom)] = bottom
        else:
            mixed = sorted(druid.deck + druid.discard)
            rng.shuffle(mixed)
            druid.deck, druid.discard = mixed[: len(druid.deck)], mixed[len(druid.deck) :]
            druid.known_top = 0
            looking = world.choice if world.seat == owner else None
            if looking is not None and looking["ability"] == "hort_der_waldgeister":
                count = len(looking["cards"])  # the cards looked at are the new top ones
                looking["cards"] = druid.deck[len(druid.deck) - count :][::-1]
                druid.known_top = count
    unseen = sorted(world.piles[0] + world.box_l1)
    rng.shuffle(unseen)
    world.piles[0], world.box_l1 = (
        unseen[: len(world.piles[0])],
        sorted(unseen[len(world.piles[0]) :]),
    )
    for pile in world.piles[1:] + world.vale_piles:
        pile.sort()
        rng.shuffle(pile)
    return world


def state_to_json(state: MysticValeState) -> dict[str, JSON]:
    h = state.harvest
    return {
        "game": "mystic_vale",
        "players": state.players,
        "options": state.options.model_dump(mode="json"),
        "rng": state.rng.to_json(),
        "ply": state.ply,
        "seat": state.seat,
        "phase": state.phase,
        "stage": state.stage,
        "choice": None if state.choice is None else dict(state.choice),
        "queue": [q[:] for q in state.queue],
        "confirm_reveal": state.confirm_reveal,
        "market": [m[:] for m in state.market],
        "piles": [p[:] for p in state.piles],
        "box_l1": state.box_l1[:],
        "fertile": state.fertile[:],
        "vale_market": [m[:] for m in state.vale_market],
        "vale_piles": [p[:] for p in state.vale_piles],
        "pool": state.pool,
        "end_triggered": state.end_triggered,
        "harvest": {
            "mana_earned": h.mana_earned,
            "mana_doublable": h.mana_doublable,
            "mana_spent": h.mana_spent,
            "spirits": dict(h.spirits),
            "advancements_bought": h.advancements_bought,
            "vales_bought": h.vales_bought,
            "buy_limit": h.buy_limit,
            "to_sleeve": [s[:] for s in h.to_sleeve],
            "resolved": [r[:] for r in h.resolved],
            "erdenwiege": h.erdenwiege,
            "token_mana": h.token_mana,
        },
        "seats": [
            {
                "cards": [s[:] for s in d.cards],
                "band": d.band[:],
                "deck": d.deck[:],
                "on_deck": d.on_deck,
                "field": d.field[:],
                "discard": d.discard[:],
                "known_top": d.known_top,
                "vales": [v[:] for v in d.vales],
                "boxed_vales": d.boxed_vales[:],
                "vp": d.vp,
                "mana_token": d.mana_token,
                "turn": d.turn,
                "used": d.used[:],
                "growth_bonus": d.growth_bonus,
                "aether": d.aether[:],
                "spoiled": d.spoiled,
                "fresh": [f[:] for f in d.fresh],
                "kept": d.kept[:],
            }
            for d in state.seats
        ],
    }


def state_from_json(cls: type[S], data: Mapping[str, Any]) -> S:
    h = data["harvest"]
    choice = data["choice"]
    return cls(
        players=data["players"],
        options=MysticValeOptions.model_validate(data["options"]),
        rng=Rng.from_json(data["rng"]),
        ply=data["ply"],
        seats=[
            Druid(
                [list(s) for s in d["cards"]],
                list(d["band"]),
                list(d["deck"]),
                d["on_deck"],
                list(d["field"]),
                list(d["discard"]),
                d["known_top"],
                [list(v) for v in d["vales"]],
                list(d["boxed_vales"]),
                d["vp"],
                d["mana_token"],
                d["turn"],
                list(d["used"]),
                d["growth_bonus"],
                list(d["aether"]),
                d["spoiled"],
                [list(f) for f in d["fresh"]],
                list(d["kept"]),
            )
            for d in data["seats"]
        ],
        seat=data["seat"],
        phase=data["phase"],
        stage=data["stage"],
        choice=None
        if choice is None
        else {k: (list(v) if isinstance(v, list) else v) for k, v in choice.items()},
        queue=[list(q) for q in data["queue"]],
        market=[list(m) for m in data["market"]],
        piles=[list(p) for p in data["piles"]],
        box_l1=list(data["box_l1"]),
        fertile=list(data["fertile"]),
        vale_market=[list(m) for m in data["vale_market"]],
        vale_piles=[list(p) for p in data["vale_piles"]],
        pool=data["pool"],
        harvest=Harvest(
            h["mana_earned"],
            h["mana_doublable"],
            h["mana_spent"],
            dict(h["spirits"]),
            h["advancements_bought"],
            h["vales_bought"],
            h["buy_limit"],
            [list(s) for s in h["to_sleeve"]],
            [list(r) for r in h["resolved"]],
            h.get("erdenwiege", 0),  # absent in states saved before it was counted at the end
            h.get("token_mana", 1),  # absent in states saved before the token was kept apart
        ),
        end_triggered=data["end_triggered"],
        confirm_reveal=data["confirm_reveal"],
    )
