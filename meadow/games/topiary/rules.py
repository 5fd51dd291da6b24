"""Topiary's rules: set-up, legal decisions and their effects.

Rule sources: seed 002 (German short rules, the default) and data/rules.json (what other
editions say, and the disputed points offered as options).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Self

from meadow.core.actions import JSON, Action, Event
from meadow.core.game import State
from meadow.core.result import Result, rank
from meadow.core.rng import Rng
from meadow.games.topiary import components as c
from meadow.games.topiary import notation
from meadow.games.topiary import view as views
from meadow.games.topiary.actions import KeepTiles, PlaceTile, PlaceVisitor, SkipTake, TakeTile
from meadow.games.topiary.options import TopiaryOptions
from meadow.games.topiary.scoring import LineScore, hand_points, score_line

GAP = -1
FREE = -1

DRAFT, VISITOR, TAKE, PLACE, OVER = "draft", "visitor", "take", "place", "over"

_POSITIONS = c.positions()
_POSITION_INDEX = c.position_index()
_CELL_INDEX = c.cell_ids()
_TILE_INDEX = c.tile_ids()
_TILE_COUNT = 5 * len(c.shapes())
_SCULPTURE = tuple((c.shape_of(t), c.value_of(t)) for t in range(_TILE_COUNT))

# One action object per possible decision, so legal lists allocate nothing new.
_VISIT = tuple(PlaceVisitor(p.id) for p in _POSITIONS)
_TAKE = tuple(TakeTile(c.cell_id(cell)) for cell in range(c.CELLS))
_PLACE = tuple(
    tuple(PlaceTile(c.tile_id(t), c.cell_id(cell)) for cell in range(c.CELLS))
    for t in range(_TILE_COUNT)
)
_SKIP = SkipTake()


@lru_cache(maxsize=4096)
def _scored(line: tuple[tuple[int, int] | None, ...]) -> LineScore:
    # Every view and every bot's look-ahead scores all the visitors' lines, and move after
    # move most of them are the same lines: each is scored once (LineScore is frozen).
    return score_line(line)


class TopiaryState(State):
    """The garden, the visitors, the hands and whose decision it is."""

    __slots__ = (
        "_legal",
        "_points",
        "box",
        "face_up",
        "gap",
        "grid",
        "hands",
        "occupant",
        "options",
        "passed",
        "phase",
        "players",
        "ply",
        "position",
        "removed_shape",
        "rng",
        "seat",
        "visitors_left",
    )

    options: TopiaryOptions

    def __init__(
        self,
        *,
        players: int,
        options: TopiaryOptions,
        rng: Rng,
        ply: int,
        removed_shape: int | None,
        grid: list[int],
        face_up: list[bool],
        hands: list[list[int]],
        box: list[int],
        occupant: list[int],
        visitors_left: list[int],
        seat: int | None,
        phase: str,
        position: int,
        gap: int,
        passed: list[list[int]],
    ) -> None:
        self.players = players
        self.options = options
        self.rng = rng
        self.ply = ply
        self._points: list[dict[str, int]] | None = None  # visitor_points, until a move
        self.removed_shape = removed_shape
        self.grid = grid  # tile per cell, GAP while a tile is in hand mid-turn
        self.face_up = face_up
        self.hands = hands
        self.box = box  # tiles out of play, unseen (the draft's last surplus, or leftovers)
        self.occupant = occupant  # seat per position, FREE if none
        self.visitors_left = visitors_left
        self.seat = seat
        self.phase = phase
        self.position = position  # this turn's visitor, -1 between turns
        self.gap = gap  # the cell emptied by this turn's take, -1 otherwise
        self.passed = passed  # draft: tiles each seat passed on (it remembers them)
        self._legal: list[Action] | None = None

    # -- contract ---------------------------------------------------------------------

    def _generate_legal(self) -> list[Action]:
        if self.phase == VISITOR:
            allow_short = self.options.one_tile_diagonals
            return [
                _VISIT[p.index]
                for p in _POSITIONS
                if self.occupant[p.index] == FREE and (allow_short or not p.one_tile_diagonal)
            ]
        if self.phase == TAKE:
            cells = _POSITIONS[self.position].cells
            takes: list[Action] = [_TAKE[cell] for cell in cells if not self.face_up[cell]]
            if self.options.take == "optional":
                takes.append(_SKIP)
            return takes
        if self.phase == PLACE:
            assert self.seat is not None
            return [_PLACE[t][self.gap] for t in sorted(self.hands[self.seat])]
        if self.phase == DRAFT:
            assert self.seat is not None
            hand = sorted(self.hands[self.seat])
            return [
                KeepTiles((c.tile_id(a), c.tile_id(b), c.tile_id(d)))
                for a, b, d in itertools.combinations(hand, 3)
            ]
        return []

    def _apply(self, action: Action) -> list[Event]:
        self._points = None
        if isinstance(action, PlaceVisitor):
            return self._apply_visit(_POSITION_INDEX[action.position])
        if isinstance(action, TakeTile):
            return self._apply_take(_CELL_INDEX[action.cell])
        if isinstance(action, PlaceTile):
            return self._apply_place(_TILE_INDEX[action.tile])
        if isinstance(action, SkipTake):
            return [Event("skip", self.seat), *self._end_turn()]
        assert isinstance(action, KeepTiles)
        return self._apply_keep([_TILE_INDEX[t] for t in action.tiles])

    def _apply_visit(self, position: int) -> list[Event]:
        seat = self.seat
        assert seat is not None
        self.occupant[position] = seat
        self.visitors_left[seat] -= 1
        self.position = position
        event = Event("visit", seat, {"position": _POSITIONS[position].id})
        if any(not self.face_up[cell] for cell in _POSITIONS[position].cells):
            self.phase = TAKE
            return [event]
        return [event, *self._end_turn()]

    def _apply_take(self, cell: int) -> list[Event]:
        seat = self.seat
        assert seat is not None
        tile = self.grid[cell]
        self.hands[seat].append(tile)
        self.grid[cell] = GAP
        self.gap = cell
        self.phase = PLACE
        private = {seat: {"tile": c.tile_id(tile)}}
        return [Event("take", seat, {"cell": c.cell_id(cell)}, private, reveals=True)]

    def _apply_place(self, tile: int) -> list[Event]:
        seat = self.seat
        assert seat is not None
        self.hands[seat].remove(tile)
        self.grid[self.gap] = tile
        self.face_up[self.gap] = True
        # The tile comes out of a hand the others cannot see: placing it shows it to them.
        public = {"tile": c.tile_id(tile), "cell": c.cell_id(self.gap)}
        event = Event("place", seat, public, reveals=True)
        return [event, *self._end_turn()]

    def _apply_keep(self, keep: list[int]) -> list[Event]:
        seat = self.seat
        assert seat is not None
        surplus = sorted(t for t in self.hands[seat] if t not in keep)
        self.hands[seat] = sorted(keep)
        self.passed[seat] = surplus
        receiver = seat - 1 if seat > 0 else None
        private = {seat: {"passed_tiles": [c.tile_id(t) for t in surplus]}}
        if receiver is None:
            self.box.extend(surplus)
            self.phase = VISITOR
            self.seat = 0
        else:
            self.hands[receiver].extend(surplus)
            private[receiver] = {"received_tiles": [c.tile_id(t) for t in surplus]}
            self.seat = receiver
        public: dict[str, JSON] = {"passed": len(surplus), "to": receiver}
        return [Event("keep", seat, public, private, reveals=True)]

    def _end_turn(self) -> list[Event]:
        self.position = -1
        self.gap = -1
        if sum(self.visitors_left) == 0:
            self.phase = OVER
            self.seat = None
            return [Event("game_over", None, {"result": self._result().to_json()}, reveals=True)]
        assert self.seat is not None
        self.seat = (self.seat + 1) % self.players
        self.phase = VISITOR
        return []

    def _why_illegal(self, action: Action) -> str:
        expected = {
            VISITOR: "place a visitor",
            TAKE: "take a face-down tile from the new visitor's line",
            PLACE: "place a tile from hand into the gap",
            DRAFT: "keep three tiles (draft)",
        }[self.phase]
        wrong_phase = f"seat {self.seat} must now {expected}"
        if isinstance(action, PlaceVisitor):
            return self._why_not_visit(action) if self.phase == VISITOR else wrong_phase
        if isinstance(action, TakeTile | SkipTake):
            return self._why_not_take(action) if self.phase == TAKE else wrong_phase
        if isinstance(action, PlaceTile):
            return self._why_not_place(action) if self.phase == PLACE else wrong_phase
        if isinstance(action, KeepTiles):
            if self.phase != DRAFT:
                return wrong_phase
            return "keep names three tiles of your hand"
        return f"not a Topiary action ({type(action).__name__})"

    def _why_not_visit(self, action: PlaceVisitor) -> str:
        position = _POSITIONS[_POSITION_INDEX[action.position]]
        if self.occupant[position.index] != FREE:
            return (
                f"position {position.id} already has a visitor "
                "(one visitor per position; the other end of the line may be free)"
            )
        return f"one-tile diagonals such as {position.id} are off (option one_tile_diagonals)"

    def _why_not_take(self, action: TakeTile | SkipTake) -> str:
        line_id = _POSITIONS[self.position].id
        if isinstance(action, SkipTake):
            return (
                f"the line of {line_id} has a face-down tile, and taking one is mandatory "
                "(option take=mandatory, seed 002)"
            )
        cell = _CELL_INDEX[action.cell]
        if cell not in _POSITIONS[self.position].cells:
            return f"{action.cell} is not in the line of the visitor at {line_id}"
        return f"the tile at {action.cell} is face up; only face-down tiles can be taken"

    def _why_not_place(self, action: PlaceTile) -> str:
        gap = c.cell_id(self.gap)
        if action.cell != gap:
            return f"the tile must go into the gap at {gap}"
        return f"{action.tile} is not in your hand"

    # -- scoring ----------------------------------------------------------------------

    def line_scores(self) -> list[tuple[int, int, LineScore]]:
        """(position, seat, score) for every placed visitor, in position order."""
        scores = []
        grid, face_up = self.grid, self.face_up
        for position in _POSITIONS:
            seat = self.occupant[position.index]
            if seat != FREE:
                cells = position.cells
                line = [_SCULPTURE[grid[cell]] if face_up[cell] else None for cell in cells]
                scores.append((position.index, seat, _scored(tuple(line))))
        return scores

    def visitor_points(self) -> list[dict[str, int]]:
        """Points each seat's visitors score now (public: hands are not counted)."""
        # Every seat's view shows them: worked out once per position, a fresh copy each.
        if self._points is None:
            points = [{"visitors": 0, "bonus": 0} for _ in range(self.players)]
            for _, seat, score in self.line_scores():
                points[seat]["visitors"] += score.base
                points[seat]["bonus"] += score.bonus
            self._points = points
        return [dict(seat_points) for seat_points in self._points]

    def _result(self) -> Result:
        breakdown = self.visitor_points()
        seen: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        for _, seat, score in self.line_scores():
            seen[seat].extend(score.seen)  # type: ignore[arg-type]
        for seat in range(self.players):
            hand = [(c.shape_of(t), c.value_of(t)) for t in self.hands[seat]]
            breakdown[seat]["hand"] = hand_points(hand, seen[seat])
        scores = tuple(sum(b.values()) for b in breakdown)
        # Tie-breaks (seed 002, "Patt"): more hand points, then the tied player who moved
        # last; every seat takes the same number of turns, so the later seat moved last.
        keys = [(scores[s], breakdown[s]["hand"], s) for s in range(self.players)]
        return Result(scores, tuple(breakdown), rank(keys), ("hand points", "moved last"))

    # -- views and hidden information -------------------------------------------------

    def view(self, seat: int | None) -> dict[str, JSON]:
        return views.view(self, seat)

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return views.sample_hidden(self, seat, rng)

    # -- copies and serialisation -----------------------------------------------------

    def clone(self) -> Self:
        return type(self)(
            players=self.players,
            options=self.options,
            rng=self.rng.clone(),
            ply=self.ply,
            removed_shape=self.removed_shape,
            grid=self.grid[:],
            face_up=self.face_up[:],
            hands=[h[:] for h in self.hands],
            box=self.box[:],
            occupant=self.occupant[:],
            visitors_left=self.visitors_left[:],
            seat=self.seat,
            phase=self.phase,
            position=self.position,
            gap=self.gap,
            passed=[p[:] for p in self.passed],
        )

    def to_json(self) -> dict[str, JSON]:
        def tiles(ts: list[int]) -> list[str]:
            return [c.tile_id(t) for t in ts]

        return {
            "game": "topiary",
            "players": self.players,
            "options": self.options.model_dump(mode="json"),
            "rng": self.rng.to_json(),
            "ply": self.ply,
            "removed_shape": None
            if self.removed_shape is None
            else c.shapes()[self.removed_shape].id,
            "grid": [None if t == GAP else c.tile_id(t) for t in self.grid],
            "face_up": list(self.face_up),
            "hands": [tiles(h) for h in self.hands],
            "box": tiles(self.box),
            "visitors": {p.id: s for p, s in zip(_POSITIONS, self.occupant, strict=True) if s >= 0},
            "visitors_left": list(self.visitors_left),
            "seat": self.seat,
            "phase": self.phase,
            "position": None if self.position < 0 else _POSITIONS[self.position].id,
            "gap": None if self.gap < 0 else c.cell_id(self.gap),
            "passed": [tiles(p) for p in self.passed],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TopiaryState:
        occupant = [FREE] * len(_POSITIONS)
        for position_id, seat in data["visitors"].items():
            occupant[_POSITION_INDEX[position_id]] = seat
        removed = data["removed_shape"]
        return cls(
            players=data["players"],
            options=TopiaryOptions.model_validate(data["options"]),
            rng=Rng.from_json(data["rng"]),
            ply=data["ply"],
            removed_shape=None if removed is None else c.shape_index()[removed],
            grid=[GAP if t is None else _TILE_INDEX[t] for t in data["grid"]],
            face_up=list(data["face_up"]),
            hands=[[_TILE_INDEX[t] for t in h] for h in data["hands"]],
            box=[_TILE_INDEX[t] for t in data["box"]],
            occupant=occupant,
            visitors_left=list(data["visitors_left"]),
            seat=data["seat"],
            phase=data["phase"],
            position=-1 if data["position"] is None else _POSITION_INDEX[data["position"]],
            gap=-1 if data["gap"] is None else _CELL_INDEX[data["gap"]],
            passed=[[_TILE_INDEX[t] for t in p] for p in data["passed"]],
        )

    _parse = staticmethod(notation.parse)


def setup(players: int, options: TopiaryOptions, seed: int) -> TopiaryState:
    """Lay the garden and deal the hands (seed 002, "Vorbereitungen")."""
    rng = Rng(seed)
    removed: int | None = None
    if players < 4:
        choice = options.removed_shape
        removed = rng.below(len(c.shapes())) if choice == "random" else c.shape_index()[choice]
    tiles = [t for t in range(_TILE_COUNT) if c.shape_of(t) != removed]
    rng.shuffle(tiles)
    grid, stack = tiles[: c.CELLS], tiles[c.CELLS :]
    face_up = [False] * c.CELLS
    face_up[c.CENTRE] = True
    hands: list[list[int]] = [[] for _ in range(players)]
    for _ in range(c.HAND_SIZE):  # one tile at a time, clockwise
        for hand in hands:
            hand.append(stack.pop(0))
    if options.draft:
        hands[-1].extend(stack)
        box: list[int] = []
        phase, seat = DRAFT, players - 1
    else:
        box = stack
        phase, seat = VISITOR, 0
    return TopiaryState(
        players=players,
        options=options,
        rng=rng,
        ply=0,
        removed_shape=removed,
        grid=grid,
        face_up=face_up,
        hands=hands,
        box=box,
        occupant=[FREE] * len(_POSITIONS),
        visitors_left=[c.VISITORS_PER_PLAYER[players]] * players,
        seat=seat,
        phase=phase,
        position=-1,
        gap=-1,
        passed=[[] for _ in range(players)],
    )
