"""Greedy's think is bounded like every other bot's: past its time limit it plays the best
action tried so far."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.bots import GreedyBot, make_bot, observe
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


def test_a_careless_greedy_bot_plays_its_share_of_decisions_at_random():
    game = games.get("topiary")
    state = game.setup(2, game.Options().model_dump(), 5)
    observation = observe(state, state.to_move)
    assert len(observation.legal) > 20
    greedy = {make_bot("greedy").choose(observation, Rng(seed)) for seed in range(60)}
    careless = [make_bot("greedy:0.5").choose(observation, Rng(seed)) for seed in range(60)]
    unlike_greedy = sum(pick not in greedy for pick in careless)
    assert 12 < unlike_greedy < 45  # about half at random, a few of which greedy plays too
    same = [make_bot("greedy:0").choose(observation, Rng(seed)) for seed in range(5)]
    assert same == [make_bot("greedy").choose(observation, Rng(seed)) for seed in range(5)]


@pytest.mark.parametrize("spec", ["greedy:2", "greedy:-0.1", "greedy:x", "greedy:"])
def test_a_careless_share_outside_0_to_1_is_refused(spec):
    with pytest.raises(ValueError, match="from 0 to 1"):
        make_bot(spec)
