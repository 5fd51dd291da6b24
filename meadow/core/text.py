"""Text shared by every game's terminal log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def game_over_text(event: Mapping[str, Any], who: str = "seat") -> str:
    """`the game is over: seat 0: 41, seat 1: 37` from a `game_over` event."""
    scores = ", ".join(f"{who} {s}: {p}" for s, p in enumerate(event["result"]["scores"]))
    return f"the game is over: {scores}"
