"""`Tables`: what the rooms of `meadow.server.tables` share, and the one door every caller
(the routers, the sockets, the clock's tick, moderation) comes through. Each of its methods
names the room that does the work; the package's docstring is the map."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from meadow.core.game import State
from meadow.server import metrics
from meadow.server.botrules import BotRules
from meadow.server.cluster import TABLE, Alone, RedisCluster
from meadow.server.live import Entry, Listener, LiveTable
from meadow.server.looks import Looks
from meadow.server.mail import Mailer
from meadow.server.movelog import write_lines
from meadow.server.tables.bots import BotsAtTables
from meadow.server.tables.clockwatch import ClockWatch
from meadow.server.tables.memory import Memory
from meadow.server.tables.moves import MovePath
from meadow.server.tables.news import ClusterNews
from meadow.server.tables.seating import Seating
from meadow.server.tables.telling import Telling
from meadow.server.thinking import thinkers
from meadow.store import Database, User
from meadow.store.writer import GroupWriter

# A running table idle this long, nobody watching and a person to move, leaves memory
# (`Memory.rest_idle`).
IDLE_SECONDS = 600.0


class Tables:
    """The tables of one server process."""

    def __init__(
        self,
        db: Database,
        bot_workers: int = 2,
        mailer: Mailer | None = None,
        cluster: Alone | RedisCluster | None = None,
        bot_rules: BotRules | None = None,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.db = db
        self.idle_seconds = idle_seconds
        self.rest_at = datetime.now(UTC)  # when `rest_idle` looks next
        self.looks = Looks(self.rest_at)  # when the clock's look sees each table
        self.bot_rules = bot_rules or BotRules()
        self.mailer = mailer
        self.cluster = cluster or Alone()
        self.live: dict[int, LiveTable] = {}  # the tables in memory (`Memory`)
        self.guard = threading.Lock()  # guards `live` itself
        self.writer = GroupWriter(db.write_engine, write_lines, metrics.BATCH_LINES.observe)
        # Bots think in other processes (a search holds the interpreter for its whole
        # budget); a thread per worker waits for the answer and submits it.
        self.thinkers = thinkers(bot_workers)
        self.bot_threads = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="bot")
        self.hearing = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hear")
        self.closed = False
        self.handing_over = False  # stopping: bots no longer play here
        # The rooms, each a module of this package.
        self.memory = Memory(self)
        self.seating = Seating(self)
        self.moves = MovePath(self)
        self.telling = Telling(self)
        self.news = ClusterNews(self)
        self.bots = BotsAtTables(self)
        self.clocks = ClockWatch(self)

    def hand_over(self) -> int:
        """The process is stopping: its bots play no more moves, and (in a cluster) its
        tables' leases go back, so that other processes host them at once. Returns how many
        tables were handed over."""
        self.handing_over = True
        return self.cluster.hand_over()

    def close(self, timeout: float = 10) -> bool:
        """Stop, once every line given to the log writer is committed (False if that took
        over `timeout` seconds)."""
        self.closed = self.handing_over = True
        self.bot_threads.shutdown(wait=False, cancel_futures=True)
        self.hearing.shutdown(wait=False, cancel_futures=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        return self.writer.close(timeout)

    # -- resting and waking: `memory` -----------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        return self.memory.get(table_id)

    def watched(self, table_id: int) -> LiveTable | None:
        return self.memory.watched(table_id)

    def held(self) -> list[LiveTable]:
        return self.memory.held()

    def forget_if_done(self, live: LiveTable) -> bool:
        return self.memory.forget_if_done(live)

    def rest_idle(self, now: datetime | None = None) -> list[int]:
        return self.memory.rest_idle(now)

    def wake_due(self, now: datetime | None = None) -> list[int]:
        return self.memory.wake_due(now)

    # -- seats and the waiting room: `seating` -----------------------------------------

    def create(
        self,
        host: User,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seats: list[str | None],
        mode: str,
        clock: dict[str, Any] | None = None,
        most_open: int | None = None,
        private: bool = False,
        hints: bool = False,
        seed: int | None = None,
        kept_for: int | None = None,
    ) -> int:
        return self.seating.create(
            host,
            game_id,
            players,
            options,
            seats,
            mode,
            clock,
            most_open,
            private,
            hints,
            seed,
            kept_for,
        )

    def join(self, table_id: int, user: User) -> int:
        return self.seating.join(table_id, user)

    def leave(self, table_id: int, user: User) -> None:
        self.seating.leave(table_id, user)

    def reclaim(self, table_id: int, user: User) -> int:
        return self.seating.reclaim(table_id, user)

    def rematch(self, table_id: int, user: User) -> int:
        return self.seating.rematch(table_id, user)

    def start(self, table_id: int, user: User) -> None:
        self.seating.start(table_id, user)

    # -- the move path: `moves` ----------------------------------------------------------

    def submit(
        self, table_id: int, seat: int, expected: int, text: str, note: str | None = None
    ) -> tuple[State, Entry]:
        return self.moves.submit(table_id, seat, expected, text, note)

    async def play(
        self, live: LiveTable, seat: int, expected: int, text: str, mover: Listener
    ) -> bool:
        return await self.moves.play(live, seat, expected, text, mover)

    def undo(self, table_id: int, seat: int, expected: int) -> dict[str, Any]:
        return self.moves.undo(table_id, seat, expected)

    # -- telling listeners: `telling` --------------------------------------------------

    def sync(
        self,
        live: LiveTable,
        seat: int | None,
        since: int = 0,
        muted: frozenset[int] = frozenset(),
    ) -> dict[str, Any]:
        return self.telling.sync(live, seat, since, muted)

    def subscribe(self, live: LiveTable, listener: Listener, since: int = 0) -> LiveTable:
        return self.telling.subscribe(live, listener, since)

    def unsubscribe(self, live: LiveTable, listener: Listener) -> None:
        self.telling.unsubscribe(live, listener)

    # -- cluster news and hosting: `news` ----------------------------------------------

    def current(self, table_id: int) -> LiveTable:
        return self.news.current(table_id)

    def restore(self) -> int:
        return self.news.restore()

    def follow(self, table_id: int, kind: str = TABLE) -> None:
        self.news.follow(table_id, kind)

    def adopt(self) -> None:
        self.news.adopt()

    def refresh(self, table_id: int) -> None:
        self.news.refresh(table_id)

    def _recount(self) -> list[int]:
        return self.news.recount()

    # -- clocks and bots: `clocks`, `bots` ---------------------------------------------

    def check_clocks(self, now: datetime | None = None) -> int:
        return self.clocks.check(now)

    def give_seat_to_bot(self, table_id: int, seat: int, user_id: int, reason: str) -> bool:
        return self.bots.give_seat_to_bot(table_id, seat, user_id, reason)
