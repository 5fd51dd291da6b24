"""The two simple bots: random, and greedy (one ply, the game's own evaluation)."""

from __future__ import annotations

import math
import time

from meadow.bots.base import Bot, CircleFreeBot, Observation
from meadow.core.actions import Action
from meadow.core.game import State, margins
from meadow.core.rng import Rng


class RandomBot(Bot):
    name = "random"

    def choose(self, observation: Observation, rng: Rng) -> Action:
        return observation.legal[rng.below(len(observation.legal))]


def play_forced(world: State, seat: int, limit: int = 20) -> None:
    """Play on while the seat has exactly one legal action (a reveal after a push): the
    effect of a decision includes what it forces."""
    for _ in range(limit):
        if world.is_over or world.to_move != seat:
            return
        legal = world.legal_actions()
        if len(legal) != 1:
            return
        world.apply(legal[0])


class GreedyBot(CircleFreeBot):
    """Tries every legal action in a few sampled worlds and keeps the one that leaves the
    best lead by the game's evaluation. A careless one (`careless` > 0) plays that share of
    its decisions at random instead: a level between random and greedy."""

    name = "greedy"

    def __init__(self, worlds: int = 3, careless: float = 0.0) -> None:
        super().__init__()
        self.worlds = worlds
        self.careless = careless
        if careless:
            self.name = f"greedy:{careless:g}"
        # A bound on any one think (a server's, a level's): past it, the best action tried
        # so far is played. Only a very long list of actions comes near it.
        self.time_limit: float | None = None

    def decide(self, observation: Observation, rng: Rng) -> Action:
        if len(observation.legal) == 1:
            return observation.legal[0]
        if self.careless and rng.random() < self.careless:
            return observation.legal[rng.below(len(observation.legal))]
        seeds = [rng.next_u64() for _ in range(self.worlds)]
        evaluate = self.evaluation(observation).evaluate
        best, best_value = observation.legal[0], float("-inf")
        stop = math.inf if self.time_limit is None else time.perf_counter() + self.time_limit
        for action in observation.legal:
            if time.perf_counter() >= stop:
                break
            value = 0.0
            for seed in seeds:  # the same worlds for every action: a fair comparison
                world = observation.world(Rng(seed))
                world.apply(action)
                play_forced(world, observation.seat)
                value += margins(evaluate(world), observation.seat)
            if value > best_value:
                best, best_value = action, value
        return best
