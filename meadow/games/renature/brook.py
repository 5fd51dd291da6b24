"""Renature's brook as bit masks, for the legal list's sake.

Two kinds of masks, both Python ints: over the board's cells (bit `cell`) and over its
brook pairs (bit `2 * pair`: two orthogonally adjacent brook spaces, numbered in the order
of their cells, so that walking a mask's bits upwards gives the pairs sorted). The odd bit
after a pair's stands for it turned round (the domino's first animal on its second space):
a domino's placements are one mask, `forward | turned << 1`, whose bits index its row of
actions in the legal list's order. A `Layout` holds what a board fixes; a `Brook` what
dominoes and mushrooms change, kept up to date as they go down instead of worked out again
for each legal list.
"""

from __future__ import annotations

from collections.abc import Sequence

from meadow.core.actions import Action
from meadow.games.renature import components as c
from meadow.games.renature.board import Board


class Layout:
    """One board's brook pairs and the masks that find them, worked out once per board."""

    __slots__ = (
        "as_first",
        "as_second",
        "board",
        "cell_named",
        "east",
        "empty",
        "neighbours",
        "pair_cells",
        "pair_names",
        "placed",
        "placements",
        "start",
        "touching",
        "west",
        "width",
    )

    def __init__(self, board: Board) -> None:
        self.board = board
        brook = board.brook_cells()
        is_brook = set(brook)
        self.pair_cells: tuple[tuple[int, int], ...] = tuple(
            (x, y) for x in brook for y in sorted(board.neighbours[x]) if y > x and y in is_brook
        )
        names = board.names
        self.pair_names: tuple[tuple[str, str], ...] = tuple(
            (names[x], names[y]) for x, y in self.pair_cells
        )
        size = len(board.area_of)
        first, second = [0] * size, [0] * size
        for pair, (x, y) in enumerate(self.pair_cells):
            first[x] |= 1 << 2 * pair
            second[y] |= 1 << 2 * pair
        # A cell's pairs split by its half: a domino's first animal may fit one and not the other.
        self.as_first: tuple[int, ...] = tuple(first)
        self.as_second: tuple[int, ...] = tuple(second)
        self.touching: tuple[int, ...] = tuple(f | s for f, s in zip(first, second, strict=True))
        self.neighbours: tuple[int, ...] = tuple(
            _mask(board.neighbours[cell]) for cell in range(size)
        )
        self.start = _mask(board.start)
        self.width = board.width
        # The first and the last column: a shift by one must not wrap a row into the next.
        self.west = _mask(range(0, size, board.width))
        self.east = _mask(range(board.width - 1, size, board.width))
        self.empty: Brook | None = None  # the brook at set-up, copied for each new game
        # Per domino, made on its first use: its placement on each pair, then turned round.
        self.placements: list[tuple[Action, ...] | None] = [None] * len(c.dominoes())
        # id() of each placement above -> (domino, first cell, second cell), so that applying
        # one reads no names; they live as long as the layout, so their ids stay theirs.
        self.placed: dict[int, tuple[int, int, int]] = {}
        self.cell_named = {name: cell for cell, name in enumerate(names)}


_LAYOUTS: dict[int, Layout] = {}


def layout(board: Board) -> Layout:
    """The board's layout, made on first use (boards live as long as the process)."""
    found = _LAYOUTS.get(id(board))
    if found is None or found.board is not board:
        found = _LAYOUTS[id(board)] = Layout(board)
    return found


def _mask(cells: Sequence[int] | frozenset[int] | set[int]) -> int:
    found = 0
    for cell in cells:
        found |= 1 << cell
    return found


class Brook:
    """The free brook and the pairs a domino may cover now.

    `pairs`: the candidate pairs (both halves free brook, one of them on the frontier: a start
    space or beside an animal). `first` and `second` map the animals beside a space (a mask
    of animal bits) to the pairs whose first or second half that space is: which animals a half
    admits depends only on them and the joker, and the joker changes without a board change.
    """

    __slots__ = ("first", "free", "layout", "open_pairs", "pairs", "second")

    def __init__(
        self,
        layout: Layout,
        free: int,
        open_pairs: int,
        pairs: int,
        first: dict[int, int],
        second: dict[int, int],
    ) -> None:
        self.layout = layout
        self.free = free
        self.open_pairs = open_pairs  # both halves free brook, frontier or not
        self.pairs = pairs
        self.first = first
        self.second = second

    @classmethod
    def build(
        cls,
        layout: Layout,
        animal_at: Sequence[int],
        domino_at: Sequence[int],
        area_id: Sequence[str | None],
    ) -> Brook:
        """Work the brook out from the board as it lies."""
        board = layout.board
        free_cells = [x for x in board.brook_cells() if area_id[x] is None and domino_at[x] < 0]
        free = _mask(free_cells)
        taken = 0
        for x in range(len(area_id)):
            if not free >> x & 1:
                taken |= layout.touching[x]
        open_pairs = _mask(range(0, 2 * len(layout.pair_cells), 2)) & ~taken
        brook = cls(layout, free, open_pairs, 0, {}, {})
        for x in free_cells:
            beside = brook.beside(x, animal_at)
            brook._file(x, beside)
            if beside or layout.start >> x & 1:
                brook.pairs |= layout.touching[x] & open_pairs
        return brook

    @classmethod
    def at_setup(cls, layout: Layout) -> Brook:
        """The brook of a board nothing lies on yet."""
        if layout.empty is None:
            board = layout.board
            size = len(board.area_of)
            layout.empty = cls.build(layout, [-1] * size, [-1] * size, board.area_of)
        return layout.empty.copy()

    def live(self) -> int:
        """The free brook spaces a domino can still reach: those with free brook beside."""
        free, layout = self.free, self.layout
        beside_free = (
            (free << 1 & ~layout.west)
            | (free >> 1 & ~layout.east)
            | free << layout.width
            | free >> layout.width
        )
        return free & beside_free

    def copy(self) -> Brook:
        return Brook(
            self.layout, self.free, self.open_pairs, self.pairs, dict(self.first), dict(self.second)
        )

    def beside(self, cell: int, animal_at: Sequence[int]) -> int:
        """The animals on the spaces beside `cell`, as a mask."""
        found = 0
        for n in self.layout.board.neighbours[cell]:
            if animal_at[n] >= 0:
                found |= 1 << animal_at[n]
        return found

    def _file(self, cell: int, beside: int) -> None:
        layout = self.layout
        self.first[beside] = self.first.get(beside, 0) | layout.as_first[cell]
        self.second[beside] = self.second.get(beside, 0) | layout.as_second[cell]

    def cover(self, cells: tuple[int, ...], animal_at: Sequence[int]) -> None:
        """`cells` stop being free brook (a domino, whose animals already lie in `animal_at`,
        or a mushroom): only they and the spaces beside them change."""
        touching = self.layout.touching
        taken = 0
        for x in cells:
            self.free &= ~(1 << x)
            taken |= touching[x]
        self.open_pairs &= ~taken
        self.pairs &= ~taken
        if animal_at[cells[0]] < 0:
            return  # a mushroom: no animal came beside anything, no space joins the frontier
        neighbours = self.layout.board.neighbours
        free = self.free
        for x in cells:  # a domino's two spaces share no neighbour: each is seen once
            for n in neighbours[x]:
                if free >> n & 1:
                    self._animals_came(n, cells, animal_at)

    def _animals_came(self, cell: int, cells: tuple[int, ...], animal_at: Sequence[int]) -> None:
        """The free space `cell` has the animals just laid on `cells` beside it now: it is on
        the frontier, and its halves may admit fewer animals."""
        now = before = 0
        for n in self.layout.board.neighbours[cell]:
            animal = animal_at[n]
            if animal >= 0:
                now |= 1 << animal
                if n not in cells:
                    before |= 1 << animal
        layout = self.layout
        if now != before:
            as_first, as_second = layout.as_first[cell], layout.as_second[cell]
            self.first[before] &= ~as_first
            self.second[before] &= ~as_second
            self.first[now] = self.first.get(now, 0) | as_first
            self.second[now] = self.second.get(now, 0) | as_second
        self.pairs |= layout.touching[cell] & self.open_pairs

    def admitting(self, animals: set[int], joker: int) -> dict[int, tuple[int, int]]:
        """Per animal: the candidate pairs whose first half, and those whose second half, may
        show it. Every animal beside a half must match, the joker matching all: a half admits
        an animal other than the joker if the animals beside it are among the two of them."""
        pairs = self.pairs
        first, second = self.first.get, self.second.get
        j = 1 << joker
        first_any = pairs & (first(0, 0) | first(j, 0))
        second_any = pairs & (second(0, 0) | second(j, 0))
        found = {}
        for animal in animals:
            if animal == joker:
                found[animal] = (pairs, pairs)
                continue
            a = 1 << animal
            found[animal] = (
                first_any | pairs & (first(a, 0) | first(a | j, 0)),
                second_any | pairs & (second(a, 0) | second(a | j, 0)),
            )
        return found
