"""Greedy's think is bounded like every other bot's: past its time limit it plays the best
action tried so far."""

from __future__ import annotations

from meadow import games
from meadow.bots import GreedyBot, observe
from meadow.bots.levels import Bounded
from meadow.core.rng import Rng


def test_greedy_is_bounded_in_time():
    state = games.get("harmonies").setup(2, {"spirits": False}, 2)
    observation = observe(state, state.to_move)
    free = GreedyBot().choose(observation, Rng(1))
    cut = GreedyBot()
    assert isinstance(cut, Bounded)
    cut.time_limit = 0.0
    assert cut.choose(observation, Rng(1)) == observation.legal[0]  # nothing tried: the first
    assert free != observation.legal[0]  # with time, another action was better
