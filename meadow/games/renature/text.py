"""Renature drawn as text for the terminal, from a seat's view (never from the state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.text import game_over_text

PLANT_LETTER = {"turf": "t", "bush": "b", "pine": "p", "oak": "o"}
COLOUR_MARK = {"orange": "0", "blue": "1", "black": "2", "white": "3", "neutral": "n"}


def _cell_text(view: Mapping[str, Any], name: str, letter: str | None) -> str:
    if name in view["dominoes"]:
        animal = view["dominoes"][name]["animal"]
        return animal[:2].capitalize() + ("'" if name in view["irrelevant"] else " ")
    if name in view["plants"]:
        plant = view["plants"][name]
        return f"{PLANT_LETTER[plant['plant']]}{COLOUR_MARK[plant['colour']]} "
    clouds = view["clouds"].get(name)
    if letter is not None:
        return f"{letter}{'*' if clouds else ' '} "
    if name in view["board"]["start"]:
        return "^^ "
    if name in view["board"]["stumps"]:
        return "## "
    if clouds:
        return f"~{clouds} "
    return ".. "


def render(view: Mapping[str, Any]) -> str:
    board = view["board"]
    width, height = board["width"], board["height"]
    lines = ["     " + "".join(f"{chr(ord('a') + col)}  " for col in range(width))]
    for row in range(height):
        cells = []
        for col in range(width):
            name = f"{chr(ord('a') + col)}{row + 1}"
            cells.append(_cell_text(view, name, view["area_of"].get(name)))
        lines.append(f"{row + 1:>3}  " + "".join(cells).rstrip())
    lines.append(
        "key: Ow = owl ... (first two letters; ' = irrelevant), t/b/p/o + colour digit = "
        "turf/bush/pine/oak (n = neutral), letter = area (* = clouds), ^^ start, ## stump, "
        "~N clouds, .. brook"
    )
    if board["standin"]:
        lines.append(f"board: {board['name']} - a stand-in, not the printed map")
    lines.append(f"joker: {view['joker']}")
    base = view["options"]["board"] == "base"
    for area in view["areas"]:
        if area["scored"] or (base and area["token"] is None):
            continue
        token = area["token"]
        front = f" token {token['main']}/{token['minor']}" if token else ""
        totals = ", ".join(f"{k} {v}" for k, v in area["totals"].items())
        would = ", ".join(f"seat {s}: {p}" for s, p in area["would_score"].items())
        if totals:
            tied = f" (tied: {', '.join(area['tied'])})" if area["tied"] else ""
            label = f"area {area['area']} ({area['size']}){front}"
            lines.append(f"{label}: {totals}{tied} -> {would or 'nobody'}")
    for owner, seat in enumerate(view["seats"]):
        you = " (you)" if owner == view["seat"] else ""
        supply = " ".join(f"{k}:{n}" for k, n in seat["supply"].items() if n)
        lines.append(
            f"seat {owner} {seat['colour']}{you}: {seat['score']} points, {seat['clouds']} clouds, "
            f"{seat['hand_size']} in hand, {seat['reserve_size']} in reserve; plants {supply}"
        )
        if "hand" in seat:
            hand = ", ".join(f"{d['domino']} {'/'.join(d['animals'])}" for d in seat["hand"])
            lines.append(f"  your hand: {hand}")
    return "\n".join(lines)


def event_text(event: Mapping[str, Any]) -> str:
    who = f"seat {event['seat']}"
    kind = event["kind"]
    if kind == "place_domino":
        first, second = event["cells"]
        a, b = event["animals"]
        clouds = f", takes {event['clouds']} clouds" if event.get("clouds") else ""
        return f"{who} places {event['domino']} ({a} on {first}, {b} on {second}){clouds}"
    if kind == "discard":
        which = f" {event['domino']}" if "domino" in event else " a domino"
        return f"{who} returns{which} to the box"
    if kind == "mushroom":
        size = f"area {event['area']} now has {event['size']} spaces"
        return f"{who} places a mushroom on {event['cell']}: {size}"
    if kind == "plant":
        neutral = "neutral " if event["neutral"] else ""
        plant = f"{neutral}{event['plant']} on {event['cell']}"
        return f"{who} plants a {plant} for {event['points']} points"
    if kind == "area_scored":
        points = ", ".join(f"seat {s} +{p}" for s, p in event["points"].items()) or "no points"
        back = f" (its back: {event['back']})" if "back" in event else ""
        taker = "the box" if event["taker"] is None else f"seat {event['taker']}"
        return f"area {event['area']} is scored: {points}; its token goes to {taker}{back}"
    if kind == "draw":
        which = f" {event['domino']}" if "domino" in event else " a domino"
        return f"{who} draws{which}"
    if kind == "joker":
        return f"{who} makes the {event['animal']} the joker"
    if kind == "return_plant":
        return f"{who} takes the {event['plant']} on {event['cell']} back"
    if kind == "extra_turn":
        return f"{who} pays 3 clouds for another turn"
    if kind == "game_over":
        return game_over_text(event)
    return f"{who} {kind}"
