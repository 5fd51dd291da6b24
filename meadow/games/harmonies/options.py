"""Harmonies' rule options. One player plays the solo game (rulebook p.11)."""

from __future__ import annotations

from typing import Literal

from meadow.core.options import GameOptions


class HarmoniesOptions(GameOptions):
    side: Literal["A", "B"] = "A"
    """Personal board side: A (23 spaces, water scores the best river) or B (25 spaces,
    water scores 5 per island). Everyone plays the same side."""

    spirits: bool = False
    """Nature's Spirits variant (rulebook p.10): each player is dealt 2 spirit cards and, on
    their first turn, keeps 1 with a spirit cube on it."""
