"""Harmonies drawn as text for the terminal, from a seat's view (never from the state)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.text import game_over_text
from meadow.games.harmonies import components as c

SHORT = {"blue": "Bl", "gray": "Gy", "brown": "Br", "green": "Gn", "yellow": "Ye", "red": "Rd"}
WIDTH = 11


def stack_text(stack: list[str], cube: str | None) -> str:
    body = "".join(SHORT[t] for t in stack) or ".."
    return body + ("*" if cube else "")


def board_lines(board: Mapping[str, Any]) -> list[str]:
    """The hex board: odd columns sit half a row lower, as on the cardboard."""
    cells = [c.parse_cell_name(name) for name in board["stacks"]]
    rows = max(row for _, row in cells if True) + 1  # type: ignore[misc]
    cols = max(col for col, _ in cells) + 1  # type: ignore[misc]
    lines = []
    for line in range(2 * rows):
        parts = []
        for col in range(cols):
            row, offset = divmod(line - (col & 1), 2)
            name = c.cell_name((col, row))
            if offset == 0 and name in board["stacks"]:
                text = f"{name}:{stack_text(board['stacks'][name], board['cubes'].get(name))}"
                parts.append(text.ljust(WIDTH))
            else:
                parts.append(" " * WIDTH)
        lines.append("".join(parts).rstrip())
    return [line for line in lines if line]


def card_text(slug: str, placed: int | None = None) -> str:
    card = c.cards()[c.card_by_slug()[slug]]
    habitat = " ".join(f"{p.landscape}{'*' if p.cube else ''}" for p in card.pattern)
    track = card.scoring.get("text", "") if card.spirit else "/".join(str(p) for p in card.points)
    done = "" if placed is None else f" [{placed}/{card.cubes} cubes]"
    return f"{slug} ({habitat}; {track}){done}"


def render(view: Mapping[str, Any]) -> str:
    lines = []
    central = "  ".join(
        f"{i}: {' '.join(space) or '-'}" for i, space in enumerate(view["central"], 1)
    )
    lines.append(f"central board  {central}")
    lines.append("display: " + "; ".join(card_text(s) for s in view["display"]))
    pouch = ", ".join(f"{k} {v}" for k, v in view["pouch"].items())
    lines.append(f"pouch: {pouch}; draw pile {view['deck_size']} cards")
    for owner, board in enumerate(view["boards"]):
        you = " (you)" if owner == view["seat"] else ""
        total = sum(view["points"][owner].values())
        lines.append("")
        lines.append(f"seat {owner}{you}: {total} points now, {board['empty_spaces']} empty")
        lines.extend("  " + line for line in board_lines(board))
        for entry in board["cards"]:
            lines.append("  holds " + card_text(entry["card"], entry["placed"]))
        if board["completed"]:
            lines.append("  completed: " + ", ".join(e["card"] for e in board["completed"]))
        if board.get("spirit_offer") and not board["spirit"]:
            lines.append(
                "  your spirit cards: " + "; ".join(card_text(s) for s in board["spirit_offer"])
            )
    if view["hand"]:
        lines.append(f"tokens to place: {' '.join(view['hand'])}")
    if view["end_triggered"]:
        lines.append("the end of the game is triggered: this round is the last")
    return "\n".join(lines)


def event_text(event: Mapping[str, Any]) -> str:
    who = f"seat {event['seat']}"
    kind = event["kind"]
    if kind == "take_tokens":
        return f"{who} takes {' '.join(event['tokens'])} from space {event['space']}"
    if kind == "place_token":
        return f"{who} places {event['colour']} on {event['cell']}"
    if kind == "take_card":
        return f"{who} takes the {event['card']} card"
    if kind == "place_cube":
        done = " and completes it" if event.get("completed") else ""
        return f"{who} places a {event['card']} cube on {event['cell']}{done}"
    if kind == "choose_spirit":
        back = f" (returns {event['returned']})" if "returned" in event else ""
        return f"{who} keeps the {event['spirit']} spirit{back}"
    if kind == "swap_card":
        return f"{who} swaps {event['card']} out of the display"
    if kind == "refill":
        return f"space {event['space']} is refilled: {' '.join(event['tokens']) or 'pouch empty'}"
    if kind == "reveal_card":
        return f"{event['card']} joins the display"
    if kind == "game_over":
        return game_over_text(event)
    return f"{who} {kind}"
