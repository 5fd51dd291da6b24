"""Group commit: the lines of the move log are written by one thread, many to a transaction.

Every move must be on disk before it is acknowledged, and a commit that reaches the disk is
the dear part of writing one (an fsync). Moves of different tables that arrive together are
written in one transaction and share its commit; each still waits until that commit has
returned. One writer thread also means writers never queue on SQLite's lock (whose busy
wait sleeps in steps of milliseconds).

A piece of work that fails (a guard that finds its move number taken) is undone on its own
and its caller gets the exception; the rest of the batch commits. Since that is rare, a batch
first runs without savepoints; only if a piece fails is it run again, each piece inside a
savepoint of its own. Work
runs in the order of its `order` key (the table's number), so that two processes' batches
take their row locks in the same order and never deadlock.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine

log = logging.getLogger("meadow.store")
T = TypeVar("T")
Work = Callable[[Connection], Any]
Waiting = tuple[int, Work, "Future[Any]"]
Outcome = tuple["Future[Any]", Any, BaseException | None]

# A batch no longer than this keeps the first caller's wait bounded.
MOST_PER_COMMIT = 64


class GroupWriter:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.waiting: queue.SimpleQueue[Waiting | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self.thread.start()

    def write(self, work: Callable[[Connection], T], order: int = 0) -> T:
        """Run `work` in a transaction and return its result once that is committed.

        Raises:
            whatever `work` raised (its changes undone), or the commit's error.
        """
        return self.submit(work, order).result()

    def submit(self, work: Callable[[Connection], T], order: int = 0) -> Future[T]:
        """`write` without waiting: the future is done once the work is committed (or has
        failed), for a caller on an event loop that awaits it."""
        done: Future[T] = Future()
        self.waiting.put((order, work, done))
        return done

    def close(self) -> None:
        self.waiting.put(None)
        self.thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            first = self.waiting.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < MOST_PER_COMMIT:
                try:
                    more = self.waiting.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.waiting.put(None)  # finish this batch, then stop
                    break
                batch.append(more)
            self._commit(batch)

    def _commit(self, batch: list[Waiting]) -> None:
        batch.sort(key=lambda waiting: waiting[0])
        try:
            try:
                outcomes = self._transaction(batch, apart=False)
            except _Refused:  # one piece failed: again, each piece in a savepoint of its own
                outcomes = self._transaction(batch, apart=True)
        except Exception as exc:  # the commit itself failed: nothing of the batch stands
            log.exception("a batch of %d log lines could not be committed", len(batch))
            for _order, _work, done in batch:
                _tell(done, None, exc)
            return
        for done, result, error in outcomes:
            _tell(done, result, error)

    def _transaction(self, batch: list[Waiting], apart: bool) -> list[Outcome]:
        """One transaction for the batch. Savepoints cost two statements a piece, so they
        are only used (`apart`) once a piece has failed; without them a failure undoes the
        whole transaction (raises _Refused) and the batch is run again."""
        outcomes: list[Outcome] = []
        with self.engine.begin() as connection:
            for _order, work, done in batch:
                if not apart:
                    try:
                        outcomes.append((done, work(connection), None))
                    except Exception as exc:
                        raise _Refused from exc
                    continue
                savepoint = connection.begin_nested()
                try:
                    result = work(connection)
                except Exception as exc:
                    savepoint.rollback()
                    outcomes.append((done, None, exc))
                else:
                    savepoint.commit()
                    outcomes.append((done, result, None))
        return outcomes


class _Refused(Exception):
    """A piece of a batch run without savepoints failed."""


def _tell(done: Future[Any], result: Any, error: BaseException | None) -> None:
    """A waiter hears its outcome; one that gave up waiting (cancelled) must not stop the
    writer."""
    if done.cancelled():
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)
