"""Small Renature boards made for the rulebook's examples, and states on them."""

from __future__ import annotations

from meadow.games.renature import components as c
from meadow.games.renature.board import Board, from_data
from meadow.games.renature.options import RenatureOptions
from meadow.games.renature.rules import RenatureState, setup

OWL, BUTTERFLY, SALAMANDER, WOODPECKER = 2, 0, 1, 3

# A 4-space area ringed by brook: the area of the seed's examples (size 4, token 4 / 2).
RING = from_data({"kind": "test", "map": ["....", ".AA.", ".AA.", "...."], "start": ["a1"]}, "ring")


def domino(a: int, b: int) -> str:
    """The id of the domino showing animals a and b."""
    return next(d.id for d in c.dominoes() if sorted(d.animals) == sorted((a, b)))


def state_on(board: Board, players: int = 2, valley: bool = False, seed: int = 1) -> RenatureState:
    options = RenatureOptions(board="valley" if valley else "base")
    return setup(players, options, seed, board=board)


def cover(state: RenatureState, cells: list[str], animal: int) -> None:
    """Lay animals on brook spaces directly (as if dominoes had been placed earlier)."""
    for name in cells:
        cell = state.board.cell_at(name)
        state.animal_at[cell] = animal
        state.domino_at[cell] = 0
    state.forget_derived()


def plant(state: RenatureState, cell: str, name: str, colour: int) -> None:
    state.plant_at[state.board.cell_at(cell)] = (c.PLANT_VALUE[name], colour)
    state.forget_derived()


def give(state: RenatureState, seat: int, dominoes: list[str]) -> None:
    state.seats[seat].hand = [c.domino_index()[d] for d in dominoes]
    state.forget_derived()
