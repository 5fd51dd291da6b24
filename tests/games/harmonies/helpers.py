"""Build Harmonies states with chosen boards, for rule tests that need exact stacks."""

from __future__ import annotations

from meadow import games
from meadow.games.harmonies import components as c
from meadow.games.harmonies.rules import HarmoniesState

HARMONIES = games.get("harmonies")


def fresh(players: int = 2, seed: int = 1, **options: object) -> HarmoniesState:
    state = HARMONIES.setup(players, options, seed)
    assert isinstance(state, HarmoniesState)
    return state


def put(state: HarmoniesState, seat: int, stacks: dict[str, tuple[str, ...]]) -> None:
    """Set stacks on a seat's board by cell name ("c2": ("brown", "green"))."""
    board = state.board
    for name, stack in stacks.items():
        state.seats[seat].stacks[board.index[c.parse_cell_name(name)]] = tuple(stack)
    state.forget_derived()


def fill(state: HarmoniesState, seat: int, leave_empty: int) -> None:
    """Cover all but `leave_empty` spaces with yellow tokens (a quick way to near the end)."""
    player = state.seats[seat]
    empties = [i for i, s in enumerate(player.stacks) if not s]
    for i in empties[: max(0, len(empties) - leave_empty)]:
        player.stacks[i] = ("yellow",)
    state.forget_derived()
