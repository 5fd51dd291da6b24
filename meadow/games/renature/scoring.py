"""Renature's scoring as pure functions. Colours are seat numbers; neutral is -1.

Rule: seed 001, step C ("Points for your plant", "area scoring", the yellow-framed section)
and the Valley's final area scoring.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

NEUTRAL = -1


def plant_points(value: int, others: Iterable[int]) -> int:
    """1 for the plant, 1 for each other plant in its area of equal or lower value.

    Seed 001, example a-d: bush in an empty area 1; turf 1; a second bush 3; a pine 4.

    >>> [plant_points(2, []), plant_points(1, [2]), plant_points(2, [2, 1])]
    [1, 1, 3]
    >>> plant_points(3, [2, 1, 2])
    4
    """
    return 1 + sum(1 for other in others if other <= value)


def ranked_colours(totals: Mapping[int, int]) -> list[tuple[int, int]]:
    """Colours present, highest total first, after removing every colour whose total equals
    another colour's total (tied colours count as absent).

    >>> ranked_colours({0: 2, 1: 3, -1: 3})
    [(0, 2)]
    """
    present = {colour: total for colour, total in totals.items() if total > 0}
    counts: dict[int, int] = {}
    for total in present.values():
        counts[total] = counts.get(total, 0) + 1
    kept = [(colour, total) for colour, total in present.items() if counts[total] == 1]
    return sorted(kept, key=lambda item: -item[1])


def majority(totals: Mapping[int, int]) -> int | None:
    """The colour an area scoring ranks first (the one awarded `main`), neutral included;
    None if every colour cancels out. The Valley's tie-break asks for exactly this
    majority, so it comes from the same ranking as the points.

    >>> majority({0: 3, -1: 3, 1: 2}), majority({0: 3, 1: 3}), majority({-1: 4, 1: 3})
    (1, None, -1)
    """
    ranked = ranked_colours(totals)
    return ranked[0][0] if ranked else None


def area_points(totals: Mapping[int, int], main: int, minor: int) -> dict[int, int]:
    """Points per seat from one area scoring.

    A lone player colour scores main + minor; otherwise the highest scores main and the
    second minor, neutral taking its rank but scoring nothing.

    >>> area_points({0: 2, 1: 3, -1: 3}, 4, 2)   # example 1: Mary alone -> 6
    {0: 6}
    >>> area_points({-1: 4, 1: 3}, 4, 2)         # example 2: neutral first, Frank minor
    {1: 2}
    """
    ranked = ranked_colours(totals)
    if len(ranked) == 1 and ranked[0][0] != NEUTRAL:
        return {ranked[0][0]: main + minor}
    points: dict[int, int] = {}
    for (colour, _), award in zip(ranked[:2], (main, minor), strict=False):
        if colour != NEUTRAL:
            points[colour] = award
    return points


def valley_area_points(totals: Mapping[int, int], size: int) -> dict[int, int]:
    """Valley final scoring: first 1 point per space, second half of that rounded down.

    >>> valley_area_points({0: 6, 1: 4}, 16)
    {0: 16, 1: 8}
    """
    return area_points(totals, size, size // 2)
