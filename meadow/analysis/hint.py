"""A hint: the move the coach would play, from the seat's observation only, with a few words
why when the evaluation can say (the scoring categories it gains over the next best move)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meadow.analysis.judge import rank
from meadow.analysis.report import category_gains, gained_by
from meadow.bots import Observation

HINT_WIDTH = 6  # moves played on after the first look: a hint is asked for mid-game, quickly


@dataclass(frozen=True)
class Hint:
    move: str
    value: float  # the seat's expected lead after it, in points
    words: str
    gains: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "value": round(self.value, 2),
            "words": self.words,
            "gains": self.gains,
        }


def suggest(observation: Observation, number: int, seconds: float, worlds: int) -> Hint:
    """The best move found for decision `number` within `seconds` and `worlds`."""
    legal = observation.legal
    if len(legal) == 1:
        return Hint(str(legal[0]), 0.0, f"{legal[0]} is the only move")
    ranked, _ = rank(observation, number, seconds, worlds, HINT_WIDTH)
    (best, value), (second, other) = ranked[0], ranked[1]
    margin = value - other
    if margin < 0.05:
        return Hint(str(best), value, f"{best}: several moves are about as good here")
    gains = category_gains(observation, str(best), str(second), number)
    words = f"{best} keeps about {margin:.1f} points more than {second}" + gained_by(gains)
    return Hint(str(best), value, words, gains)
