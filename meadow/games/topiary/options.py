"""Topiary's rule options. The seed (German short rules, KSR) gives the defaults."""

from __future__ import annotations

from typing import Literal

from meadow.core.options import GameOptions

ShapeChoice = Literal[
    "random", "t_rex", "swan", "whale", "elephant", "spiral", "pyramid", "icosahedron", "cone"
]


class TopiaryOptions(GameOptions):
    take: Literal["mandatory", "optional"] = "mandatory"
    """Taking a face-down tile from the new visitor's line: 'mandatory' as in the German short
    rules (seed 002), or 'optional' as in the English edition and most other sources."""

    one_tile_diagonals: bool = True
    """Allow the 8 diagonal positions that look through a single corner tile (unconfirmed in
    the sources; allowed by the '3 positions per border tile' reading)."""

    removed_shape: ShapeChoice = "random"
    """2-3 players: the motif set (5 tiles) taken out before the garden is laid; 'random' picks
    one. With 4 players all 8 sets are used."""

    draft: bool = False
    """Draft variant (seed 002): the last player takes the leftover tiles, keeps 3 and passes
    the rest to the right, and so on; what seat 0 passes goes back to the box."""
