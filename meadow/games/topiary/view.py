"""What each seat may know of a Topiary game, and worlds consistent with that knowledge.

A seat knows the face-up tiles, every visitor, its own hand, and (draft) the tiles it passed
on. It does not know the face-down tiles, the other hands or the box. Hands are shown to all
once the game is over (final scoring reveals them); face-down tiles stay hidden.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast

from meadow.core.actions import JSON
from meadow.core.rng import Rng
from meadow.games.topiary import components as c
from meadow.games.topiary.scoring import hand_points

if TYPE_CHECKING:
    from meadow.games.topiary.rules import TopiaryState

S = TypeVar("S", bound="TopiaryState")

FACE_DOWN = "face_down"
GAP = "gap"


def view(state: TopiaryState, seat: int | None) -> dict[str, JSON]:
    """The JSON-safe view of `seat` (`None` = spectator)."""
    over = state.to_move is None
    names = c.tile_names()
    garden = []
    for row in range(c.SIZE):
        cells = []
        for col in range(c.SIZE):
            cell = row * c.SIZE + col
            tile = state.grid[cell]
            if tile < 0:
                cells.append(GAP)
            elif state.face_up[cell]:
                cells.append(names[tile])
            else:
                cells.append(FACE_DOWN)
        garden.append(cells)
    positions = c.positions()
    data: dict[str, JSON] = {
        "game": "topiary",
        "players": state.players,
        "seat": seat,
        "ply": state.ply,
        "options": state.options.model_dump(mode="json"),
        "phase": state.phase,
        "to_move": state.to_move,
        "removed_shape": None
        if state.removed_shape is None
        else c.shapes()[state.removed_shape].id,
        "garden": garden,
        "visitors": {p.id: s for p, s in zip(positions, state.occupant, strict=True) if s >= 0},
        "visitors_left": list(state.visitors_left),
        "current_position": None if state.position < 0 else positions[state.position].id,
        "gap": None if state.gap < 0 else c.cell_id(state.gap),
        "hand_sizes": [len(h) for h in state.hands],
        "hand": None if seat is None else _tiles(sorted(state.hands[seat])),
        "passed": None if seat is None else _tiles(state.passed[seat]),
        "points": state.visitor_points(),
        "hands": [_tiles(sorted(h)) for h in state.hands] if over else None,
        "result": state.result().to_json() if over else None,
        "scoring": _scoring(state) if over else None,
    }
    return data


def _scoring(state: TopiaryState) -> list[JSON]:
    """Per seat, what each visitor saw and scored and what each hand tile scored: the final
    scoring line by line, for the interface (the totals are in `result`)."""
    positions = c.positions()
    cell_of = {state.grid[cell]: cell for cell in range(c.CELLS) if state.face_up[cell]}
    lines: list[list[JSON]] = [[] for _ in range(state.players)]
    seen: list[list[tuple[int, int]]] = [[] for _ in range(state.players)]
    for position, seat, score in state.line_scores():
        sculptures = cast("list[tuple[int, int]]", list(score.seen))  # (shape index, value)
        cells: list[JSON] = [
            c.cell_id(cell_of[shape * 5 + value - 1]) for shape, value in sculptures
        ]
        lines[seat].append(
            {
                "position": positions[position].id,
                "seen": cells,
                "base": score.base,
                "bonus": score.bonus,
            }
        )
        seen[seat].extend(sculptures)
    seats: list[JSON] = []
    for seat in range(state.players):
        hand: list[JSON] = [
            {
                "tile": c.tile_id(t),
                "points": hand_points([(c.shape_of(t), c.value_of(t))], seen[seat]),
            }
            for t in sorted(state.hands[seat])
        ]
        seats.append({"lines": lines[seat], "hand": hand})
    return seats


def _tiles(tiles: list[int]) -> list[JSON]:
    return [c.tile_id(t) for t in tiles]


def sample_hidden(state: S, seat: int | None, rng: Rng) -> S:
    """A copy in which everything `seat` cannot know is redrawn at random.

    The unknown tiles (face-down cells, other hands, the box) are dealt afresh. In the draft a
    seat knows that the tiles it passed on went to the seats after it in the passing chain or
    to the box, so those are dealt only there.
    """
    world = state.clone()
    world.rng = rng.spawn()
    over = state.to_move is None
    slots: list[tuple[str, int, int]] = [  # (where, which, index)
        ("grid", cell, 0)
        for cell in range(c.CELLS)
        if not state.face_up[cell] and state.grid[cell] >= 0
    ]
    if not over:
        for other in range(state.players):
            if other != seat:
                slots.extend(("hand", other, i) for i in range(len(state.hands[other])))
    slots.extend(("box", 0, i) for i in range(len(state.box)))

    pool = [_get(world, slot) for slot in slots]
    passed = set(state.passed[seat]) if seat is not None else set()
    # Sorted first, so that the world depends only on what the seat knows (and on `rng`).
    bound = sorted(t for t in pool if t in passed)
    free = sorted(t for t in pool if t not in passed)
    # Passed tiles travel down the chain (seat k to k-1 ... to 0, then the box); while the
    # draft runs they can only have reached the seat now choosing.
    lowest = state.seat if state.phase == "draft" and state.seat is not None else 0
    downstream = [
        i
        for i, (where, who, _) in enumerate(slots)
        if where == "box" or (where == "hand" and seat is not None and lowest <= who < seat)
    ]
    rng.shuffle(downstream)
    chosen = downstream[: len(bound)]
    rng.shuffle(bound)
    rng.shuffle(free)
    taken = set(chosen)
    for i, tile in zip(chosen, bound, strict=True):
        _put(world, slots[i], tile)
    rest = iter(free)
    for i, slot in enumerate(slots):
        if i not in taken:
            _put(world, slot, next(rest))
    return world


def _get(state: TopiaryState, slot: tuple[str, int, int]) -> int:
    where, which, index = slot
    if where == "grid":
        return state.grid[which]
    if where == "hand":
        return state.hands[which][index]
    return state.box[index]


def _put(state: TopiaryState, slot: tuple[str, int, int], tile: int) -> None:
    where, which, index = slot
    if where == "grid":
        state.grid[which] = tile
    elif where == "hand":
        state.hands[which][index] = tile
    else:
        state.box[index] = tile
