"""Group commit: the lines of the move log are written by one thread, many to a transaction.

Every move must be on disk before it is acknowledged, and a commit that reaches the disk is
the dear part of writing one (an fsync). Moves of different tables that arrive together are
written in one transaction and share its commit; each still waits until that commit has
returned. One writer thread also means writers never queue on SQLite's lock (whose busy
wait sleeps in steps of milliseconds).

Each piece comes with `done`, called from the writer's thread with None once the piece is
committed, or with what failed it: a `Waiter` for a thread that waits, or a callback that
hands the outcome to an event loop (lighter than a `concurrent.futures.Future`, whose lock
and condition cost more than writing the line).

A batch is written together (`together`, which may use one statement for many pieces). A
piece that fails (a guard that finds its move number taken) fails the batch, which is then
written again piece by piece, each in a savepoint of its own: the failing piece is undone
and its caller gets the exception, the rest commits. Pieces are written in the order of
their `order` key (the table's number), so that two processes' batches take their row locks
in the same order and never deadlock.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from sqlalchemy import Connection, Engine

log = logging.getLogger("meadow.store")

# A batch no longer than this keeps the first caller's wait bounded.
MOST_PER_COMMIT = 64


class Piece(Protocol):
    order: int


P = TypeVar("P", bound=Piece)

Done = Callable[[BaseException | None], None]


class WriterClosed(Exception):
    """The writer was closed (the server is stopping) before this piece was given to it:
    nothing of it was written."""


class Waiter:
    """For a thread that waits for its piece: give it as the piece's `done`, then `wait`."""

    __slots__ = ("_committed", "_failure")

    def __init__(self) -> None:
        self._committed = threading.Event()
        self._failure: BaseException | None = None

    def __call__(self, failure: BaseException | None) -> None:
        self._failure = failure
        self._committed.set()

    def wait(self, timeout: float | None = None) -> None:
        """Return once the piece is committed.

        Raises:
            what failed the piece (its changes undone), or TimeoutError.
        """
        if not self._committed.wait(timeout):
            raise TimeoutError(f"no answer from the writer within {timeout} s")
        if self._failure is not None:
            raise self._failure


class GroupWriter(Generic[P]):
    def __init__(
        self,
        engine: Engine,
        together: Callable[[Connection, list[P]], None],
        batch_size: Callable[[int], None] | None = None,
    ) -> None:
        """`together(connection, pieces)` writes pieces in a transaction (it does not
        commit); it raises if any piece cannot be written. `batch_size` hears how many
        pieces each transaction wrote (the metrics)."""
        self.engine = engine
        self.together = together
        self.batch_size = batch_size
        self.waiting: queue.SimpleQueue[tuple[P, Done] | None] = queue.SimpleQueue()
        # A piece given after `close` would wait for ever: refused instead, under this lock,
        # so that every piece is either before the end of the queue or refused.
        self.closing = threading.Lock()
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self.thread.start()

    def write(self, piece: P) -> None:
        """Write `piece` and return once it is committed.

        Raises:
            whatever writing it raised (its changes undone), or the commit's error.
        """
        waiter = Waiter()
        self.submit(piece, waiter)
        waiter.wait()

    def submit(self, piece: P, done: Done) -> None:
        """`write` without waiting: `done` hears the outcome, on the writer's thread (or
        WriterClosed at once, on the caller's, after `close`)."""
        with self.closing:
            if not self.closed:
                self.waiting.put((piece, done))
                return
        _tell(done, WriterClosed("the server is stopping: nothing more is written"))

    def close(self, timeout: float = 10) -> bool:
        """Write what was given so far, then stop; False if that took over `timeout`
        seconds (the rest is written while the process lives)."""
        with self.closing:
            self.closed = True
            self.waiting.put(None)
        self.thread.join(timeout=timeout)
        return not self.thread.is_alive()

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
            batch.sort(key=lambda waiting: waiting[0].order)
            self._commit(batch)
            if self.batch_size is not None:
                self.batch_size(len(batch))

    def _commit(self, batch: list[tuple[P, Done]]) -> None:
        try:
            try:
                with self.engine.begin() as connection:
                    self.together(connection, [piece for piece, _done in batch])
                failures: list[BaseException | None] = [None] * len(batch)
            except Exception:
                failures = self._apart(batch)
        except Exception as exc:  # the commit itself failed: nothing of the batch stands
            log.exception("a batch of %d log lines could not be committed", len(batch))
            failures = [exc] * len(batch)
        for (_piece, done), failure in zip(batch, failures, strict=True):
            _tell(done, failure)

    def _apart(self, batch: list[tuple[P, Done]]) -> list[BaseException | None]:
        failures: list[BaseException | None] = []
        with self.engine.begin() as connection:
            for piece, _done in batch:
                savepoint = connection.begin_nested()
                try:
                    self.together(connection, [piece])
                except Exception as exc:
                    savepoint.rollback()
                    failures.append(exc)
                else:
                    savepoint.commit()
                    failures.append(None)
        return failures


def _tell(done: Done, failure: BaseException | None) -> None:
    """A waiter hears its outcome; one that cannot (its event loop closed) must not stop
    the writer."""
    try:
        done(failure)
    except Exception:
        log.exception("a log line's waiter could not be told its outcome")
