"""The garden drawn as text for the terminal, from a seat's view (never from the state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.text import game_over_text
from meadow.games.topiary import components as c

_ARROWS = {"N": "v", "S": "^", "W": ">", "E": "<"}


def tile_text(tile: str) -> str:
    """`swan_4` -> `Sw4`; face-down `..`; gap `__`."""
    if tile == "face_down":
        return " ..."
    if tile == "gap":
        return " ___"
    shape, _, value = tile.rpartition("_")
    abbreviation = {s.id: s.abbreviation for s in c.shapes()}[shape]
    return f" {abbreviation}{value}"


def render(view: Mapping[str, Any]) -> str:
    """Draw the garden with orthogonal visitors on its edges, then the rest as lines of text."""
    visitors: dict[str, int] = view["visitors"]

    def edge(side: str, index: int) -> str:
        seat = visitors.get(f"O-{side}{index}")
        return f" {_ARROWS[side]}{seat} " if seat is not None else "    "

    lines = ["       " + "".join(f" c{col} " for col in range(c.SIZE))]
    lines.append("       " + "".join(edge("N", col) for col in range(c.SIZE)))
    for row in range(c.SIZE):
        cells = "".join(tile_text(t) for t in view["garden"][row])
        lines.append(f"r{row} {edge('W', row)}{cells}{edge('E', row)}")
    lines.append("       " + "".join(edge("S", col) for col in range(c.SIZE)))

    diagonals = [f"{p}:{s}" for p, s in visitors.items() if p.startswith("D-")]
    if diagonals:
        lines.append("diagonal visitors (position:seat): " + ", ".join(diagonals))
    if view["removed_shape"]:
        lines.append(f"out of the game: all {view['removed_shape']} tiles")
    lines.append(
        "visitors left: " + ", ".join(f"seat {s}: {n}" for s, n in enumerate(view["visitors_left"]))
    )
    points = ", ".join(
        f"seat {s}: {p['visitors'] + p['bonus']}" for s, p in enumerate(view["points"])
    )
    lines.append(f"visitor points now: {points}")
    if view["hand"] is not None:
        lines.append("your hand: " + " ".join(view["hand"]))
    if view["hands"] is not None:
        for seat, hand in enumerate(view["hands"]):
            lines.append(f"seat {seat}'s hand: " + " ".join(hand))
    if view["passed"]:
        lines.append("you passed on: " + " ".join(view["passed"]))
    if view["current_position"]:
        lines.append(f"this turn's visitor: {view['current_position']}")
    return "\n".join(lines)


def event_text(event: Mapping[str, Any]) -> str:
    """A log line for one event as a seat sees it."""
    who = f"seat {event['seat']}"
    kind = event["kind"]
    if kind == "visit":
        return f"{who} places a visitor at {event['position']}"
    if kind == "take":
        tile = f" ({event['tile']})" if "tile" in event else ""
        return f"{who} takes the face-down tile at {event['cell']}{tile}"
    if kind == "skip":
        return f"{who} leaves the line as it is"
    if kind == "place":
        return f"{who} places {event['tile']} face up at {event['cell']}"
    if kind == "keep":
        to = "the box" if event["to"] is None else f"seat {event['to']}"
        line = f"{who} keeps 3 tiles and passes {event['passed']} to {to}"
        if "passed_tiles" in event:
            line += f" ({' '.join(event['passed_tiles'])})"
        if "received_tiles" in event:
            line += f"; you receive {' '.join(event['received_tiles'])}"
        return line
    if kind == "game_over":
        return game_over_text(event)
    return f"{who} {kind}"
