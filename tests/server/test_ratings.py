"""Elo rows as the move log's writer stores them at a game's end (`ratings.rate`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import select

from meadow.core.result import Result
from meadow.server.ratings import START, rate, updated
from meadow.store import Database, Rating, User


@dataclass
class Finished:
    """Stands in for a finished game's state: `rate` asks it only for its ranking."""

    ranking: tuple[tuple[int, ...], ...]

    def result(self) -> Result:
        seats = sum(len(group) for group in self.ranking)
        return Result((0,) * seats, ({},) * seats, self.ranking)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'ratings.db'}")
    database.migrate()
    with database.write() as s:
        s.add_all([User(name="ada", password_hash="x"), User(name="bo", password_hash="x")])
        s.commit()
    yield database
    database.dispose()


def stored(db: Database) -> dict[str, tuple[float, int]]:
    with db.open() as s:
        rows = s.scalars(select(Rating).where(Rating.game == "topiary")).all()
        return {(r.user.name if r.user else r.bot): (r.rating, r.games) for r in rows}


def finish(db: Database, seats: list[tuple[int | None, str | None]], *ranking: tuple) -> None:
    with db.write_engine.begin() as connection:
        rate(connection, "topiary", seats, Finished(tuple(ranking)))  # type: ignore[arg-type]


def test_first_game_makes_rows_and_the_next_updates_them(db: Database) -> None:
    finish(db, [(1, None), (None, "easy")], (0,), (1,))
    first = updated([START, START], [[0], [1]])
    assert stored(db) == {"ada": (first[0], 1), "easy": (first[1], 1)}
    finish(db, [(None, "easy"), (1, None)], (0,), (1,))
    second = updated([first[1], first[0]], [[0], [1]])
    assert stored(db) == {"ada": (second[1], 2), "easy": (second[0], 2)}


def test_one_bot_level_in_two_seats_gets_the_sum_of_their_changes(db: Database) -> None:
    finish(db, [(2, None), (None, "easy"), (None, "easy")], (1,), (0,), (2,))
    after = updated([START] * 3, [[1], [0], [2]])
    # The bot's two seats won once and lost once against each other: one row, one game.
    assert stored(db) == {
        "bo": (after[0], 1),
        "easy": (round(START + (after[1] - START) + (after[2] - START), 1), 1),
    }


def test_a_solo_game_rates_nobody(db: Database) -> None:
    finish(db, [(1, None)], (0,))
    assert stored(db) == {}
