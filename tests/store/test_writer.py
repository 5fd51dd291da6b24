"""Group commit: many pieces in one transaction, each answered on its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import Connection, text

from meadow.store import Database
from meadow.store.writer import GroupWriter, Waiter


@dataclass
class Number:
    order: int
    hold: threading.Event | None = None  # the writer waits for it: later pieces pile up
    held: threading.Event = field(default_factory=threading.Event)


def insert(connection: Connection, pieces: list[Number]) -> None:
    for piece in pieces:
        if piece.hold is not None:
            piece.held.set()
            piece.hold.wait(10)
            continue
        connection.execute(text("INSERT INTO line (number) VALUES (:n)"), {"n": piece.order})


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[GroupWriter[Number]]:
    db = Database(f"sqlite:///{tmp_path / 'writer.db'}")
    with db.write_engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE line (number INTEGER PRIMARY KEY)")
    group = GroupWriter(db.write_engine, insert)
    yield group
    group.close()
    db.dispose()


def numbers(writer: GroupWriter[Number]) -> list[int]:
    with writer.engine.connect() as connection:
        return sorted(row[0] for row in connection.execute(text("SELECT number FROM line")))


def batched(writer: GroupWriter[Number], orders: list[int]) -> list[Waiter]:
    """Submit pieces while the writer is held, so that they make one batch."""
    release = threading.Event()
    holding = Number(order=0, hold=release)
    first = Waiter()
    writer.submit(holding, first)
    assert holding.held.wait(10)
    waiters = [Waiter() for _ in orders]
    for order, waiter in zip(orders, waiters, strict=True):
        writer.submit(Number(order), waiter)
    release.set()
    first.wait(10)
    return waiters


def test_a_batch_commits_together_and_answers_each(writer: GroupWriter[Number]) -> None:
    waiters = batched(writer, [3, 1, 2])
    for waiter in waiters:
        waiter.wait(10)
    assert numbers(writer) == [1, 2, 3]


def test_a_failing_piece_is_undone_alone(writer: GroupWriter[Number]) -> None:
    writer.write(Number(7))
    # 7 again breaks the primary key: only that piece fails, the others of its batch stand.
    waiters = batched(writer, [5, 7, 9])
    waiters[0].wait(10)
    waiters[2].wait(10)
    with pytest.raises(Exception, match="UNIQUE"):
        waiters[1].wait(10)
    assert numbers(writer) == [5, 7, 9]


def test_a_waiter_that_cannot_be_told_does_not_stop_the_writer(
    writer: GroupWriter[Number],
) -> None:
    def broken(_failure: BaseException | None) -> None:
        raise RuntimeError("event loop is closed")

    writer.submit(Number(1), broken)
    writer.write(Number(2))  # the writer lives on after the waiter that failed
    assert numbers(writer) == [1, 2]
