"""Marks and accuracy from the win chance a decision gave away.

A decision's loss is the win chance of the best move found less that of the move played (in a
solo game, where no one is beaten, the point loss is put on the same scale: what it would cost
in an even 2-player game of the title at that stage). The marks cut that loss at thresholds per
game, measured on greedy play (`marks.json`; docs/ai.md, "Marks and accuracy"). Accuracy is
lichess's formula (`103.1668 * exp(-0.04354 * loss in %) - 3.1669`, 0 to 100): a decision
that gives nothing away scores 100, one that gives away 10 % about 63, 30 % about 24.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources

import orjson


class Mark(StrEnum):
    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True)
class Thresholds:
    """The least win chance (0 to 1) a decision must give away to earn each mark."""

    good: float
    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, loss: float) -> Mark:
        if loss >= self.blunder:
            return Mark.BLUNDER
        if loss >= self.mistake:
            return Mark.MISTAKE
        if loss >= self.inaccuracy:
            return Mark.INACCURACY
        if loss >= self.good:
            return Mark.GOOD
        return Mark.BEST


DEFAULT = Thresholds(good=0.01, inaccuracy=0.05, mistake=0.10, blunder=0.20)


@cache
def _measured() -> dict[str, Thresholds]:
    """The cuts measured per game (`python -m bench.coach --part marks --write`): quantiles
    of the win chance solid greedy play gives away, so that it earns an inaccuracy about
    one decision in five, a mistake one in twelve and a blunder one in fifty."""
    data = orjson.loads(resources.files("meadow.analysis").joinpath("marks.json").read_bytes())
    return {
        game: Thresholds(cut["good"], cut["inaccuracy"], cut["mistake"], cut["blunder"])
        for game, cut in data.items()
        if isinstance(cut, dict)
    }


def thresholds(game: str) -> Thresholds:
    """The game's measured cuts; a game never measured gets 1, 5, 10 and 20 %."""
    return _measured().get(game, DEFAULT)


def accuracy(loss: float) -> float:
    """One decision's accuracy, 0 to 100, from the win chance (0 to 1) it gave away."""
    percent = max(0.0, loss) * 100
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * percent) - 3.1669))
