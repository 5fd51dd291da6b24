"""Mystic Vale drawn as text for the terminal, from a seat's view (never from the state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.text import game_over_text
from meadow.games.mystic_vale import components as c

SHORT = {
    "mana": "M",
    "decay": "D",
    "growth": "G",
    "vp": "V",
    "beast": "b",
    "forest": "f",
    "sky": "s",
    "wild": "w",
    "guardian": "g",
    "end_vp": "e",
}


def _symbols(type_id: str) -> str:
    adv = c.advancements()[type_id]
    return "".join(f"{n}{SHORT[k]}" for k, n in adv.symbols.items())


def plain(value: object) -> str:
    """A value in words, never Python's notation: {'forest': 2} -> "2 forest", [] -> "none"."""
    if isinstance(value, Mapping):
        return ", ".join(f"{n} {k}" for k, n in value.items() if n) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def card_text(card: Mapping[str, Any]) -> str:
    parts = []
    for pos, type_id in zip(c.POSITIONS, card["slots"], strict=True):
        if type_id:
            adv = c.advancements()[type_id]
            band = "|" if card["band"] == pos else ""
            parts.append(f"{pos[0]}:{adv.name}{band}({_symbols(type_id)})")
    return f"c{card['card']}[" + (" ".join(parts) or "blank") + "]"


def render(view: Mapping[str, Any]) -> str:
    lines = []
    for level, row in enumerate(view["market"], 1):
        lines.append(
            f"market L{level} ({view['piles'][level - 1]} left): "
            + ", ".join(
                f"{copy} {c.advancements()[copy.split('@')[0]].cost}m" for copy in row if copy
            )
        )
    lines.append(
        "fertile soil (2m, 1 mana): "
        + ", ".join(f"{p} {n}" for p, n in zip(c.POSITIONS, view["fertile_soil"], strict=True))
    )
    for level, row in enumerate(view["vale_market"], 1):
        lines.append(
            f"vales L{level} ({view['vale_piles'][level - 1]} left): "
            + ", ".join(f"{v} ({plain(c.vales()[v].cost)})" for v in row if v)
        )
    lines.append(
        f"VP pool: {view['vp_pool']}" + (" - last round!" if view["end_triggered"] else "")
    )
    for owner, druid in enumerate(view["druids"]):
        you = " (you)" if owner == view["seat"] else ""
        token = "active" if druid["mana_token"] else "inactive"
        lines.append(
            f"druid {owner}{you}: {druid['vp']} VP, mana token {token}, deck {druid['deck_size']},"
            f" discard {druid['discard_size']}, decay {druid['decay']}"
            + (" SPOILED" if druid["spoiled"] else "")
        )
        cards = {card["card"]: card for card in druid["cards"]}
        for number in druid["field"]:
            lines.append("  field " + card_text(cards[number]))
        if druid["on_deck"]:
            lines.append("  on deck " + card_text(cards[druid["on_deck"]]))
        if druid["vales"]:
            lines.append(
                "  vales: "
                + ", ".join(v["vale"] + (" (new)" if v["new"] else "") for v in druid["vales"])
            )
        if druid.get("deck_top"):
            lines.append("  top of your deck: " + ", ".join(f"c{n}" for n in druid["deck_top"]))
    if view["harvest"]:
        h = view["harvest"]
        spirits = ", ".join(f"{k} {n}" for k, n in h["spirits"].items() if n)
        lines.append(
            f"harvest: {h['mana']} mana, spirits {spirits or 'none'}, bought "
            f"{h['advancements_bought']}/{h['buy_limit']} advancements, "
            f"{h['vales_bought']}/2 vales"
        )
    if view["choice"]:
        lines.append(f"choice for {view['choice']['ability']}")
    lines.append(
        "symbols: M mana, D decay, G growth, V harvest VP, b/f/s/w spirits, "
        "g guardian, e end VP; | marks the visible vertical band; values are stand-ins"
    )
    return "\n".join(lines)


def event_text(event: Mapping[str, Any]) -> str:
    who = f"druid {event['seat']}"
    kind = event["kind"]
    simple = {
        "turn": f"{who} begins turn {event.get('turn')}",
        "play": f"{who} plays c{event.get('card')} into the field",
        "reveal": f"{who} reveals c{event.get('card')}"
        if event.get("card")
        else f"{who}'s deck is empty",
        "spoil": f"{who}'s field spoils",
        "end_harvest": f"{who} ends the harvest",
        "stop_prep": f"{who} stops Prep",
        "keep_on_top": f"{who} keeps the top card",
        "shuffle_deck": f"{who} shuffles the deck",
    }
    if kind in simple:
        return simple[kind]
    if kind == "game_over":
        return game_over_text(event, "druid")
    if kind == "buy":
        return f"{who} buys {event['copy']} for {event['cost']} mana"
    if kind == "buy_vale":
        return f"{who} buys the vale {event['vale']}"
    if kind == "sleeve":
        return f"{who} sleeves {event['copy']} into c{event['card']}"
    if kind == "vp":
        return f"{who} takes {event['vp']} VP ({event['reason']})"
    if kind in ("reveal_advancement", "reveal_vale"):
        return f"the market gains {event.get('copy') or event.get('vale')}"
    if kind == "cleanup" and "kept" in event:
        kept = event["kept"]
        return f"{who} clears the field" + (
            f", keeping {', '.join(f'c{n}' for n in kept)}" if kept else ""
        )
    details = ", ".join(
        f"{k} {plain(v)}" for k, v in event.items() if k not in ("kind", "seat", "reveals")
    )
    return f"{who} {kind.replace('_', ' ')}: {details}"
