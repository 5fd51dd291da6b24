"""Marks and accuracy from the win chance a decision gave away.

A decision's loss is the win chance of the best move found less that of the move played (in a
solo game, where no one is beaten, the point loss is put on the same scale: what it would cost
in an even 2-player game of the title at that stage). The marks cut that loss at thresholds per
game; docs/ai.md ("Marks") gives the figures they were chosen from. Accuracy is lichess's
formula (`103.1668 * exp(-0.04354 * loss in %) - 3.1669`, 0 to 100): a decision that gives
nothing away scores 100, one that gives away 10 % about 63, 30 % about 24.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum


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


# Inaccuracy, mistake and blunder at 5, 10 and 20 % of win chance in the two shorter games,
# where a game has 20-30 decisions a seat and one decision moves the result further. Renature
# and Mystic Vale play 70-150 decisions a seat and greedy play gives away 1-3 % a decision on
# average there, so each cut sits higher, else every game of theirs reads as a row of
# inaccuracies (docs/ai.md, "Marks").
THRESHOLDS: dict[str, Thresholds] = {
    "topiary": Thresholds(good=0.01, inaccuracy=0.05, mistake=0.10, blunder=0.20),
    "harmonies": Thresholds(good=0.01, inaccuracy=0.05, mistake=0.10, blunder=0.20),
    "renature": Thresholds(good=0.015, inaccuracy=0.06, mistake=0.12, blunder=0.24),
    "mystic_vale": Thresholds(good=0.015, inaccuracy=0.06, mistake=0.12, blunder=0.24),
}
DEFAULT = Thresholds(good=0.01, inaccuracy=0.05, mistake=0.10, blunder=0.20)


def thresholds(game: str) -> Thresholds:
    return THRESHOLDS.get(game, DEFAULT)


def accuracy(loss: float) -> float:
    """One decision's accuracy, 0 to 100, from the win chance (0 to 1) it gave away."""
    percent = max(0.0, loss) * 100
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * percent) - 3.1669))
