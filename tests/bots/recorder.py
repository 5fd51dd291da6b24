"""A bot that remembers the bound it was given each time it was asked to choose."""

from __future__ import annotations

from meadow.bots import Bot, Observation
from meadow.core.actions import Action
from meadow.core.rng import Rng


class Recorder(Bot):
    name = "recorder"

    def __init__(self) -> None:
        self.time_limit: float | None = None
        self.seen: list[float | None] = []

    def choose(self, observation: Observation, rng: Rng) -> Action:
        self.seen.append(self.time_limit)
        return observation.legal[0]
