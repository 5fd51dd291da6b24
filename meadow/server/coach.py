"""The coach at the server: analyses of finished games, asked for, queued, computed once, kept.

A person who may see a finished game asks for its analysis (`Coach.ask`): one row in
`analyses`, inserted once however many ask at once (its key is the table). Every server
process runs `Coach.run`, which takes queued work by a guarded update (`_claim`): of two
processes, or two loops of one, the database lets exactly one set the claim. The work runs in
the coach's own worker processes, at the lowest CPU priority and resting between decisions to
keep within `analysis_cpu_share` of a core, so that live tables' bots keep their pace; each
worker writes its progress and then the analysis into the row, every write naming its claim.
A process that falls silent for `STALE` loses the work to the next one that looks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from functools import cache
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession

from meadow import games
from meadow.analysis import analyse_game, suggest
from meadow.bots import observe
from meadow.core.record import GameRecord
from meadow.server.errors import ApiError
from meadow.server.settings import Settings
from meadow.server.thinking import leave_with
from meadow.store import Database, GameAnalysis, Seat, Table, User

if TYPE_CHECKING:
    from meadow.server.tables import Tables

log = logging.getLogger("meadow.coach")

STALE = timedelta(minutes=2)  # a worker silent this long has lost its analysis
LOOK_EVERY = 2.0  # seconds between looks for queued work, besides the nudge of a request
SAY_EVERY = 1.0  # seconds between a worker's reports of its progress
WAITING = ("queued", "running")


class LostClaim(Exception):
    """Another process took the analysis over: this one stops and writes nothing more."""


class Coach:
    """Analyses of finished games for one server process."""

    def __init__(self, db: Database, config: Settings) -> None:
        self.db = db
        self.enabled = config.analysis
        self.workers = config.analysis_workers
        self.seconds = config.analysis_seconds_per_move
        self.worlds = config.analysis_worlds
        self.share = config.analysis_cpu_share
        self.per_person = config.analyses_per_person
        self.hint_seconds = config.hint_seconds
        self.hint_worlds = config.hint_worlds
        self.running: set[int] = set()
        self.nudged = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop `run` waits in
        self._pool: ProcessPoolExecutor | None = None

    # -- asking ---------------------------------------------------------------------------

    def ask(self, table_id: int, user: User, moves: int) -> dict[str, Any]:
        """Queue the analysis of a finished table (once: a second request finds the first);
        a failed one is queued again.

        Raises:
            ApiError: 403 when analysis is off here; 429 when the person already has
                `analyses_per_person` waiting.
        """
        if not self.enabled:
            raise ApiError(403, "this server does not analyse games (MEADOW_ANALYSIS is off)")
        with self.db.write() as s:
            found = s.get(GameAnalysis, table_id)
            if found is not None and found.status != "failed":
                return self._shown(s, table_id, found)
            # The person's row is locked (PostgreSQL; SQLite's write transaction locks the
            # whole database): two requests of theirs count one after the other.
            s.execute(select(User.id).where(User.id == user.id).with_for_update())
            waiting = s.scalar(
                select(func.count())
                .select_from(GameAnalysis)
                .where(GameAnalysis.requested_by == user.id, GameAnalysis.status.in_(WAITING))
            )
            if waiting >= self.per_person:
                raise ApiError(
                    429,
                    f"you have {waiting} analyses waiting or running, the most this server "
                    f"keeps for one person (analyses_per_person {self.per_person})",
                )
            if found is None:
                found = GameAnalysis(table_id=table_id, total_moves=moves, requested_by=user.id)
                s.add(found)
            else:
                found.status, found.error, found.claim = "queued", None, None
                found.requested_by, found.done_moves = user.id, 0
            try:
                s.commit()
            except IntegrityError:  # another request inserted it first: that one stands
                s.rollback()
                found = s.get(GameAnalysis, table_id)
                assert found is not None
        if self.loop is not None:  # asked in a request's thread: the loop's event is woken
            self.loop.call_soon_threadsafe(self.nudged.set)
        return self.state(table_id)

    def state(self, table_id: int) -> dict[str, Any]:
        """What the page shows: `none` asked yet, its progress, or the analysis; and at a
        table that allowed hints, how many each seat asked for."""
        with self.db.open() as s:
            return self._shown(s, table_id, s.get(GameAnalysis, table_id))

    def _shown(self, s: DbSession, table_id: int, found: GameAnalysis | None) -> dict[str, Any]:
        shown = NOT_ASKED if found is None else _state(found)
        return {**shown, "enabled": self.enabled, "hints": hints_used(s, table_id)}

    # -- hints --------------------------------------------------------------------------

    def hint(self, hub: Tables, table_id: int, user: User) -> dict[str, Any]:
        """The coach's move for the asking person's seat, on its turn, at a table that
        allows hints: worked out once for each decision (the seat's row, by a guarded
        update, says whether this decision's hint was asked already), counted, kept.

        Raises:
            ApiError: 403 at a table without hints (a rated one) or for a person with no
                seat there; 409 when it is not their turn, or their hint for this decision
                is still being worked out.
        """
        live = hub.current(table_id)
        if not live.hints:
            raise ApiError(
                403,
                "this table is rated: no hints (a table allows hints when it is created, "
                "and is then not rated)",
            )
        seat = live.seat_of(user.id)
        if seat is None:
            raise ApiError(403, "only a player at this table may ask for a hint")
        with live.lock:
            state = live.state
            if live.status != "running" or state is None or state.to_move != seat:
                raise ApiError(409, "a hint is for your own turn", move=live.moves_made)
            number, state_json = live.moves_made + 1, state.to_json()
        kept = self._take_hint(table_id, seat, number)
        if kept is not None:
            return kept
        future = hub.thinkers.submit(
            hint_in_worker,
            live.game.id,
            state_json,
            seat,
            number,
            self.hint_seconds,
            self.hint_worlds,
        )
        hint = {**future.result(timeout=self.hint_seconds + 60), "number": number}
        with self.db.write() as s:
            s.execute(
                update(Seat)
                .where(Seat.table_id == table_id, Seat.number == seat, Seat.hint_move == number)
                .values(hint=hint)
            )
            s.commit()
        return hint

    def _take_hint(self, table_id: int, seat: int, number: int) -> dict[str, Any] | None:
        """Count a hint for decision `number`, or find the one asked for it already."""
        fresh = or_(Seat.hint_move.is_(None), Seat.hint_move < number)
        with self.db.write() as s:
            taken = s.execute(
                update(Seat)
                .where(Seat.table_id == table_id, Seat.number == seat, fresh)
                .values(hint_move=number, hint=None, hints_used=Seat.hints_used + 1)
            )
            if taken.rowcount == 1:
                s.commit()
                return None
            kept = s.scalar(select(Seat.hint).where(Seat.table_id == table_id, Seat.number == seat))
        if kept is None or kept.get("number") != number:
            raise ApiError(409, "your hint for this move is still being worked out")
        return kept

    # -- working --------------------------------------------------------------------------

    async def run(self, record_of: Any) -> None:
        """Take queued analyses as long as this process has a free worker, forever.
        `record_of(table_id)` gives a finished table's record."""
        if not self.enabled:
            return
        loop = self.loop = asyncio.get_running_loop()
        while True:
            while len(self.running) < self.workers:
                claimed = await loop.run_in_executor(None, self._claim)
                if claimed is None:
                    break
                table_id, claim = claimed
                self.running.add(table_id)
                task = asyncio.create_task(self._compute(table_id, claim, record_of))
                task.add_done_callback(lambda _, t=table_id: self.running.discard(t))
            self.nudged.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.nudged.wait(), LOOK_EVERY)

    def _claim(self) -> tuple[int, str] | None:
        """The oldest queued analysis (or one whose worker fell silent), claimed for this
        process by a guarded update: None when there is none, or another took it first."""
        stale = datetime.now(UTC) - STALE
        waiting = (GameAnalysis.status == "queued") | (
            (GameAnalysis.status == "running") & (GameAnalysis.heard_at < stale)
        )
        oldest = select(GameAnalysis.table_id).where(waiting)
        if self.running:  # this process's own work is never stale to it
            oldest = oldest.where(GameAnalysis.table_id.not_in(self.running))
        # Looked for in a read first: the loop looks every few seconds, and on SQLite a
        # write transaction would take the database's write lock from the move log each time.
        with self.db.open() as s:
            table_id = s.scalar(oldest.order_by(GameAnalysis.requested_at).limit(1))
        if table_id is None:
            return None
        with self.db.write() as s:
            claim = secrets.token_hex(16)
            taken = s.execute(
                update(GameAnalysis)
                .where(GameAnalysis.table_id == table_id, waiting)
                .values(status="running", claim=claim, heard_at=datetime.now(UTC), done_moves=0)
            )
            s.commit()
        return (table_id, claim) if taken.rowcount == 1 else None

    async def _compute(self, table_id: int, claim: str, record_of: Any) -> None:
        loop = asyncio.get_running_loop()
        try:
            record: GameRecord = await loop.run_in_executor(None, record_of, table_id)
            await loop.run_in_executor(
                self.pool(),
                analyse_in_worker,
                self.db.url,
                table_id,
                claim,
                record.to_json(),
                self.seconds,
                self.worlds,
                self.share,
            )
            log.info("analysis of table %s done", table_id)
        except LostClaim:
            log.info("analysis of table %s: taken over by another process", table_id)
        except Exception as exc:
            log.exception("analysis of table %s failed", table_id)
            await loop.run_in_executor(None, self._failed, table_id, claim, exc)

    def _failed(self, table_id: int, claim: str, exc: Exception) -> None:
        with self.db.write() as s:
            s.execute(
                update(GameAnalysis)
                .where(GameAnalysis.table_id == table_id, GameAnalysis.claim == claim)
                .values(status="failed", error=f"{type(exc).__name__}: {exc}"[:200])
            )
            s.commit()

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=get_context("spawn"),
                initializer=_analyst,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


NOT_ASKED = {"status": "none", "done_moves": 0, "total_moves": 0, "analysis": None, "error": None}


def hints_used(s: DbSession, table_id: int) -> list[int] | None:
    """Hints each seat asked for, at a table that allows them (None at one that does not)."""
    if not s.scalar(select(Table.hints).where(Table.id == table_id)):
        return None
    counts = s.execute(
        select(Seat.number, Seat.hints_used).where(Seat.table_id == table_id).order_by(Seat.number)
    )
    return [used for _, used in counts]


def _state(found: GameAnalysis) -> dict[str, Any]:
    return {
        "status": found.status,
        "done_moves": found.done_moves,
        "total_moves": found.total_moves,
        "analysis": found.result if found.status == "done" else None,
        "error": "the analysis failed; ask again" if found.status == "failed" else None,
    }


# -- in a worker process --------------------------------------------------------------------


def _analyst(server: int) -> None:
    """A coach's worker: the lowest CPU priority, so that a bot's think (in its own worker,
    at normal priority) comes first whenever both want a core; and gone with its server."""
    with contextlib.suppress(OSError):
        os.nice(19)
    leave_with(server)


@cache
def _database(url: str) -> Database:
    return Database(url)


def analyse_in_worker(
    url: str,
    table_id: int,
    claim: str,
    record_json: dict[str, Any],
    seconds: float,
    worlds: int,
    share: float,
) -> None:
    """Analyse the record, reporting progress into the table's row, and store the result:
    every write only while the row still holds this claim (else `LostClaim`)."""
    db = _database(url)
    record = GameRecord.from_json(record_json)
    rest = Rest(share)
    last_said = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last_said
        rest.after_work()
        if time.monotonic() - last_said >= SAY_EVERY or done == total:
            _write(db, table_id, claim, done_moves=done, total_moves=total)
            last_said = time.monotonic()

    analysis = analyse_game(record, seconds, worlds, progress)
    _write(
        db,
        table_id,
        claim,
        status="done",
        result=analysis.to_json(),
        finished_at=datetime.now(UTC),
    )


def hint_in_worker(
    game_id: str, state_json: dict[str, Any], seat: int, number: int, seconds: float, worlds: int
) -> dict[str, Any]:
    """In a bot worker: the hint, from the seat's observation only (as a bot's think)."""
    state = games.get(game_id).state_from_json(state_json)
    return suggest(observe(state, seat), number, seconds, worlds).to_json()


def _write(db: Database, table_id: int, claim: str, **values: Any) -> None:
    with db.write() as s:
        written = s.execute(
            update(GameAnalysis)
            .where(GameAnalysis.table_id == table_id, GameAnalysis.claim == claim)
            .values(heard_at=datetime.now(UTC), **values)
        )
        s.commit()
    if written.rowcount != 1:
        raise LostClaim(table_id)


class Rest:
    """Keeps a worker's work within `share` of its time: after each stretch of work, a rest
    of work x (1 - share) / share. The CPU time of the process is what counts as work."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.since = time.process_time()

    def after_work(self) -> None:
        worked = time.process_time() - self.since
        if self.share < 1 and worked > 0:
            time.sleep(worked * (1 - self.share) / self.share)
        self.since = time.process_time()
