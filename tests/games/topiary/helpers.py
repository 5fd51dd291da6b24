"""Build Topiary states with a chosen garden, for rule tests that need exact tiles."""

from __future__ import annotations

from typing import Any

from meadow import games
from meadow.games.topiary import components as c
from meadow.games.topiary.rules import TopiaryState


def crafted(
    players: int,
    face_up: dict[str, str],
    hands: list[list[str]],
    *,
    face_down: dict[str, str] | None = None,
    visitors: dict[str, int] | None = None,
    visitors_left: list[int] | None = None,
    seat: int | None = 0,
    phase: str = "visitor",
    options: dict[str, Any] | None = None,
) -> TopiaryState:
    """A state with the given face-up tiles (cell -> tile id) and hands; every other cell is
    face down with the unused tiles, the rest go to the box."""
    opts = {"removed_shape": "cone", **(options or {})} if players < 4 else dict(options or {})
    data = games.get("topiary").setup(players, opts, seed=1).to_json()
    face_down = face_down or {}
    used = set(face_up.values()) | set(face_down.values()) | {t for h in hands for t in h}
    removed = data["removed_shape"]
    spare = [t for t in c.tile_ids() if t not in used and not t.startswith(f"{removed}_")]
    grid, up = [], []
    for cell in range(c.CELLS):
        name = c.cell_id(cell)
        if name in face_up:
            grid.append(face_up[name])
            up.append(True)
        else:
            grid.append(face_down.get(name) or spare.pop(0))
            up.append(False)
    data.update(
        grid=grid,
        face_up=up,
        hands=hands,
        box=spare,
        visitors=visitors or {},
        visitors_left=visitors_left or [c.VISITORS_PER_PLAYER[players]] * players,
        seat=seat,
        phase=phase,
    )
    state = TopiaryState.from_data(data)
    assert len(spare) == 40 - 5 * (players < 4) - 25 - sum(len(h) for h in hands)
    return state
