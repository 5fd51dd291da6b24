"""Topiary: actions and observation.

Actions, in this order: a visitor on each edge position (data/positions.json order; the 8
one-tile diagonals only with `one_tile_diagonals`), taking the face-down tile of each cell,
`skip` (only with `take=optional`), each tile placed into each cell (tile-major), and with
`draft` each set of three tiles to keep (ascending tile numbers, as the rules list them).
Tiles are numbered shape * 5 + value - 1 in data/tiles.json's shape order; cells row * 5 + col.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import KeepTiles, PlaceTile, PlaceVisitor, SkipTake, TakeTile
from meadow.games.topiary.options import TopiaryOptions

TILES = 5 * len(c.shapes())
PHASES = ("draft", "visitor", "take", "place", "over")
HAND_LIMIT = 16  # no hand ever holds more: 15 tiles lie outside a 4-player garden, plus a take
POINTS_SCALE = 100.0


class TopiaryEncoder(Encoder):
    game_id = "topiary"
    options: TopiaryOptions

    def actions(self) -> list[Action]:
        found: list[Action] = [
            PlaceVisitor(p.id)
            for p in c.positions()
            if self.options.one_tile_diagonals or not p.one_tile_diagonal
        ]
        found += [TakeTile(c.cell_id(cell)) for cell in range(c.CELLS)]
        if self.options.take == "optional":
            found.append(SkipTake())
        found += [
            PlaceTile(c.tile_id(t), c.cell_id(cell))
            for t in range(TILES)
            for cell in range(c.CELLS)
        ]
        if self.options.draft:
            found += [
                KeepTiles((c.tile_id(a), c.tile_id(b), c.tile_id(d)))
                for a, b, d in itertools.combinations(range(TILES), 3)
            ]
        return found

    def blocks(self) -> list[Block]:
        p, shapes, cells, positions = self.players, len(c.shapes()), c.CELLS, len(c.positions())
        return [
            Block("garden_shape", (cells, shapes), "face-up tile's shape per cell (row-major)"),
            Block("garden_value", (cells, 5), "face-up tile's value 1-5 per cell, one-hot"),
            Block("face_down", (cells,), "1 where a face-down tile lies"),
            Block("gap", (cells,), "1 at the gap left by this turn's take"),
            Block("visitors", (positions, p), "visitor on each position, by relative seat"),
            Block("current_position", (positions,), "the visitor placed this turn"),
            Block("hand", (TILES,), "tiles in the observer's hand"),
            Block("passed", (TILES,), "draft: tiles the observer passed on"),
            Block("removed_shape", (shapes,), "the motif set out of the game (2-3 players)"),
            Block("visitors_left", (p,), "visitors each seat still has, / visitors per seat"),
            Block("hand_sizes", (p,), f"tiles in each seat's hand, / {HAND_LIMIT}"),
            Block("points", (p, 2), "visitor and bonus points so far, / 100", high=3.0),
            Block("phase", (len(PHASES),), "draft, visitor, take, place, over"),
            Block("to_move", (p,), "the seat to move, relative (all 0 once over)"),
        ]

    def fill(self, view: Mapping[str, Any], me: int, parts: Parts) -> None:
        tiles, cells = c.tile_ids(), c.cell_ids()
        shape_of = c.shape_index()
        garden_shape, garden_value = parts["garden_shape"], parts["garden_value"]
        face_down = parts["face_down"]
        for row, line in enumerate(view["garden"]):
            for col, text in enumerate(line):
                cell = row * c.SIZE + col
                if text == "face_down":
                    face_down[cell] = 1
                elif text != "gap":
                    tile = tiles[text]
                    garden_shape[cell, tile // 5] = 1
                    garden_value[cell, tile % 5] = 1
        if view["gap"] is not None:
            parts["gap"][cells[view["gap"]]] = 1
        index = c.position_index()
        visitors = parts["visitors"]
        for position, seat in view["visitors"].items():
            visitors[index[position], self.relative(seat, me)] = 1
        if view["current_position"] is not None:
            parts["current_position"][index[view["current_position"]]] = 1
        for text in view["hand"] or ():
            parts["hand"][tiles[text]] = 1
        for text in view["passed"] or ():
            parts["passed"][tiles[text]] = 1
        if view["removed_shape"] is not None:
            parts["removed_shape"][shape_of[view["removed_shape"]]] = 1
        per_seat = c.VISITORS_PER_PLAYER[self.players]
        for seat in range(self.players):
            r = self.relative(seat, me)
            parts["visitors_left"][r] = view["visitors_left"][seat] / per_seat
            parts["hand_sizes"][r] = view["hand_sizes"][seat] / HAND_LIMIT
            points = view["points"][seat]
            parts["points"][r] = (points["visitors"] / POINTS_SCALE, points["bonus"] / POINTS_SCALE)
        parts["phase"][PHASES.index(view["phase"])] = 1
        if view["to_move"] is not None:
            parts["to_move"][self.relative(view["to_move"], me)] = 1


ENCODER = TopiaryEncoder
