"""Renature's boards as data: the grid of brook (or meadow) and area spaces, the start
spaces, clouds and (Valley) tree stumps. The printed maps are not public, so the shipped
boards are stand-ins; any board file in this format can replace them
(`meadow renature check-board FILE` validates one; the format is in docs/renature-boards.md).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from meadow.core.data import DataFileError, excerpt, parse_json
from meadow.core.errors import MeadowError

BROOK = "."
KINDS = ("base", "valley", "test")
Cell = int  # row * width + col


class BoardError(MeadowError):
    """A board file that breaks the format or a rule of play."""


def cell_name(row: int, col: int) -> str:
    """`(3, 2)` -> `c4`: column letter, row number from 1 at the top."""
    return f"{chr(ord('a') + col)}{row + 1}"


@dataclass(frozen=True)
class Board:
    """One side of a Renature board, loaded and checked."""

    name: str
    kind: str  # base | valley | test
    standin: bool
    width: int
    height: int
    area_of: tuple[str | None, ...]  # per cell: its area id, None for brook/meadow
    start: frozenset[Cell]
    clouds: dict[Cell, int]  # cloud tokens lying on a cell at set-up
    stumps: frozenset[Cell]
    neighbours: tuple[tuple[Cell, ...], ...]
    source: str

    @property
    def cells(self) -> range:
        return range(self.width * self.height)

    def is_brook(self, cell: Cell) -> bool:
        return self.area_of[cell] is None

    @cached_property
    def names(self) -> tuple[str, ...]:
        """Every cell's name, by cell."""
        return tuple(cell_name(*divmod(cell, self.width)) for cell in self.cells)

    def name_of(self, cell: Cell) -> str:
        return self.names[cell]

    @cached_property
    def _cell_named(self) -> dict[str, Cell]:
        return {name: cell for cell, name in enumerate(self.names)}

    def cell_at(self, name: str) -> Cell | None:
        """The cell a name like `c4` or ` C4 ` stands for; None if it is off the board."""
        if name in self._cell_named:  # the common case: a name the engine wrote itself
            return self._cell_named[name]
        name = name.strip().lower()
        if len(name) < 2 or not name[0].isalpha() or not name[1:].isdigit():
            return None
        col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
        if 0 <= col < self.width and 0 <= row < self.height:
            return row * self.width + col
        return None

    def areas(self) -> dict[str, list[Cell]]:
        found: dict[str, list[Cell]] = {}
        for cell, area in enumerate(self.area_of):
            if area is not None:
                found.setdefault(area, []).append(cell)
        return dict(sorted(found.items()))

    def brook_cells(self) -> list[Cell]:
        return [cell for cell in self.cells if self.is_brook(cell)]

    def area_brook(self) -> dict[str, list[Cell]]:
        """The brook spaces orthogonally beside each area (the ones that close it)."""
        beside: dict[str, set[Cell]] = {}
        for area, cells in self.areas().items():
            beside[area] = {n for cell in cells for n in self.neighbours[cell] if self.is_brook(n)}
        return {area: sorted(cells) for area, cells in beside.items()}


def load(path: Path | str) -> Board:
    """Read and check a board file.

    Raises:
        BoardError: the file is unreadable or breaks the format (see `structure_problems`).
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BoardError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = parse_json(str(path), raw)
    except DataFileError as exc:
        raise BoardError(str(exc)) from None
    return from_data(data, str(path))


def from_data(data: Any, where: str = "board") -> Board:
    if not isinstance(data, dict):
        raise BoardError(f"{where}: a board file holds one JSON object")
    rows = data.get("map")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise BoardError(f"{where}: 'map' must be a list of text rows")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        bad = next(i for i, r in enumerate(rows) if len(r) != width)
        raise BoardError(
            f"{where}: map row {bad + 1} has {len(rows[bad])} spaces, row 1 has {width}"
        )
    kind = data.get("kind")
    if kind not in KINDS:
        raise BoardError(f"{where}: 'kind' must be one of {', '.join(KINDS)}, not {excerpt(kind)}")
    area_of: list[str | None] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == BROOK:
                area_of.append(None)
            elif ch.isalpha():
                area_of.append(ch)
            else:
                raise BoardError(
                    f"{where}: {cell_name(r, c)} holds {ch!r}; use '.' for brook/meadow and a "
                    "letter for the area a space belongs to"
                )
    height = len(rows)
    neighbours = tuple(
        tuple(
            (r + dr) * width + (c + dc)
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))
            if 0 <= r + dr < height and 0 <= c + dc < width
        )
        for r in range(height)
        for c in range(width)
    )
    skeleton = Board(
        name=str(data.get("name", where)),
        kind=kind,
        standin=bool(data.get("standin", False)),
        width=width,
        height=height,
        area_of=tuple(area_of),
        start=frozenset(),
        clouds={},
        stumps=frozenset(),
        neighbours=neighbours,
        source=str(data.get("source", "")),
    )
    start = frozenset(_cells(skeleton, data.get("start", []), where, "start"))
    stumps = frozenset(_cells(skeleton, data.get("stumps", []), where, "stumps"))
    clouds_raw = data.get("clouds", {})
    if not isinstance(clouds_raw, dict):
        raise BoardError(f"{where}: 'clouds' maps space names to token counts")
    clouds = {}
    for name, count in clouds_raw.items():
        (cell,) = _cells(skeleton, [name], where, "clouds")
        if not isinstance(count, int) or count < 1:
            raise BoardError(f"{where}: clouds at {name} must be a positive whole number")
        clouds[cell] = count
    board = Board(
        skeleton.name,
        kind,
        skeleton.standin,
        width,
        height,
        skeleton.area_of,
        start,
        clouds,
        stumps,
        neighbours,
        skeleton.source,
    )
    problems = structure_problems(board)
    if problems:
        raise BoardError(f"{where}: " + "; ".join(problems))
    return board


def _cells(board: Board, names: Any, where: str, key: str) -> list[Cell]:
    if not isinstance(names, list):
        raise BoardError(f"{where}: '{key}' must be a list of space names like 'c4'")
    cells = []
    for name in names:
        cell = board.cell_at(name) if isinstance(name, str) else None
        if cell is None:
            raise BoardError(
                f"{where}: '{key}' names {excerpt(name)}, which is not a space of the map"
            )
        cells.append(cell)
    return cells


def structure_problems(board: Board) -> list[str]:
    """What makes a board unplayable: every board must pass these."""
    problems = []
    name = board.name_of
    for cell in board.start:
        if not board.is_brook(cell):
            problems.append(f"start space {name(cell)} is not a brook/meadow space")
    for cell in board.stumps:
        if not board.is_brook(cell) or cell in board.start:
            problems.append(f"stump {name(cell)} must be a meadow space that is not a pond")
        if any(n in board.stumps for n in board.neighbours[cell]):
            problems.append(f"stump {name(cell)} touches another stump (one domino, one stump)")
    on_brook = {cell for cell in board.clouds if board.is_brook(cell)}
    if board.kind == "valley" and any(c in board.start or c in board.stumps for c in on_brook):
        problems.append("a cloud lies on a pond or a stump")
    if not board.start:
        problems.append("there is no start space")
    for area, cells in board.areas().items():
        if not _connected(board, set(cells)):
            problems.append(f"area {area} is not one connected group of spaces")
    playable = _playable_brook(board)
    for cell in board.brook_cells():
        if cell not in playable:
            problems.append(
                f"brook space {name(cell)} has no brook neighbour: no domino can cover it"
            )
    reachable = _reachable(board)
    unreached = [c for c in board.brook_cells() if c not in reachable]
    if unreached:
        shown = ", ".join(name(c) for c in unreached[:8])
        problems.append(
            f"{len(unreached)} brook spaces cannot be reached from a start space ({shown})"
        )
    for area, beside in board.area_brook().items():
        if not any(c in playable for c in beside):
            problems.append(f"area {area} has no brook space beside it: it can never be planted")
    return problems


def count_problems(board: Board, tokens: list[dict[str, int]] | None = None) -> list[str]:
    """What a full-size board of its kind must have (the published facts, data/README)."""
    problems = []
    if board.kind == "test":
        return problems
    if (board.width, board.height) != (15, 15):
        problems.append(f"the grid is {board.width} x {board.height}, not 15 x 15")
    if len(board.start) != 4:
        problems.append(f"{len(board.start)} start spaces, not 4")
    areas = board.areas()
    if board.kind == "base":
        if len(areas) != 18:
            problems.append(f"{len(areas)} areas, not 18")
        cloud_areas = [board.area_of[c] for c in board.clouds]
        if len(board.clouds) != 4 or None in cloud_areas or len(set(cloud_areas)) != 4:
            problems.append("clouds must lie on 4 area spaces in 4 different areas")
        if not 4 <= sum(board.clouds.values()) <= 6:
            problems.append(f"{sum(board.clouds.values())} cloud tokens on the board, not 4-6")
        if tokens is not None:
            problems += _token_problems(areas, tokens)
    else:
        kinds = {board.is_brook(cell) for cell in board.clouds}
        if len(kinds) > 1:
            problems.append("Valley clouds lie all on meadow (front) or all on areas (variant)")
        if len(board.stumps) != 8:
            problems.append(f"{len(board.stumps)} tree stumps, not 8")
        if any(n != 1 for n in board.clouds.values()) or len(board.clouds) > 8:
            problems.append("Valley clouds: one token on each cloud space, at most 8 spaces")
    pairs = max_dominoes(board)
    if pairs < 54:
        problems.append(f"the brook holds at most {pairs} dominoes; up to 54 can be dealt")
    return problems


def _token_problems(areas: dict[str, list[Cell]], tokens: list[dict[str, int]]) -> list[str]:
    sizes = sorted(len(cells) for cells in areas.values())
    mains = sorted(t["main"] for t in tokens)
    spare = list(mains)
    for size in sizes:
        if size not in spare:
            return [f"no area token left with main points {size} for an area of that size"]
        spare.remove(size)
    return []


def _connected(board: Board, cells: set[Cell]) -> bool:
    start = next(iter(cells))
    seen, stack = {start}, [start]
    while stack:
        for n in board.neighbours[stack.pop()]:
            if n in cells and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == cells


def _playable_brook(board: Board) -> set[Cell]:
    return {c for c in board.brook_cells() if any(board.is_brook(n) for n in board.neighbours[c])}


def _reachable(board: Board) -> set[Cell]:
    seen = set(board.start)
    queue = deque(board.start)
    while queue:
        for n in board.neighbours[queue.popleft()]:
            if board.is_brook(n) and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def max_dominoes(board: Board) -> int:
    """The most dominoes the brook can hold at once: a maximum matching of brook spaces."""
    brook = set(board.brook_cells())
    even = [c for c in brook if sum(divmod(c, board.width)) % 2 == 0]
    match: dict[Cell, Cell] = {}

    def augment(cell: Cell, seen: set[Cell]) -> bool:
        for n in board.neighbours[cell]:
            if n in brook and n not in seen:
                seen.add(n)
                if n not in match or augment(match[n], seen):
                    match[n] = cell
                    return True
        return False

    return sum(1 for cell in even if augment(cell, set()))


def render(board: Board, marks: dict[Cell, str] | None = None) -> str:
    """The map as text: area letters, '.' brook, '^' start, '#' stump, a digit for clouds on
    brook/meadow, '*' for clouds on an area space."""
    marks = marks or {}
    header = "    " + " ".join(chr(ord("a") + c) for c in range(board.width))
    lines = [header]
    for r in range(board.height):
        row = []
        for c in range(board.width):
            cell = r * board.width + c
            if cell in marks:
                row.append(marks[cell])
            elif cell in board.start:
                row.append("^")
            elif cell in board.stumps:
                row.append("#")
            elif cell in board.clouds:
                row.append(str(board.clouds[cell]) if board.is_brook(cell) else "*")
            else:
                row.append(board.area_of[cell] or ".")
        lines.append(f"{r + 1:>3} " + " ".join(row))
    return "\n".join(lines)
