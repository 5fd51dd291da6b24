"""Topiary: actions and observation.

Actions, in this order: a visitor on each edge position (data/positions.json order; the 8
one-tile diagonals only with `one_tile_diagonals`), taking the face-down tile of each cell,
`skip` (only with `take=optional`), each tile placed into each cell (tile-major), and with
`draft` each set of three tiles to keep (ascending tile numbers, as the rules list them).
Tiles are numbered shape * 5 + value - 1 in data/tiles.json's shape order; cells row * 5 + col.
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.core.game import State
from meadow.core.options import GameOptions
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import KeepTiles, PlaceTile, PlaceVisitor, SkipTake, TakeTile
from meadow.games.topiary.options import TopiaryOptions
from meadow.games.topiary.rules import TopiaryState
from meadow.games.topiary.scoring import score_line

SHAPES = len(c.shapes())
TILES = 5 * SHAPES
PHASES = ("draft", "visitor", "take", "place", "over")
HAND_LIMIT = 16  # no hand ever holds more: 15 tiles lie outside a 4-player garden, plus a take
POINTS_SCALE = 100.0

# What a cell shows in `Garden.shown`: a tile 0..TILES-1, or a face-down tile (or the gap,
# which the garden of a position does not tell apart: its cell is put right afterwards).
FACE_DOWN = TILES


def _one_hot(size: int, at: int | None) -> bytes:
    """A row of float32 zeros with a 1 at `at` (none if `None`), as raw bytes."""
    return array("f", [float(i == at) for i in range(size)]).tobytes()


# Each cell's part of the three garden blocks by what it shows, as float32 bytes: a garden's
# blocks are joined from these in C, not written number by number.
_SHAPE_ROW = [_one_hot(SHAPES, t // 5 if t < TILES else None) for t in range(FACE_DOWN + 1)]
_VALUE_ROW = [_one_hot(5, t % 5 if t < TILES else None) for t in range(FACE_DOWN + 1)]
_FACE_DOWN_ROW = [_one_hot(1, 0 if t == FACE_DOWN else None) for t in range(FACE_DOWN + 1)]
_CELLS = range(c.CELLS)

Line = tuple[int, ...] | int  # a line's cells as `Garden.shown` has them; a bare int: one cell
_LINE_POINTS: dict[Line, complex] = {}
_GARDENS: dict[bytes, Garden] = {}
_KEPT = 1 << 14  # lines, and 1/16 as many gardens (some 2 KB each), kept before starting over


class Garden:
    """What every seat sees of one garden, worked out once for all the positions that show
    it: a turn's three decisions and every seat's observation of them share one garden."""

    __slots__ = ("blocks", "lines", "shown")

    def __init__(self, shown: list[int]) -> None:
        cells = itemgetter(*shown)
        self.shown = shown
        # garden_shape, garden_value and face_down as they lie in the observation
        self.blocks = b"".join(cells(_SHAPE_ROW) + cells(_VALUE_ROW) + cells(_FACE_DOWN_ROW))
        # each position's line points (see `_line_points`), once a visitor stands there
        self.lines: list[complex | None] = [None] * len(c.positions())


def _garden(state: TopiaryState) -> Garden:
    grid, face_up = state.grid, state.face_up
    # Known by the face-up cells and their tiles alone: no face-down tile is read.
    key = bytes(face_up) + bytes(itertools.compress(grid, face_up))
    garden = _GARDENS.get(key)
    if garden is None:
        shown = [FACE_DOWN] * c.CELLS
        for cell in itertools.compress(_CELLS, face_up):
            shown[cell] = grid[cell]
        if len(_GARDENS) >= _KEPT // 16:
            _GARDENS.clear()
        garden = _GARDENS[key] = Garden(shown)
    return garden


def _line_points(line: Line) -> complex:
    """A line's visitor points + bonus points * 1j, so that a seat's lines add up in one
    sum. The same lines come back in garden after garden: each is scored once, by the
    rules' own `score_line`."""
    points = _LINE_POINTS.get(line)
    if points is None:
        shown = (line,) if isinstance(line, int) else line
        score = score_line([(t // 5, t % 5 + 1) if t < TILES else None for t in shown])
        if len(_LINE_POINTS) >= _KEPT:
            _LINE_POINTS.clear()
        points = _LINE_POINTS[line] = complex(score.base, score.bonus)
    return points


class TopiaryEncoder(Encoder):
    game_id = "topiary"
    options: TopiaryOptions

    def __init__(self, players: int, options: GameOptions) -> None:
        super().__init__(players, options)
        # `fill_state` writes into the flat array, so it needs where each block starts (the
        # encoding lays the blocks end to end, in `blocks()` order).
        start, at = {}, 0
        for block in self.blocks():
            start[block.name] = at
            at += block.size
        # The three garden blocks come first and end to end, copied as one run of bytes;
        # visitors_left, hand_sizes and points are the only fractions, also end to end.
        assert start["garden_shape"] == 0
        assert start["face_down"] == start["garden_value"] + 5 * c.CELLS
        assert start["points"] == start["visitors_left"] + 2 * players
        self._face_down = start["face_down"]
        self._gap = start["gap"]
        self._visitor_row = [start["visitors"] + players * p for p in range(len(c.positions()))]
        self._current_position = start["current_position"]
        self._hand = start["hand"]
        self._passed = start["passed"]
        self._removed_shape = start["removed_shape"]
        self._counts = slice(start["visitors_left"], start["phase"])
        self._phase = {phase: start["phase"] + i for i, phase in enumerate(PHASES)}
        self._to_move = start["to_move"]
        self._visitors_per_seat = c.VISITORS_PER_PLAYER[players]
        self._line = [itemgetter(*position.cells) for position in c.positions()]
        # each observer's seats as the observation counts them, and the other way round
        self._seats_from = [[(me + r) % players for r in range(players)] for me in range(players)]
        self._relative = [[(s - me) % players for s in range(players)] for me in range(players)]

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

    def fill_state(self, state: State, me: int, parts: Parts) -> None:
        assert isinstance(state, TopiaryState)
        garden = _garden(state)
        raw = memoryview(parts.array).cast("B")
        raw[: len(garden.blocks)] = garden.blocks
        out = raw.cast("f")
        gap = state.gap
        if gap >= 0:
            out[self._face_down + gap] = 0.0
            out[self._gap + gap] = 1.0
        occupant, row, relative = state.occupant, self._visitor_row, self._relative[me]
        visits = [position for position, seat in enumerate(occupant) if seat >= 0]
        for position in visits:
            out[row[position] + relative[occupant[position]]] = 1.0
        if state.position >= 0:
            out[self._current_position + state.position] = 1.0
        hand = self._hand
        for t in state.hands[me]:
            out[hand + t] = 1.0
        passed = self._passed
        for t in state.passed[me]:
            out[passed + t] = 1.0
        if state.removed_shape is not None:
            out[self._removed_shape + state.removed_shape] = 1.0
        out[self._phase[state.phase]] = 1.0
        if state.to_move is not None:
            out[self._to_move + relative[state.to_move]] = 1.0
        totals = self._points(state, garden, visits)
        left, hands, per_seat = state.visitors_left, state.hands, self._visitors_per_seat
        visitors_left, hand_sizes, points = [], [], []
        for s in self._seats_from[me]:
            visitors_left.append(left[s] / per_seat)
            hand_sizes.append(len(hands[s]) / HAND_LIMIT)
            points += (totals[s].real / POINTS_SCALE, totals[s].imag / POINTS_SCALE)
        parts.array[self._counts] = visitors_left + hand_sizes + points

    def _points(self, state: TopiaryState, garden: Garden, visits: list[int]) -> list[complex]:
        """Each seat's visitor points + bonus points * 1j: the view's `visitor_points`, from
        the state's own cache where a view or an evaluation has filled it (only they may),
        else from the visitors' lines in `garden`."""
        known = state._points
        if known is not None:
            return [complex(p["visitors"], p["bonus"]) for p in known]
        totals = [0j] * self.players
        occupant, line, shown, lines = state.occupant, self._line, garden.shown, garden.lines
        for position in visits:
            points = lines[position]
            if points is None:
                points = lines[position] = _line_points(line[position](shown))
            totals[occupant[position]] += points
        return totals


ENCODER = TopiaryEncoder
