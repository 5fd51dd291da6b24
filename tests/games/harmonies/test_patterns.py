"""Habitat patterns: every card (animals and spirits) in every rotation (rulebook p.6)."""

from __future__ import annotations

import pytest

from meadow.games.harmonies import components as c
from tests.games.harmonies.helpers import fresh

STACK_FOR = {  # one stack per landscape label (buildings get the three bases in turn)
    "water": ("blue",),
    "field": ("yellow",),
    "tree1": ("green",),
    "tree2": ("brown", "green"),
    "tree3": ("brown", "brown", "green"),
    "mountain1": ("gray",),
    "mountain2": ("gray", "gray"),
    "mountain3": ("gray", "gray", "gray"),
}
BUILDINGS = (("brown", "red"), ("gray", "red"), ("red", "red"))
WRONG = {  # the nearest stack that must NOT match (heights are exact)
    "water": ("yellow",),
    "field": ("blue",),
    "tree1": ("brown", "green"),
    "tree2": ("green",),
    "tree3": ("brown", "green"),
    "mountain1": ("gray", "gray"),
    "mountain2": ("gray",),
    "mountain3": ("gray", "gray"),
    "building": ("red",),
}


def _rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    """Rotate by 60 degrees `turns` times, through cube coordinates (x, y, z) -> (-z, -x, -y)."""
    x, z = q, r
    y = -x - z
    for _ in range(turns):
        x, y, z = -z, -x, -y
    return x, z


def _layout(card: c.Card, turns: int, side: str = "A") -> tuple[str, dict[str, tuple]] | None:
    """The rotated pattern placed on the board with its cube cell on the first anchor where
    every cell fits; None if it fits nowhere."""
    board = c.board(side)
    axial = {a: cell for cell, a in zip(board.cells, board.axial, strict=True)}
    for anchor_q, anchor_r in board.axial:
        placed = {}
        for i, cell in enumerate(card.pattern):
            dq, dr = _rotate(cell.q, cell.r, turns)
            target = axial.get((anchor_q + dq, anchor_r + dr))
            if target is None:
                break
            land = cell.landscape
            stack = BUILDINGS[i % 3] if land == "building" else STACK_FOR[land]
            placed[c.cell_name(target)] = stack
        else:
            return c.cell_name(axial[(anchor_q, anchor_r)]), placed
    return None


@pytest.mark.parametrize("card_id", range(1, 43))
@pytest.mark.parametrize("turns", range(6))
def test_pattern_found_in_every_rotation(card_id: int, turns: int):
    card = c.cards()[card_id]
    layout = _layout(card, turns)
    assert layout is not None, f"{card.name} fits nowhere on side A in rotation {turns}"
    cube_cell, stacks = layout
    state = fresh()
    player = state.seats[0]
    for name, stack in stacks.items():
        player.stacks[state.board.index[c.parse_cell_name(name)]] = stack
    found = [c.cell_name(state.board.cells[i]) for i in state.habitat_spaces(player, card_id)]
    assert cube_cell in found


@pytest.mark.parametrize("card_id", range(1, 43))
def test_pattern_needs_every_cell_exactly(card_id: int):
    """Change any one cell to the nearest wrong stack and the cube cell no longer matches."""
    card = c.cards()[card_id]
    cube_cell, stacks = _layout(card, 0)  # type: ignore[misc]
    for changed in stacks:
        state = fresh()
        player = state.seats[0]
        for name, stack in stacks.items():
            land = c.LANDSCAPES[stack]
            bad = WRONG[land] if name == changed else stack
            player.stacks[state.board.index[c.parse_cell_name(name)]] = bad
        found = [c.cell_name(state.board.cells[i]) for i in state.habitat_spaces(player, card_id)]
        assert cube_cell not in found, f"{card.name}: {changed} changed, still matched"


def test_a_cube_space_that_holds_a_cube_is_not_offered():
    card = c.cards()[5]  # Frog: tree1 next to water*, the cube on the water
    cube_cell, stacks = _layout(card, 0)  # type: ignore[misc]
    state = fresh()
    player = state.seats[0]
    for name, stack in stacks.items():
        player.stacks[state.board.index[c.parse_cell_name(name)]] = stack
    i = state.board.index[c.parse_cell_name(cube_cell)]
    assert i in state.habitat_spaces(player, 5)
    player.cubes[i] = 6
    assert i not in state.habitat_spaces(player, 5)
