"""Topiary's scoring as pure functions over lines of (shape, value) pairs.

Rule: seed 002, "Spielende" 1) Besucher, BONUS and 2) Hand-Plättchen; data/rules.json "scoring".
A face-down tile is `None`: it neither scores nor blocks.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

Sculpture = tuple[Hashable, int]  # (shape, value)


@dataclass(frozen=True, slots=True)
class LineScore:
    """What one visitor sees and scores."""

    seen: tuple[Sculpture, ...]
    base: int
    bonus: int

    @property
    def total(self) -> int:
        return self.base + self.bonus


def score_line(line: Sequence[Sculpture | None]) -> LineScore:
    """Score a visitor's line, nearest tile first.

    The nearest face-up tile is always seen; a further one only if it is higher than the
    last seen tile. Each shape seen at least twice earns +1 per seen tile of that shape.

    >>> score_line([("swan", 3), ("t_rex", 2), ("whale", 4), ("swan", 5)])
    LineScore(seen=(('swan', 3), ('whale', 4), ('swan', 5)), base=12, bonus=2)
    >>> score_line([None, ("whale", 2), None]).total
    2
    """
    seen: list[Sculpture] = []
    highest = 0
    for sculpture in line:
        if sculpture is not None and sculpture[1] > highest:
            seen.append(sculpture)
            highest = sculpture[1]
    counts: dict[Hashable, int] = {}
    for shape, _ in seen:
        counts[shape] = counts.get(shape, 0) + 1
    bonus = sum(n for n in counts.values() if n >= 2)
    return LineScore(tuple(seen), sum(value for _, value in seen), bonus)


def hand_points(hand: Iterable[Sculpture], seen_by_own_visitors: Iterable[Sculpture]) -> int:
    """Points from hand tiles: each scores its value if one of the owner's visitors sees a
    higher tile of the same shape.

    >>> hand_points([("swan", 2), ("whale", 1), ("elephant", 5)], [("swan", 4), ("whale", 5)])
    3
    """
    best: dict[Hashable, int] = {}
    for shape, value in seen_by_own_visitors:
        best[shape] = max(value, best.get(shape, 0))
    return sum(value for shape, value in hand if best.get(shape, 0) > value)
