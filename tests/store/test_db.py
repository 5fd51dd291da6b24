"""The store's connection pools: a thread that holds two connections of one pool is named."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from meadow.store import Database
from meadow.store.db import SECOND_CONNECTION as SECOND


def test_a_thread_taking_a_second_connection_of_a_pool_is_logged_with_its_calls(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    db = Database(f"sqlite:///{tmp_path / 'pools.db'}")
    with caplog.at_level(logging.WARNING, "meadow.store"), db.open() as first, db.open() as other:
        first.execute(text("SELECT 1"))
        other.execute(text("SELECT 1"))  # the first still holds its connection
    assert [r.getMessage() for r in caplog.records if SECOND in r.getMessage()] != []
    db.dispose()


def test_connections_taken_one_after_another_or_in_two_threads_are_not(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    db = Database(f"sqlite:///{tmp_path / 'pools.db'}")
    holding, done = threading.Event(), threading.Event()

    def hold_one() -> None:
        with db.open() as s:
            s.execute(text("SELECT 1"))
            holding.set()
            done.wait(10)

    with caplog.at_level(logging.WARNING, "meadow.store"):
        other = threading.Thread(target=hold_one)
        other.start()
        assert holding.wait(10)
        for _ in range(3):
            with db.open() as s:
                s.execute(text("SELECT 1"))
        with db.open() as reading, db.write() as writing:  # two pools on SQLite
            reading.execute(text("SELECT 1"))
            writing.execute(text("SELECT 1"))
        done.set()
        other.join()
    assert SECOND not in caplog.text
    db.dispose()
