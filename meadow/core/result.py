"""The final result of a game: scores, their breakdown and the ranking after tie-breaks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meadow.core.actions import JSON


@dataclass(frozen=True, slots=True)
class Result:
    """Scores per seat, each with a per-category breakdown, and places after the tie-breaks.

    `ranking` lists groups of seats from first place to last; seats in one group share the
    place because every tie-break left them equal.
    """

    scores: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: tuple[str, ...] = ()
    extra: dict[str, JSON] = field(default_factory=dict)  # game-specific, e.g. solo suns

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0]

    def place(self, seat: int) -> int:
        """1 for the winners; seats that share a place share the number."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise ValueError(f"seat {seat} is not in this result")

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores),
            "breakdown": [dict(b) for b in self.breakdown],
            "ranking": [list(g) for g in self.ranking],
            "places": [self.place(s) for s in range(len(self.scores))],
            "tiebreak": list(self.tiebreak),
            "extra": dict(self.extra),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        return cls(
            scores=tuple(data["scores"]),
            breakdown=tuple(dict(b) for b in data["breakdown"]),
            ranking=tuple(tuple(g) for g in data["ranking"]),
            tiebreak=tuple(data.get("tiebreak", ())),
            extra=dict(data.get("extra", {})),
        )


def rank(keys: Sequence[Sequence[float]]) -> tuple[tuple[int, ...], ...]:
    """Group seats by their sort keys, best (largest) first; equal keys share a place.

    >>> rank([(10, 2), (12, 0), (10, 2)])
    ((1,), (0, 2))
    """
    order = sorted(range(len(keys)), key=lambda seat: tuple(keys[seat]), reverse=True)
    groups: list[list[int]] = []
    for seat in order:
        if groups and tuple(keys[groups[-1][0]]) == tuple(keys[seat]):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return tuple(tuple(sorted(g)) for g in groups)
