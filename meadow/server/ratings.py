"""Elo ratings per game: every pair of seats in a finished game counts as one match, decided
by the final ranking (shared places draw), with K split over the opponents."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from meadow.core.game import State
from meadow.store import Rating

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


def rate(
    s: Session, game_id: str, seats: list[tuple[int | None, str | None]], final: State
) -> None:
    """Elo for everyone seated, in the transaction of the last move. People and bots each
    have their own rows (bots are rated apart: a bot's rating says how strong the level is
    on this server)."""
    rows: list[Rating] = []
    for user_id, bot in seats:
        key = Rating.user_id == user_id if user_id is not None else Rating.bot == bot
        row = s.scalar(select(Rating).where(Rating.game == game_id, key))
        if row is None:
            row = Rating(game=game_id, user_id=user_id, bot=bot, rating=START, games=0)
            s.add(row)
        rows.append(row)
    if len(rows) < 2:
        return  # a solo game has nobody to be compared with
    ranking = [list(group) for group in final.result().ranking]
    before = [row.rating for row in rows]
    # One bot level in several seats gets the sum of its seats' changes.
    for row, old, new in zip(rows, before, updated(before, ranking), strict=True):
        row.rating = round(row.rating + new - old, 1)
    for row in {id(row): row for row in rows}.values():
        row.games += 1
