"""Group commit: many pieces of work in one transaction, each answered on its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from meadow.store import Database
from meadow.store.writer import GroupWriter


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[GroupWriter]:
    db = Database(f"sqlite:///{tmp_path / 'writer.db'}")
    with db.write_engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE line (number INTEGER PRIMARY KEY)")
    group = GroupWriter(db.write_engine)
    yield group
    group.close()
    db.dispose()


def insert(number: int) -> object:
    def work(connection: Connection) -> int:
        connection.execute(text("INSERT INTO line (number) VALUES (:n)"), {"n": number})
        return number

    return work


def numbers(writer: GroupWriter) -> list[int]:
    with writer.engine.connect() as connection:
        return [row[0] for row in connection.execute(text("SELECT number FROM line"))]


def batched(writer: GroupWriter, works: list[object]) -> list[Future[object]]:
    """Submit `works` while the writer is held, so that they make one batch."""
    held, release = threading.Event(), threading.Event()

    def hold(_connection: Connection) -> None:
        held.set()
        release.wait(10)

    first = writer.submit(hold)
    assert held.wait(10)
    futures = [writer.submit(work, order=i) for i, work in enumerate(works)]  # type: ignore[arg-type]
    release.set()
    first.result(10)
    return futures


def test_a_batch_commits_together_and_answers_each(writer: GroupWriter) -> None:
    futures = batched(writer, [insert(n) for n in (1, 2, 3)])
    assert [f.result(10) for f in futures] == [1, 2, 3]
    assert sorted(numbers(writer)) == [1, 2, 3]


def test_a_failing_piece_is_undone_alone(writer: GroupWriter) -> None:
    writer.write(insert(7))
    # 7 again breaks the primary key: only that piece fails, the others of its batch stand.
    futures = batched(writer, [insert(5), insert(7), insert(9)])
    assert futures[0].result(10) == 5
    assert futures[2].result(10) == 9
    with pytest.raises(Exception, match="UNIQUE"):
        futures[1].result(10)
    assert sorted(numbers(writer)) == [5, 7, 9]


def test_a_waiter_that_gave_up_does_not_stop_the_writer(writer: GroupWriter) -> None:
    held, release = threading.Event(), threading.Event()
    writer.submit(lambda _c: (held.set(), release.wait(10)))
    assert held.wait(10)
    abandoned = writer.submit(insert(1))
    assert abandoned.cancel()
    release.set()
    assert writer.write(insert(2)) == 2  # the writer lives on after the cancelled one
    assert 2 in numbers(writer)
