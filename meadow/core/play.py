"""Driving a game without people: random playouts, shared by the CLI, the bench and the tests."""

from __future__ import annotations

from meadow.core.game import State
from meadow.core.rng import Rng


def random_playout(state: State, rng: Rng, max_plies: int = 100_000) -> int:
    """Play uniformly random legal actions until the game ends; returns the plies played.

    Raises:
        RuntimeError: the game did not end within `max_plies` (a rules bug).
    """
    plies = 0
    while not state.is_over:
        if plies >= max_plies:
            raise RuntimeError(f"{state.game.id} did not end within {max_plies} plies")
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
        plies += 1
    return plies
