"""Lines of the move log as the group writer writes them (`movelog.write_lines`), on SQLite
(the driver's own statements) and, where it answers, PostgreSQL (SQLAlchemy's)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from meadow.server.movelog import Line, Taken, write_lines
from meadow.store import Database, Move, Seat, Table, User
from tests.server.conftest import fresh_postgres

WHEN = datetime(2026, 11, 22, 10, 30, 15, 123456, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    with ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'log.db'}"
        if request.param == "postgresql":
            url = stack.enter_context(fresh_postgres())
        database = Database(url)
        stack.callback(database.dispose)
        database.migrate()
        add_two_tables(database)
        yield database


def add_two_tables(database: Database) -> None:
    with database.write() as s:
        host = User(name="host", password_hash="x")
        s.add(host)
        s.flush()
        for invite in ("a", "b"):
            table = Table(
                game="topiary", options={}, players=2, seed="1", mode="live",
                invite=invite, host_id=host.id, status="running",
            )  # fmt: skip
            table.seats = [Seat(number=0), Seat(number=1)]
            s.add(table)
        s.commit()


def line(table: int, number: int, seat: int = 0, used: int = 0) -> Line:
    values = {
        "p_table": table,
        "p_before": number - 1,
        "p_number": number,
        "p_seat": seat,
        "p_action": f"move {number}",
        "p_note": None,
        "p_now": WHEN + timedelta(seconds=number),
        "p_used": used,
        "p_status": "running",
    }
    return Line(table, values)


def write(db: Database, lines: list[Line]) -> None:
    with db.write_engine.begin() as connection:
        write_lines(connection, lines)


def test_a_batch_logs_each_line_advances_each_table_and_charges_each_clock(db: Database):
    write(db, [line(1, 1, seat=0, used=700), line(2, 1, seat=1, used=50)])
    write(db, [line(1, 2, seat=1, used=900)])
    with db.open() as s:
        moves = s.scalars(select(Move).order_by(Move.table_id, Move.number)).all()
        assert [(m.table_id, m.number, m.seat, m.action) for m in moves] == [
            (1, 1, 0, "move 1"),
            (1, 2, 1, "move 2"),
            (2, 1, 1, "move 1"),
        ]
        # Times read back through the ORM as they were written (the driver's own path on
        # SQLite must store them in the ORM's format).
        assert moves[1].created_at.replace(tzinfo=UTC) == WHEN + timedelta(seconds=2)
        first = s.get(Table, 1)
        assert first is not None and first.moves_made == 2
        assert first.updated_at.replace(tzinfo=UTC) == WHEN + timedelta(seconds=2)
        assert [seat.used_ms for seat in first.seats] == [700, 900]


def test_a_stale_guard_fails_the_batch_and_leaves_nothing(db: Database):
    write(db, [line(1, 1)])
    with pytest.raises(Taken):
        # Table 1 has made one move: a second line numbered 1 finds the guard moved on.
        write(db, [line(2, 1), line(1, 1)])
    with db.open() as s:
        assert s.get(Table, 2).moves_made == 0  # type: ignore[union-attr]
        assert len(s.scalars(select(Move)).all()) == 1


def test_a_number_already_in_the_log_is_refused(db: Database):
    # Only a writer that got past a stale guard could meet this; the unique (table, number)
    # is the last word.
    with db.write() as s:
        s.add(Move(table_id=2, number=1, seat=0, action="someone else's"))
        s.commit()
    with pytest.raises((Taken, IntegrityError)):
        write(db, [line(2, 1)])
    with db.open() as s:
        assert s.get(Table, 2).moves_made == 0  # type: ignore[union-attr]
