"""The two simple bots: random, and greedy (one ply, the game's own evaluation)."""

from __future__ import annotations

from meadow.bots.base import Bot, Observation, margins
from meadow.core.actions import Action
from meadow.core.rng import Rng


class RandomBot(Bot):
    name = "random"

    def choose(self, observation: Observation, rng: Rng) -> Action:
        return observation.legal[rng.below(len(observation.legal))]


class GreedyBot(Bot):
    """Tries every legal action in a few sampled worlds and keeps the one that leaves the
    best lead by the game's evaluation."""

    name = "greedy"

    def __init__(self, worlds: int = 3) -> None:
        self.worlds = worlds

    def choose(self, observation: Observation, rng: Rng) -> Action:
        if len(observation.legal) == 1:
            return observation.legal[0]
        seeds = [rng.next_u64() for _ in range(self.worlds)]
        evaluate = observation.game.evaluate
        best, best_value = observation.legal[0], float("-inf")
        for action in observation.legal:
            value = 0.0
            for seed in seeds:  # the same worlds for every action: a fair comparison
                world = observation.world(Rng(seed))
                world.apply(action)
                value += margins(evaluate(world), observation.seat)
            if value > best_value:
                best, best_value = action, value
        return best
