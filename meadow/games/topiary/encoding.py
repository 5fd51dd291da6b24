"""Topiary: actions and observation.

Actions, in this order: a visitor on each edge position (data/positions.json order; the 8
one-tile diagonals only with `one_tile_diagonals`), taking the face-down tile of each cell,
`skip` (only with `take=optional`), each tile placed into each cell (tile-major), and with
`draft` each set of three tiles to keep (ascending tile numbers, as the rules list them).
Tiles are numbered shape * 5 + value - 1 in data/tiles.json's shape order; cells row * 5 + col.

The observation is written from a seat's view (`fill`) or, for an agent's step, from the
state (`fill_state`): the same numbers, the second without the view's JSON and with what
one look works out kept for the next (a turn's three decisions share a garden, and most of
the visitors).
"""

from __future__ import annotations

import itertools
from array import array
from collections.abc import Mapping
from operator import itemgetter, ne
from typing import Any, ClassVar

from meadow.core.actions import Action
from meadow.core.encoding import Block, Encoder, Parts
from meadow.core.game import State
from meadow.core.options import GameOptions
from meadow.games.topiary import components as c
from meadow.games.topiary.actions import KeepTiles, PlaceTile, PlaceVisitor, SkipTake, TakeTile
from meadow.games.topiary.options import TopiaryOptions
from meadow.games.topiary.rules import TopiaryState

SHAPES = len(c.shapes())
TILES = 5 * SHAPES
PHASES = ("draft", "visitor", "take", "place", "over")
HAND_LIMIT = 16  # no hand ever holds more: 15 tiles lie outside a 4-player garden, plus a take
POINTS_SCALE = 100.0

GARDENS_KEPT = 1024  # gardens whose figures an encoder keeps (some 2.5 KB each)
LINES_KEPT = 1 << 14  # lines whose points an encoder keeps
CHANGES_PATCHED = 3  # a garden that differs from the last one in this many cells is patched

# What a cell shows in `Garden.shown`: a tile 0..TILES-1, or this for a face-down tile or the
# gap (a garden serves the whole turn: the gap is written apart).
FACE_DOWN = TILES


def _one_hot(size: int, at: int | None) -> array[float]:
    """A row of float32 zeros with a 1 at `at` (none if `None`)."""
    return array("f", [float(i == at) for i in range(size)])


# Each cell's part of the garden blocks by what it shows: a garden's blocks are joined from
# these in C, not written number by number.
_SHAPE_ROW = [_one_hot(SHAPES, t // 5 if t < TILES else None) for t in range(FACE_DOWN + 1)]
_VALUE_ROW = [_one_hot(5, t % 5 if t < TILES else None) for t in range(FACE_DOWN + 1)]
_FACE_DOWN_ROW = [_one_hot(1, 0 if t == FACE_DOWN else None) for t in range(FACE_DOWN + 1)]
_CELLS = range(c.CELLS)
# the positions whose line passes each cell: the lines a new tile there changes
_SEEN_FROM = [[p.index for p in c.positions() if cell in p.cells] for cell in _CELLS]

Line = tuple[int, ...] | int  # a position's cells as `Garden.shown` has them (int: one cell)


def _line_points(line: Line) -> complex:
    """A line's visitor points + bonus points * 1j (a seat's lines then add up in one sum), as
    `scoring.score_line` has them, on `Garden.shown` codes: the nearest face-up tile is seen,
    a further one if higher than the last seen, and each shape seen twice or more adds one
    per tile seen. The rules' version takes (shape, value) pairs and costs a new line several
    times as much, and most decisions make one; the encoding's contract test holds the two
    to the same numbers."""
    highest = base = 0
    shapes: list[int] = []
    for t in (line,) if isinstance(line, int) else line:
        value = t % 5 + 1
        if t < TILES and value > highest:
            highest = value
            base += value
            shapes.append(t // 5)
    if len(set(shapes)) == len(shapes):  # most lines: no shape seen twice
        return complex(base, 0)
    return complex(base, len([shape for shape in shapes if shapes.count(shape) > 1]))


class Garden:
    """What every seat knows of one garden, with the figures its observations need."""

    __slots__ = ("blocks", "lines", "shown")

    def __init__(self, shown: list[int], blocks: array[float], lines: list[complex | None]) -> None:
        self.shown = shown
        self.blocks = blocks  # garden_shape, garden_value and face_down, end to end
        # each position's `_line_points`, worked out once a visitor stands there
        self.lines = lines

    @classmethod
    def of(cls, shown: list[int]) -> Garden:
        cells = itemgetter(*shown)
        blocks = array("f", b"".join(cells(_SHAPE_ROW) + cells(_VALUE_ROW) + cells(_FACE_DOWN_ROW)))
        return cls(shown, blocks, [None] * len(c.positions()))

    def after(self, shown: list[int], changed: list[int]) -> Garden:
        """The garden `shown`, which differs from this one in the `changed` cells only: a
        placement turns one tile face up, and leaves the lines that do not pass it as
        they were."""
        blocks, lines = self.blocks[:], self.lines[:]
        values, down = SHAPES * c.CELLS, (SHAPES + 5) * c.CELLS
        for cell in changed:
            t = shown[cell]
            blocks[cell * SHAPES : (cell + 1) * SHAPES] = _SHAPE_ROW[t]
            blocks[values + cell * 5 : values + cell * 5 + 5] = _VALUE_ROW[t]
            blocks[down + cell] = _FACE_DOWN_ROW[t][0]
            for position in _SEEN_FROM[cell]:
                lines[position] = None
        return Garden(shown, blocks, lines)


class TopiaryEncoder(Encoder):
    game_id = "topiary"
    options: TopiaryOptions
    points_blocks: ClassVar[dict[str, int | None]] = {"points": None}

    def __init__(self, players: int, options: GameOptions) -> None:
        super().__init__(players, options)
        # `fill_state` writes by flat index: where each block starts (the encoding lays the
        # blocks end to end, in `blocks()` order)
        start: dict[str, int] = {}
        at = 0
        for block in self.blocks():
            start[block.name] = at
            at += block.size
        # a garden's blocks are copied as one run: they must come first, end to end
        assert start["garden_shape"] == 0
        assert start["face_down"] == start["garden_value"] + 5 * c.CELLS
        self._face_down_at = start["face_down"]
        self._gap_at = start["gap"]
        self._visitor_row = [start["visitors"] + players * p for p in range(len(c.positions()))]
        self._current_position_at = start["current_position"]
        self._hand_at = start["hand"]
        self._passed_at = start["passed"]
        self._removed_shape_at = start["removed_shape"]
        self._visitors_left_at = start["visitors_left"]
        self._hand_sizes_at = start["hand_sizes"]
        self._points_at = start["points"]
        self._phase_at = {phase: start["phase"] + i for i, phase in enumerate(PHASES)}
        self._to_move_at = start["to_move"]
        self._visitors_per_seat = c.VISITORS_PER_PLAYER[players]
        self._line = [itemgetter(*position.cells) for position in c.positions()]
        # each observer's seats as the observation counts them, and the other way round
        self._seats_from = [[(me + r) % players for r in range(players)] for me in range(players)]
        self._relative = [[(s - me) % players for s in range(players)] for me in range(players)]
        # What one look works out, kept for the next: the next decision, or another seat's
        # look at the same one, most often finds the same garden and the same visitors.
        self._gardens: dict[tuple[int, ...], Garden] = {}
        self._line_points: dict[Line, complex] = {}
        # the last look's garden (a garden not in `_gardens` is most often the one a
        # placement made of it), visitors (occupants, the positions they fill) and points
        self._last_garden: Garden | None = None
        self._last_visitors: tuple[list[int], list[int]] | None = None
        self._last_points: tuple[Garden | None, list[int], list[complex]] = (None, [], [])

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
        # Written through a memoryview: its item writes cost less than numpy's, and round to
        # float32 as numpy does.
        out = memoryview(parts.array)
        garden = self._garden(state)
        out[: len(garden.blocks)] = garden.blocks
        gap = state.gap
        if gap >= 0:
            out[self._face_down_at + gap] = 0.0
            out[self._gap_at + gap] = 1.0
        occupant, row, relative = state.occupant, self._visitor_row, self._relative[me]
        visits = self._visits(occupant, state.position)
        for position in visits:
            out[row[position] + relative[occupant[position]]] = 1.0
        if state.position >= 0:
            out[self._current_position_at + state.position] = 1.0
        hand_at = self._hand_at
        for t in state.hands[me]:
            out[hand_at + t] = 1.0
        passed_at = self._passed_at
        for t in state.passed[me]:
            out[passed_at + t] = 1.0
        if state.removed_shape is not None:
            out[self._removed_shape_at + state.removed_shape] = 1.0
        out[self._phase_at[state.phase]] = 1.0
        if state.seat is not None:  # to_move, without the property's call
            out[self._to_move_at + relative[state.seat]] = 1.0
        totals = self._points(state, garden, visits)
        left, hands, per_seat = state.visitors_left, state.hands, self._visitors_per_seat
        left_at, sizes_at, points_at = self._visitors_left_at, self._hand_sizes_at, self._points_at
        for r, seat in enumerate(self._seats_from[me]):
            out[left_at + r] = left[seat] / per_seat
            out[sizes_at + r] = len(hands[seat]) / HAND_LIMIT
            total = totals[seat]
            out[points_at + 2 * r] = total.real / POINTS_SCALE
            out[points_at + 2 * r + 1] = total.imag / POINTS_SCALE

    def _garden(self, state: TopiaryState) -> Garden:
        grid, face_up = state.grid, state.face_up
        # Known by its face-up cells and their tiles: no face-down tile is read.
        key = (*face_up, *itertools.compress(grid, face_up))
        garden = self._gardens.get(key)
        if garden is None:
            shown = [FACE_DOWN] * c.CELLS
            for cell in itertools.compress(_CELLS, face_up):
                shown[cell] = grid[cell]
            last = self._last_garden
            changed = (
                [] if last is None else [*itertools.compress(_CELLS, map(ne, shown, last.shown))]
            )
            if last is None or len(changed) > CHANGES_PATCHED:
                garden = Garden.of(shown)
            else:
                garden = last.after(shown, changed)
            if len(self._gardens) >= GARDENS_KEPT:
                self._gardens.clear()
            self._gardens[key] = garden
        self._last_garden = garden
        return garden

    def _visits(self, occupant: list[int], position: int) -> list[int]:
        """The positions with a visitor: the last look's, if it saw the same visitors or all
        but the one placed this turn (at `position`)."""
        last = self._last_visitors
        if last is not None:
            before, visits = last
            if before == occupant:
                return visits
            if position >= 0 and before[position] < 0:
                before = before[:]
                before[position] = occupant[position]
                if before == occupant:
                    visits = [*visits, position]
                    self._last_visitors = (before, visits)
                    return visits
        visits = [position for position, seat in enumerate(occupant) if seat >= 0]
        self._last_visitors = (occupant[:], visits)
        return visits

    def _points(self, state: TopiaryState, garden: Garden, visits: list[int]) -> list[complex]:
        """Each seat's visitor points + bonus points * 1j: the view's `visitor_points`, from
        the state's own cache where a view or an evaluation has filled it (only they may),
        else from the visitors' lines in `garden`."""
        known = state._points
        if known is not None:
            return [complex(p["visitors"], p["bonus"]) for p in known]
        last = self._last_points
        if last[0] is garden and last[1] is visits:
            return last[2]
        totals = [0j] * self.players
        occupant, line, shown, lines = state.occupant, self._line, garden.shown, garden.lines
        for position in visits:
            points = lines[position]
            if points is None:
                points = lines[position] = self._score(line[position](shown))
            totals[occupant[position]] += points
        self._last_points = (garden, visits, totals)
        return totals

    def _score(self, line: Line) -> complex:
        """`_line_points`, kept: the same lines come back in garden after garden."""
        points = self._line_points.get(line)
        if points is None:
            if len(self._line_points) >= LINES_KEPT:
                self._line_points.clear()
            points = self._line_points[line] = _line_points(line)
        return points


ENCODER = TopiaryEncoder
