"""Renature's rule options."""

from __future__ import annotations

from typing import Literal

from meadow.core.options import GameOptions


class RenatureOptions(GameOptions):
    board: Literal["base", "valley", "valley_variant"] = "base"
    """'base': the base game; 'valley': the Valley expansion (meadows, ponds, stumps,
    mushrooms, areas scored only at the end); 'valley_variant': the Valley board's back side,
    clouds on area spaces taken by planting there."""
