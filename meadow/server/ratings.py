"""Elo ratings per game: every pair of seats in a finished game counts as one match, decided
by the final ranking (shared places draw), with K split over the opponents."""

from __future__ import annotations

START = 1500.0
K = 32.0


def expected(rating: float, other: float) -> float:
    """The chance the first player beats the second, as Elo has it.

    >>> round(expected(1600, 1400), 3)
    0.76
    """
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def updated(ratings: list[float], ranking: list[list[int]], k: float = K) -> list[float]:
    """New ratings per seat after a game whose places are `ranking` (groups of seats,
    first place first).

    >>> updated([1500.0, 1500.0], [[0], [1]])
    [1516.0, 1484.0]
    >>> updated([1500.0, 1500.0, 1500.0], [[0, 1], [2]])
    [1508.0, 1508.0, 1484.0]
    """
    place = {seat: p for p, group in enumerate(ranking) for seat in group}
    seats = len(ratings)
    new = list(ratings)
    for a in range(seats):
        for b in range(seats):
            if a == b:
                continue
            score = 1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0
            new[a] += k / (seats - 1) * (score - expected(ratings[a], ratings[b]))
    return [round(r, 1) for r in new]
