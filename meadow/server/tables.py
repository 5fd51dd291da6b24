"""Tables at play: the one place where moves are applied, logged and announced.

Each running table lives in memory as its state plus the events of every move (for resync),
rebuilt from the move log when first needed. A move goes through `submit` (worker threads)
or `play` (the event loop) only, both one path: under the table's lock `_propose` checks the
move number the client expected (a stale or repeated submission gets 409 and is never
applied twice), the seat, and legality (on a copy of the state), and starts committing the
move's line, which the table holds as pending; once the line is in the log, `_settle` swaps
in the new state and tells every listener, each through `outbound` with its own view. The
lock is never held while waiting for a commit. Bots think in worker processes and move
through the same path, so they too are one move at a time.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, NoReturn

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession

from meadow import games
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.record import GameRecord
from meadow.core.rng import Rng, new_seed
from meadow.core.undo import why_not_undoable
from meadow.server import chat, metrics, outbound
from meadow.server.botrules import BotRules
from meadow.server.clocks import Clock
from meadow.server.cluster import CHAT, FRESH, LINE, TABLE, Alone, RedisCluster
from meadow.server.errors import ApiError
from meadow.server.live import UNDO, Entry, Listener, LiveTable, encode
from meadow.server.looks import Looks
from meadow.server.mail import Mailer
from meadow.server.movelog import Taken, write_line, write_lines
from meadow.server.ratings import rate
from meadow.server.thinking import think, thinkers
from meadow.store import Database, Move, Seat, Table, User
from meadow.store.writer import Done, GroupWriter, Waiter, WriterClosed

log = logging.getLogger("meadow.server")


@dataclass
class Proposal:
    """A move checked and applied to a copy of the state, its line being committed."""

    live: LiveTable
    entry: Entry
    after: State
    now: datetime
    mover: Listener | None = None  # the socket it came on: its news carries the ack
    started: float = field(default_factory=time.perf_counter)  # for the move's latency


# A table's log lines after a number, each with its seat's clock (`Tables._read_lines`).
# A running table idle this long, nobody watching and a person to move, leaves memory
# (`rest_idle`); the look for such tables runs this often, not at every tick.
IDLE_SECONDS = 600.0
REST_EVERY_SECONDS = 60.0

_NEW_LINES = (
    select(Move.number, Move.seat, Move.action, Move.note, Move.created_at, Seat.used_ms)
    .join(Seat, (Seat.table_id == Move.table_id) & (Seat.number == Move.seat))
    .where(Move.table_id == bindparam("p_table"), Move.number > bindparam("p_after"))
    .order_by(Move.number)
)


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
        self.looks = Looks(self.rest_at)  # when `check_clocks` looks at each table
        self.bot_rules = bot_rules or BotRules()
        self.mailer = mailer
        self.cluster = cluster or Alone()
        self.live: dict[int, LiveTable] = {}
        self.guard = threading.Lock()  # guards `live` itself
        # Bots think in other processes (a search holds the interpreter for its whole
        # budget); a thread per worker waits for the answer and submits it.
        self.writer = GroupWriter(db.write_engine, write_lines, metrics.BATCH_LINES.observe)
        self.thinkers = thinkers(bot_workers)
        self.bots = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="bot")
        self.hearing = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hear")
        self.closed = False
        self.handing_over = False  # stopping: bots no longer play here

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
        self.bots.shutdown(wait=False, cancel_futures=True)
        self.hearing.shutdown(wait=False, cancel_futures=True)
        self.thinkers.shutdown(wait=False, cancel_futures=True)
        return self.writer.close(timeout)

    # -- loading ----------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        """The table: the one in memory, else read from the database and kept while it is
        at play. A table no longer at play is kept only while someone watches it
        (`subscribe`), so that its readers do not fill the process's memory."""
        with self.guard:
            live = self.live.get(table_id)
        if live is not None and not live.gone:
            live.touched = datetime.now(UTC)
            return live
        loaded = self._load(table_id)
        if loaded.status not in ("open", "running"):
            return loaded
        kept = self._keep(loaded)
        if kept is loaded and loaded.resting and self.cluster.hosts(table_id):
            self._set_due(table_id, None)  # back in its host's memory: its clock is watched
        return kept

    def _keep(self, live: LiveTable) -> LiveTable:
        """The table in memory under its number: the one already there, else `live` from
        now on, whose news this process hears from now on too."""
        with self.guard:
            kept = self.live.get(live.id)
            if kept is None or kept.gone:
                self.live[live.id] = kept = live
                self.cluster.hold(live.id)
                self.looks.ask(live.id)
            return kept

    def watched(self, table_id: int) -> LiveTable | None:
        """The table if it is in memory here (at play, or watched), else None."""
        with self.guard:
            live = self.live.get(table_id)
        return None if live is None or live.gone else live

    def held(self) -> list[LiveTable]:
        """The tables in this process's memory."""
        with self.guard:
            return list(self.live.values())

    def current(self, table_id: int) -> LiveTable:
        """The table with every line logged so far, by any process: what a reader who may
        have just heard of a move elsewhere must be shown (news may still be on its way)."""
        live = self.get(table_id)
        if self.cluster.shared:
            self._catch_up(live)
        return live

    def _load(self, table_id: int) -> LiveTable:
        with self.db.open() as s:
            table = s.get(Table, table_id)
            if table is None:
                raise ApiError(404, f"there is no table {table_id}")
            moves = s.scalars(
                select(Move).where(Move.table_id == table_id).order_by(Move.number)
            ).all()
            live = _live(table)
            chat.load(live, s)
        # A running game an admin closed ("abandoned" with moves) still shows its position.
        if live.status in ("running", "finished") or moves:
            record = GameRecord(live.game.id, live.players, live.options, live.seed)
            live.state = record.initial_state()
            for move in moves:
                self._replay_line(live, move.number, move.seat, move.action, move.note)
        return live

    def _replay_line(
        self, live: LiveTable, number: int, seat: int, action: str, note: str | None
    ) -> Entry:
        """A line read back from the log (or heard from another process), applied to the
        table in memory."""
        assert live.state is not None
        if action == UNDO:
            undone = live.standing.pop()
            entry = Entry(number, seat, UNDO, [], note, undone.number)
            live.log.append(entry)
            live.rebuild()
            self.looks.ask(live.id)
            return entry
        events = live.state.apply(live.state.parse_action(action))
        entry = Entry(number, seat, action, events, note)
        self._remember(live, entry)
        return entry

    def restore(self) -> int:
        """Bring every running table back after a start and let its bots carry on (in a
        cluster, `adopt` does this for the tables this process comes to host)."""
        if self.cluster.shared:
            return 0
        with self.db.open() as s:
            running = s.scalars(select(Table.id).where(Table.status == "running")).all()
        for table_id in running:
            self._schedule_bot(self.get(table_id))
        return len(running)

    # -- several processes ------------------------------------------------------------

    def follow(self, table_id: int, kind: str = TABLE) -> None:
        """News from another process (on its listening thread): `kind` of table `table_id`
        changed (LINE: new lines of its log; CHAT: of its chat; TABLE: anything else), or
        (FRESH) this process has just begun to hear the table's news and reads what it may
        have missed. News is only a hint to read the log: whoever can publish on the
        channel can make this process read, never make it believe a move. The reading is
        done by a few threads, so that one table's round trips to the database do not hold
        up news of the others; two readers of one table take turns on its lock, and the
        later one reads what the earlier did not."""
        with self.guard:  # a table's news is looked up by its number, not by a pass over all
            live = self.live.get(table_id)
        try:
            if live is None:
                if self.cluster.hosts(table_id):
                    # A table resting out of memory changed elsewhere (or may have, while
                    # this process did not hear it): its host holds it again, so that its
                    # bots and clock carry on from what changed.
                    self.hearing.submit(self._hold, table_id)
            elif kind == FRESH:
                self.hearing.submit(self._hear, live, FRESH)
            elif not self._let_go(live):
                self.hearing.submit(self._hear, live, kind)
        except RuntimeError:  # closed: the process is stopping, its listeners gone
            return

    def _let_go(self, live: LiveTable) -> bool:
        """A table another process hosts, held here for a request and watched by nobody
        here, leaves memory at its first news instead of following it: read again if asked
        for, it costs nothing meanwhile (without this, a table created or joined through
        this process had every move applied here too). True if it left."""
        if self.cluster.hosts(live.id):
            return False
        with live.lock:  # then the guard: never the other way round
            return not live.busy and self._drop(live)

    def _hold(self, table_id: int) -> None:
        try:
            self.get(table_id)
        except ApiError:  # deleted meanwhile: the next recount forgets its host
            pass
        except Exception:
            log.exception("table %s: could not read it back after news", table_id)

    def _hear(self, live: LiveTable, kind: str) -> None:
        try:
            if kind in (CHAT, FRESH):  # FRESH: whatever may have been missed, chat too
                chat.hear(self, live)
            if kind == CHAT or self._read_lines(live):
                return
            # A line's news with nothing new to read: another reader was quicker. Unless
            # the table is not at play here yet (its start's news still on its way).
            if kind != LINE or live.status != "running":
                self._catch_up(live)
                if kind != LINE and live.status == "finished":
                    self._announce_table(live)  # a rematch offered through another process
        except Exception:
            log.exception("table %s: could not read news from the log", live.id)

    def _read_lines(self, live: LiveTable) -> bool:
        """The quick way to hear of moves made elsewhere: only the log's new lines, each
        with its seat's clock (one query, no ORM: a process hears every move of its tables
        made elsewhere). False when there are none, or the table is not at play here: then
        something else changed (a seat, the status), and `_catch_up` reads it all."""
        with live.lock:
            if live.status != "running":
                return False
            with self.db.engine.connect() as connection:
                after = {"p_table": live.id, "p_after": live.moves_made}
                rows = connection.execute(_NEW_LINES, after).all()
            if not rows:
                return False
            for row in rows:
                entry = self._replay_line(live, row.number, row.seat, row.action, row.note)
                live.clock.used_ms[row.seat] = row.used_ms
                self._tell(live, entry)
            live.clock.turn_since = _aware(rows[-1].created_at)  # a line's time starts a turn
            if live.state is not None and live.state.is_over:
                live.status = "finished"
        self._unhost_if_over(live)
        self._schedule_bot(live)
        return True

    def adopt(self) -> None:
        """Keep hosting this process's tables and take those of a process that died: their
        bots and clocks carry on here. The database's running tables are read only now and
        then (`recount_due`), to host any that no process hosts, never at every look."""
        if not self.cluster.shared:
            return
        taken = self.cluster.look()
        if self.cluster.recount_due():
            taken += self._recount()
        for table_id in taken:
            live = self.get(table_id)
            self._catch_up(live)
            log.info("table %s: hosted here from now on", table_id)
            self._schedule_bot(live)

    def _catch_up(self, live: LiveTable) -> None:
        """Read what other processes logged for this table and tell this process's
        listeners, line by line, as if the moves had been made here."""
        with live.lock:
            with self.db.open() as s:
                table = s.get(Table, live.id)
                assert table is not None
                seats = [(seat.user_id, seat.bot) for seat in table.seats]
                lines = s.scalars(
                    select(Move)
                    .where(Move.table_id == live.id, Move.number > live.moves_made)
                    .order_by(Move.number)
                ).all()
                live.clock.turn_since = _aware(table.turn_since)
                live.clock.used_ms = [seat.used_ms for seat in table.seats]
                live.clock.left_at = [
                    _aware(seat.left_at) if seat.left_at else None for seat in table.seats
                ]
                status = table.status
            self.looks.ask(live.id)
            if live.status == "open":
                if status != "open" or seats != live.seats:
                    self._reload(live)
                    self._announce_table(live)
                return
            for number, (was, now) in enumerate(zip(live.seats, seats, strict=True)):
                if was != now:  # a bot took a seat, elsewhere
                    live.seats[number] = now
                    for listener in live.listeners:
                        listener.send(outbound.message("seat", seat=number, bot=now[1]))
            for row in lines:
                entry = self._replay_line(live, row.number, row.seat, row.action, row.note)
                self._tell(live, entry)
            live.status = status
        self._unhost_if_over(live)
        self._schedule_bot(live)

    def _unhost_if_over(self, live: LiveTable) -> None:
        """A table no longer at play needs no host (if it was this process), and leaves
        memory once nobody here watches it."""
        if live.status in ("open", "running"):
            return
        if self.cluster.hosts(live.id):
            self.cluster.release(live.id)
        self.forget_if_done(live)

    def forget_if_done(self, live: LiveTable) -> bool:
        """A table no longer at play that nobody here watches leaves memory: opened again,
        it is rebuilt from its log. A process keeps only the tables at play and those
        watched, however many games it has hosted. True if it left."""
        with live.lock:  # then the guard: never the other way round
            if live.status in ("open", "running") or live.busy:
                return False
            return self._drop(live)

    def _drop(self, live: LiveTable) -> bool:
        """Take the table out of memory (its lock held): whoever still holds it reads it
        anew. False if the map holds no such table (one read but never kept)."""
        with self.guard:
            if self.live.get(live.id) is not live:
                return False
            del self.live[live.id]
            self.cluster.let_go(live.id)
        live.gone = True
        return True

    def rest_idle(self, now: datetime | None = None) -> list[int]:
        """Running tables idle here for `idle_seconds` (no move, no look), with nobody
        watching and a person to move, leave memory: opened again, they are rebuilt from
        the log. Their host first writes when their clock must be looked at again
        (`wake_due`). Looks once a minute, not at every tick. Returns the tables that left."""
        now = now or datetime.now(UTC)
        if now < self.rest_at:
            return []
        self.rest_at = now + timedelta(seconds=REST_EVERY_SECONDS)
        with self.guard:
            running = [live for live in self.live.values() if live.status == "running"]
        return [live.id for live in running if self._rest(live, now)]

    def _rest(self, live: LiveTable, now: datetime) -> bool:
        with live.lock:  # then the guard: never the other way round
            to_move = live.state.to_move if live.state is not None else None
            bot_to_move = to_move is not None and live.seats[to_move][1] is not None
            last = max(live.clock.turn_since, live.touched)
            idle = (now - last).total_seconds() >= self.idle_seconds
            if live.status != "running" or live.busy or bot_to_move or not idle:
                return False
            if self.cluster.hosts(live.id):
                self._set_due(live.id, live.clock.due(to_move))
            return self._drop(live)

    def wake_due(self, now: datetime | None = None) -> list[int]:
        """Bring back into memory the resting tables hosted here whose clock may have run
        out, for the clock's look (`check_clocks`) that follows. One indexed query a look,
        whatever the tables. Returns the tables woken."""
        now = now or datetime.now(UTC)
        with self.db.open() as s:
            due = s.scalars(
                select(Table.id).where(Table.status == "running", Table.due_at <= now)
            ).all()
        woken = []
        for table_id in due:
            if self.watched(table_id) is None and self.cluster.hosts(table_id):
                self.get(table_id)
                woken.append(table_id)
        return woken

    def _set_due(self, table_id: int, due: datetime | None) -> None:
        with self.db.write() as s:
            s.execute(update(Table).where(Table.id == table_id).values(due_at=due))
            s.commit()

    def _host_here(self, table_ids: list[int]) -> list[int]:
        """Host those of the tables no process hosts; Redis failing, the next recount
        does (its bots wait until then)."""
        try:
            return self.cluster.claim(table_ids)
        except Exception:
            log.warning("could not host tables %s here; the next recount does", table_ids[:5])
            return []

    def _recount(self) -> list[int]:
        """Compare the hosts with the database: host the running tables nobody hosts (a
        start whose claim failed, a site whose Redis was emptied), forget the hosts of
        tables no longer running (one that ended with its host gone). Returns the tables
        newly hosted here."""
        with self.db.open() as s:
            running = set(s.scalars(select(Table.id).where(Table.status == "running")).all())
        taken = self._host_here(sorted(running))
        gone = [t for t in self.cluster.listed() if t not in running]
        if gone:  # re-read: a table may have started since (a status never goes back)
            with self.db.open() as s:
                at_play = set(
                    s.scalars(
                        select(Table.id).where(
                            Table.id.in_(gone), Table.status.in_(("open", "running"))
                        )
                    ).all()
                )
            self.cluster.forget([t for t in gone if t not in at_play])  # ended, or deleted
        return taken

    def _reload(self, live: LiveTable) -> None:
        """The table afresh from the database, in place: its lock and listeners stay."""
        fresh = self._load(live.id)
        for name in ("status", "seats", "clock", "state", "log", "standing"):
            setattr(live, name, getattr(fresh, name))

    # -- the lobby --------------------------------------------------------------------

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
    ) -> int:
        """A new open table; `seats` holds a bot name per seat, None for a person. The host
        takes the first seat for a person. `clock`: move_seconds or game_seconds,
        grace_seconds, and the takeover bot. `most_open`: how many open tables one person
        may host (409 past it), counted under a lock on the host's row so that creates at
        once, through any process, never pass it together. `private`: listed nowhere, reached
        only through its invitation."""
        clock = clock or {}
        game = games.get(game_id)
        if players not in game.player_counts:
            raise ApiError(
                400, f"{game.title} is for {game.min_players}-{game.max_players} players"
            )
        checked = game.options(players, options).model_dump(mode="json")
        if len(seats) != players:
            raise ApiError(400, f"{players} players need {players} seats, not {len(seats)}")
        seats = [None if bot is None else self.bot_rules.check(bot, game.id) for bot in seats]
        if mode not in ("live", "async"):
            raise ApiError(400, f"mode {mode!r}: a table is 'live' or 'async'")
        takeover = self.bot_rules.check(clock.get("takeover_bot") or "easy", game.id)
        with self.db.write() as s:
            if most_open is not None:
                _check_open_tables(s, host.id, most_open)
            table = Table(
                game=game.id,
                options=checked,
                players=players,
                seed=str(new_seed()),
                mode=mode,
                invite=secrets.token_urlsafe(12),
                host_id=host.id,
                move_seconds=clock.get("move_seconds"),
                game_seconds=clock.get("game_seconds"),
                grace_seconds=clock.get("grace_seconds", 30),
                takeover_bot=takeover,
                private=private,
            )
            host_seated = False
            for number, bot in enumerate(seats):
                user_id = None
                if bot is None and not host_seated:
                    user_id, host_seated = host.id, True
                table.seats.append(Seat(number=number, user_id=user_id, bot=bot))
            s.add(table)
            s.commit()
            live = _live(table)  # the joins and the start to come need not read it back
        self._keep(live)
        return live.id

    def join(self, table_id: int, user: User) -> int:
        """Seat a person at the seat kept for them (a rematch), else at the first free seat
        for a person of an open table that is kept for nobody else."""
        live = self.get(table_id)
        with live.lock:
            with self.db.write() as s:
                table = _locked(s, table_id)
                _refuse_unless_open(table)
                _seats_as_stored(live, table)
                if live.seat_of(user.id) is not None:
                    raise ApiError(409, "you already have a seat at this table")
                empty = [t for t in table.seats if t.user_id is None and t.bot is None]
                kept = [t.number for t in empty if t.reserved_for == user.id]
                free = kept or [t.number for t in empty if t.reserved_for is None]
                if not free:
                    if empty:
                        raise ApiError(409, "the free seats are kept for the last game's players")
                    raise ApiError(409, "every seat is taken")
                number = free[0]
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(user_id=user.id)
                )
                table.updated_at = datetime.now(UTC)
                s.commit()
            live.seats[number] = (user.id, None)
        self._table_changed(live)
        return number

    def leave(self, table_id: int, user: User) -> None:
        """Give up one's seat: at an open table it is free again (the host leaving closes
        the table: its status becomes "abandoned"); in a running game a bot takes it after
        the grace period."""
        live = self.get(table_id)
        with live.lock:
            with self.db.write() as s:
                table = _locked(s, table_id)
                number = next((t.number for t in table.seats if t.user_id == user.id), None)
                if number is None:
                    raise ApiError(409, "you have no seat at this table")
                status = table.status
                if status not in ("open", "running"):
                    raise ApiError(409, f"the game is {status}")
                now = datetime.now(UTC)
                change = {"user_id": None} if status == "open" else {"left_at": now}
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(**change)
                )
                table.updated_at = now
                if status == "open" and table.host_id == user.id:
                    table.status = "abandoned"
                s.commit()
            if status == "running":
                if live.status != "running":  # started through another process
                    self._catch_up(live)
                live.clock.left_at[number] = now
                self.looks.ask(live.id)
                self.cluster.publish(live.id)
                return
            live.seats[number] = (None, None)
            live.status = table.status
        self._table_changed(live)

    def reclaim(self, table_id: int, user: User) -> int:
        """A person whose seat a bot took (time out, or leaving) takes it back: the bot stops
        at once, the person plays from the next decision, and the log says so with that
        decision. A turn clock starts afresh for them; a game clock that ran out cannot be
        given back (409)."""
        live = self.get(table_id)
        with live.lock:
            with self.db.write() as s:
                table = _locked(s, table_id)
                if table.status != "running":
                    raise ApiError(409, f"the game is {table.status}: no seat to take back")
                number = next((t.number for t in table.seats if t.user_id == user.id), None)
                if number is None:
                    raise ApiError(409, "you have no seat at this table")
                if table.seats[number].bot is None:
                    raise ApiError(409, "you play your seat already")
                if live.clock.game_seconds is not None and (
                    live.clock.used_ms[number] >= live.clock.game_seconds * 1000
                ):
                    raise ApiError(409, "your time for the game is used up: the bot plays on")
                now = datetime.now(UTC)
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(bot=None, left_at=None)
                )
                if live.state is not None and live.state.to_move == number:
                    table.turn_since = now  # a fresh turn clock, or the bot would be back
                    live.clock.turn_since = now
                s.commit()
            live.seats[number] = (user.id, None)
            live.clock.left_at[number] = None
            self.looks.ask(live.id)
            log.info("table %s: %s took seat %s back from the bot", live.id, user.name, number)
            # The move log keeps no name: an erased account's name must leave every copy.
            note = f"its player took seat {number} back from the bot"
            # If the bot made no move meanwhile, its taking the seat is still to be logged.
            unsaid = live.takeover_notes.get(number)
            live.takeover_notes[number] = f"{unsaid}; {note}" if unsaid else note
            for listener in live.listeners:
                listener.send(outbound.message("seat", seat=number, bot=None, reason="reclaimed"))
        self.cluster.publish(live.id)
        return number

    def rematch(self, table_id: int, user: User) -> int:
        """The same game again for the people of a finished one: the first of them to ask
        hosts a new private table with the same options, clocks and bots, each person's
        seat kept for them; whoever asks after is seated at theirs. Decided under the old
        table's row lock, so that two asking at once make one rematch, not two."""
        with self.db.write() as s:
            old = _locked(s, table_id)
            if old.status != "finished":
                raise ApiError(409, "a rematch follows a finished game")
            if all(seat.user_id != user.id for seat in old.seats):
                raise ApiError(403, "only the people who played this game may ask for a rematch")
            new_id = offered = old.rematch_id
            if offered is None:
                new = _again(old, user)
                s.add(new)
                s.flush()
                new_id = old.rematch_id = new.id
                s.commit()
        if offered is None:  # its pages offer the rematch at once, here and elsewhere
            watched = self.watched(table_id)
            if watched is not None:
                self._announce_table(watched)
            self.cluster.publish(table_id)
        elif self.current(new_id).seat_of(user.id) is None:
            self.join(new_id, user)
        return new_id

    def start(self, table_id: int, user: User) -> None:
        live = self.get(table_id)
        with live.lock:
            with self.db.write() as s:
                table = _locked(s, table_id)
                if table.host_id != user.id:
                    raise ApiError(403, "only the host can start the game")
                _refuse_unless_open(table)
                _seats_as_stored(live, table)
                empty = [n for n, (u, bot) in enumerate(live.seats) if u is None and bot is None]
                if empty:
                    raise ApiError(409, f"seats {empty} are still empty")
                table.status = "running"
                table.updated_at = table.turn_since = datetime.now(UTC)
                s.commit()
            live.status = "running"
            live.clock.turn_since = table.turn_since
            live.state = live.game.setup(live.players, live.options, live.seed)
            self.looks.ask(live.id)
        self._host_here([live.id])  # its bots and clocks: here, where it started
        self._table_changed(live)
        self._schedule_bot(live)

    # -- play -------------------------------------------------------------------------

    def submit(
        self,
        table_id: int,
        seat: int,
        expected: int,
        text: str,
        note: str | None = None,
    ) -> tuple[State, Entry]:
        """Apply one move for `seat` if `expected` is the next move number; returns the
        state after it (never changed again: later moves apply to copies) and its log line,
        for a caller that answers the mover with more than an acknowledgement. Waits for
        the commit: for worker threads (HTTP routes, bots).

        Raises:
            ApiError: 409 for a stale or repeated move number or a table not running,
                403 for another seat's turn.
            NotationError, IllegalAction: the engine's reason (400 / 422).
        """
        live = self.get(table_id)
        committed = Waiter()
        proposal = self._propose(live, seat, expected, text, note, committed)
        assert proposal is not None  # a worker thread may read the log
        failure: BaseException | None = None
        try:
            committed.wait()
        except BaseException as exc:
            failure = exc
        self._conclude(proposal, failure)
        return proposal.after, proposal.entry

    async def play(
        self, live: LiveTable, seat: int, expected: int, text: str, mover: Listener
    ) -> bool:
        """`submit` on the event loop, for a move sent on a table's socket (`mover`, the
        socket's listener): nothing here waits on the database or a lock held across a
        commit, so the loop serves other tables while this move's line is committed with
        theirs. True when the move's news to `mover` carried its acknowledgement (one
        frame, not two); False when the news went out without it (read back from the log
        first) and the caller must acknowledge the move itself.

        The move is settled (or withdrawn) by the commit's own callback on the loop, not
        by this coroutine: a caller that stops waiting (its connection cancelled by a
        server stopping) leaves no table pending."""
        loop = asyncio.get_running_loop()
        settled: asyncio.Future[bool] = loop.create_future()

        def committed(failure: BaseException | None) -> None:
            if failure is not None and self.cluster.shared:
                # Taken: catch up with the other process's lines, off the loop.
                withdrawing = loop.run_in_executor(None, self._withdraw, live, expected, failure)
                withdrawing.add_done_callback(lambda w: _resolve(settled, w.exception()))
                return
            try:
                assert proposal is not None  # the writer has its line only if there is one
                acked = self._conclude(proposal, failure)
            except BaseException as exc:
                _resolve(settled, exc)
            else:
                _resolve(settled, None, acked)

        def done(failure: BaseException | None) -> None:  # on the log writer's thread
            loop.call_soon_threadsafe(committed, failure)

        proposal = self._propose(live, seat, expected, text, None, done, False, mover)
        if proposal is None:  # another process may have logged moves: read them, off the loop
            await asyncio.to_thread(self.submit, live.id, seat, expected, text)
            return False
        return await settled

    def _propose(
        self,
        live: LiveTable,
        seat: int,
        expected: int,
        text: str,
        note: str | None,
        done: Done,
        may_read: bool = True,
        mover: Listener | None = None,
    ) -> Proposal | None:
        """Check a move and apply it to a copy of the state, then start committing its line
        (`done` hears when it is committed); the table holds it as pending until `_settle`
        or `_withdraw`. `mover`: the socket it came on. None when, in a cluster, the log
        must be read first and `may_read` is False."""
        with live.lock:
            if expected != live.moves_made + 1 and self.cluster.shared and live.pending is None:
                if not may_read:
                    return None
                self._catch_up(live)  # another process may have logged moves meanwhile
            self._check_turn(live, seat, expected, "move")
            state = live.state
            assert state is not None
            action = state.parse_action(text)
            after = state.clone()
            events = after.apply(action)
            # A seat's first decision after a bot took it, or its person took it back.
            note = note or live.takeover_notes.get(seat)
            entry = Entry(expected, seat, str(action), events, note)
            now = self._write(live, entry, done, after if after.is_over else None)
            live.pending = expected
            return Proposal(live, entry, after, now, mover)

    def _check_turn(self, live: LiveTable, seat: int, expected: int, what: str) -> None:
        """May `seat` log line `expected` now? (Under the table's lock.)"""
        if live.status != "running" or live.state is None:
            raise ApiError(409, f"the game is {live.status}, no {what} now", move=live.moves_made)
        if live.pending is not None:
            raise ApiError(
                409,
                f"{what} {expected}: move {live.pending} is being recorded",
                move=live.moves_made,
            )
        if expected != live.moves_made + 1:
            raise ApiError(
                409,
                f"{what} {expected} is not the next number: {live.moves_made} made so far",
                move=live.moves_made,
            )
        if live.state.to_move != seat:
            if what == "undo":
                raise ApiError(403, "undo only within your own turn")
            raise ApiError(403, f"it is not your turn (seat {live.state.to_move} is to move)")

    def _conclude(self, proposal: Proposal, failure: BaseException | None) -> bool:
        """The commit's outcome: the move stands, or (raising) it is withdrawn. True when
        the mover's news carried the acknowledgement."""
        if failure is not None:
            self._withdraw(proposal.live, proposal.entry.number, failure)
        return self._settle(proposal)

    def _settle(self, proposal: Proposal) -> bool:
        """The move's line is committed: it stands, and everyone hears of it. True when
        the mover's news carried the acknowledgement."""
        live, entry = proposal.live, proposal.entry
        counted = metrics.of_game(live.game.id)
        counted.moves.inc()
        acked = False
        with live.lock:
            live.pending = None
            # Unless a catch-up meanwhile read this very line back from the log.
            if live.moves_made == entry.number - 1:
                live.clock.charge(entry.seat, proposal.now)
                if proposal.after.is_over:
                    live.status = "finished"
                live.state = proposal.after
                if entry.note is not None and live.takeover_notes.get(entry.seat) == entry.note:
                    del live.takeover_notes[entry.seat]  # said once, with this line
                self._remember(live, entry)
                acked = self._tell(live, entry, proposal.mover)
        counted.move_seconds.observe(time.perf_counter() - proposal.started)
        self.cluster.publish(live.id, LINE)
        self._unhost_if_over(live)
        self._schedule_bot(live)
        self._notify(live)
        return acked

    def _withdraw(self, live: LiveTable, number: int, failure: BaseException) -> NoReturn:
        """The line was not committed: the table is as before it, and the caller is told."""
        with live.lock:
            live.pending = None
        if isinstance(failure, Taken | IntegrityError):
            if self.cluster.shared:
                self._catch_up(live)  # the other writer was another process
            raise ApiError(409, f"number {number} was taken meanwhile", move=number) from None
        if isinstance(failure, WriterClosed):
            raise ApiError(503, "the server is restarting: not recorded, try again") from None
        raise failure

    def _notify(self, live: LiveTable) -> None:
        """Async tables: tell the person whose move it now is, if they asked for e-mail."""
        if self.mailer is None or not self.mailer.on or live.mode != "async":
            return
        seat = live.state.to_move if live.state else None
        if seat is None or live.seats[seat][1] is not None or live.seats[seat][0] is None:
            return
        # Looking the person up touches the database: not on the caller's (maybe the event
        # loop's) time.
        self.mailer.later(self._mail_your_turn, live.seats[seat][0], live.game.title, live.id)

    def _mail_your_turn(self, user_id: int, title: str, table_id: int) -> None:
        assert self.mailer is not None
        with self.db.open() as s:
            person = s.get(User, user_id)
            if person is None or not person.notify or not person.email:
                return
            if not person.email_confirmed:  # nobody proved the address theirs yet
                return
            self.mailer.your_turn(person.email, person.name, title, table_id)

    def undo(self, table_id: int, seat: int, expected: int) -> dict[str, Any]:
        """Take back the seat's last move, within its own turn: only while the seat is still
        to move, only its own move (never across another seat's), and only a move that
        revealed nothing and used no chance (its events say so). The undo is itself a line
        of the log, numbered like a move; the log is never rewritten.

        Raises:
            ApiError: 409 for a stale number or a game not running, 403 when the rule
                forbids this undo (with the reason).
        """
        live = self.get(table_id)
        with live.lock:
            self._check_turn(live, seat, expected, "undo")
            last = live.standing[-1] if live.standing else None
            if last is None or last.seat != seat:
                raise ApiError(403, "nothing of yours to undo this turn")
            why_not = _why_not_undoable(live, last)
            if why_not is not None:
                raise ApiError(403, f"move {last.number} stands: {why_not}")
            entry = Entry(expected, seat, UNDO, [], f"undo of move {last.number}", last.number)
            committed = Waiter()
            now = self._write(live, entry, committed)
            live.pending = expected
        try:
            committed.wait()
        except BaseException as failure:
            self._withdraw(live, expected, failure)
        metrics.of_game(live.game.id).moves.inc()
        with live.lock:
            live.pending = None
            if live.moves_made == expected - 1:
                live.clock.charge(seat, now)
                live.standing.pop()
                live.log.append(entry)
                live.rebuild()
                self.looks.ask(live.id)
                self._tell(live, entry)
            assert live.state is not None
            answer = outbound.undo_message(live.state, seat, expected, seat, last.number)
        self.cluster.publish(live.id, LINE)
        return answer

    def _tell(self, live: LiveTable, entry: Entry, mover: Listener | None = None) -> bool:
        """Every listener of this process hears of a new line, each as its seat sees it;
        one message per seat, however many listen as that seat (spectators, second tabs).
        The socket the line came on (`mover`) hears it with `"ack": true`, its answer; True
        when it was among the listeners."""
        assert live.state is not None
        news: dict[int | None, dict[str, Any]] = {}
        built: dict[int | None, str] = {}
        acked = False
        for listener in live.listeners:
            seat = live.seat_of(listener.user_id)
            if seat not in news:
                news[seat] = self._news(live.state, seat, entry)
            if listener is mover:
                listener.send({**news[seat], "ack": True})
                acked = True
                continue
            text = built.get(seat)
            if text is None:
                text = built[seat] = encode(news[seat])
            listener.send_text(text)
        return acked

    @staticmethod
    def _news(state: State, seat: int | None, entry: Entry) -> dict[str, Any]:
        if entry.undoes is not None:
            return outbound.undo_message(state, seat, entry.number, entry.seat, entry.undoes)
        return outbound.move_message(
            state, seat, entry.number, entry.seat, entry.action, entry.events, entry.note
        )

    def _write(
        self, live: LiveTable, entry: Entry, done: Done, final: State | None = None
    ) -> datetime:
        """Start committing a line; it is acknowledged only once `done` hears it committed.
        `final`: the state the line ends the game in (the ratings change in the same
        transaction). Returns the line's time."""
        now = datetime.now(UTC)
        used = live.clock.used_ms[entry.seat] + _ms(now - live.clock.turn_since)
        ratings = None
        if final is not None:  # the game ends: its ratings change with this line
            ratings = partial(
                rate, game_id=live.game.id, seats=list(live.seats), final=final, table_id=live.id
            )
        write_line(
            self.writer,
            table=live.id,
            number=entry.number,
            seat=entry.seat,
            action=entry.action,
            note=entry.note,
            now=now,
            used_ms=used,
            status="finished" if final is not None else live.status,
            done=done,
            also=ratings,
        )
        return now

    def _remember(self, live: LiveTable, entry: Entry) -> None:
        live.log.append(entry)
        live.standing.append(entry)
        self.looks.ask(live.id)  # another seat to move, its clock started

    # -- what a seat sees -------------------------------------------------------------

    def sync(
        self,
        live: LiveTable,
        seat: int | None,
        since: int = 0,
        muted: frozenset[int] = frozenset(),
    ) -> dict[str, Any]:
        """Everything since move `since` for one recipient: the events of each move, where
        the game stands now, and the latest chat but what the recipient muted."""
        with live.lock:
            moves = [outbound.log_line(entry, seat) for entry in live.log[max(0, since) :]]
            fields: dict[str, Any] = {
                "table": live.id,
                "status": live.status,
                "moves": moves,
                "chat": chat.readable(live.chat, muted),
            }
            if live.state is not None:
                fields.update(outbound.position(live.state, seat, live.moves_made))
            return outbound.message("sync", **fields)

    def subscribe(self, live: LiveTable, listener: Listener, since: int = 0) -> LiveTable:
        """A listener hears everything since move `since` (a sync), then each line: both
        under the lock, so that no line is missed or told before the sync. Returns the
        table it listens to: `live`, or the table read anew if `live` left memory."""
        while True:
            if not live.gone:
                live = self._keep(live)  # a table read but not kept is kept from now on
            with live.lock:
                if not live.gone:
                    live.listeners.append(listener)
                    seat = live.seat_of(listener.user_id)
                    listener.send(self.sync(live, seat, since, listener.muted))
                    return live
            live = self.current(live.id)

    def unsubscribe(self, live: LiveTable, listener: Listener) -> None:
        with live.lock:
            if listener in live.listeners:
                live.listeners.remove(listener)
        self.forget_if_done(live)

    def _table_changed(self, live: LiveTable) -> None:
        """Seats or status changed: this process's listeners get a sync, the others news."""
        self._announce_table(live)
        self.cluster.publish(live.id)

    def _announce_table(self, live: LiveTable) -> None:
        with live.lock:
            for listener in live.listeners:
                seat = live.seat_of(listener.user_id)
                listener.send(self.sync(live, seat, live.moves_made, listener.muted))

    # -- clocks and leaving -------------------------------------------------------------

    def check_clocks(self, now: datetime | None = None) -> int:
        """Hand overdue seats, and seats nobody holds, to the takeover bot, and ask the bot
        to move wherever it is a bot's turn: at the tables hosted here that changed since
        the last look or whose clock may have run out (`Looks`), not at every table held.
        Returns how many tables were looked at."""
        now = now or datetime.now(UTC)
        asked, every_table = self.looks.due(now)
        with self.guard:
            if every_table:
                asked.update(self.live)
            found = [self.live.get(table_id) for table_id in asked]
        running = [
            live
            for live in found
            if live is not None and live.status == "running" and self.cluster.hosts(live.id)
        ]
        for live in running:
            with live.lock:
                to_move = live.state.to_move if live.state else None
                people = {n for n, (user, bot) in enumerate(live.seats) if bot is None and user}
                late = live.clock.overdue(to_move, now)
                for seat, reason in late.items():
                    if seat in people:
                        self._take_over(live, seat, reason)
                        people.discard(seat)
                for seat in _unplayable(live):  # a bot plays a seat nobody holds, at once
                    self._take_over(live, seat, "never came")
                due = live.clock.due(to_move, people)
            if due is not None:
                # Not before the next tick: a moment just reached is overdue only after it.
                self.looks.ask_at(live.id, max(due, now + timedelta(milliseconds=1)))
            self._schedule_bot(live)
        return len(running)

    def give_seat_to_bot(self, table_id: int, seat: int, user_id: int, reason: str) -> bool:
        """The takeover bot plays the seat of a running game at once, as on a time-out, if
        this process hosts the table and `user_id` still plays the seat (its person was
        banned, or deleted the account: `moderation`). True if it was handed over here."""
        if not self.cluster.hosts(table_id):
            return False
        live = self.get(table_id)
        with live.lock:
            if live.status != "running" or live.seats[seat] != (user_id, None):
                return False
            self._take_over(live, seat, reason)
        self._schedule_bot(live)
        return True

    def refresh(self, table_id: int) -> None:
        """A table held here, read again from the database, and its pages told: something
        about it was decided in the database elsewhere (an admin closed it, or a person's
        seat was freed)."""
        with self.guard:
            live = self.live.get(table_id)
        if live is None:
            return
        self._catch_up(live)  # an open table is reloaded and announced if it changed
        if live.status != "open":
            self._announce_table(live)

    def _take_over(self, live: LiveTable, seat: int, reason: str) -> None:
        bot = live.takeover_bot
        with self.db.write() as s:
            s.execute(
                update(Seat).where(Seat.table_id == live.id, Seat.number == seat).values(bot=bot)
            )
            s.commit()
        user, _ = live.seats[seat]
        live.seats[seat] = (user, bot)
        note = f"bot {bot} took seat {seat}: its player {reason}"
        live.takeover_notes[seat] = note
        log.info("table %s: %s", live.id, note)
        for listener in live.listeners:
            listener.send(outbound.message("seat", seat=seat, bot=bot, reason=reason))
        self.cluster.publish(live.id)

    # -- bots -------------------------------------------------------------------------

    def _schedule_bot(self, live: LiveTable) -> None:
        with live.lock:
            if self.handing_over or live.status != "running" or live.state is None:
                return
            if live.pending is not None:
                return  # scheduled again once the pending line is settled
            if not self.cluster.hosts(live.id):
                return  # another process hosts this table's bots
            seat = live.state.to_move
            if seat is None or live.seats[seat][1] is None:
                return
            expected = live.moves_made + 1
            if live.bot_asked == expected:
                return  # already thinking about it
            live.bot_asked = expected
        metrics.BOTS_QUEUED.inc()
        self.bots.submit(self._bot_move, live, seat, expected)

    def _bot_move(self, live: LiveTable, seat: int, expected: int) -> None:
        metrics.BOTS_QUEUED.dec()
        try:
            self._think_and_play(live, seat, expected)
        finally:
            with live.lock:
                if live.bot_asked == expected:
                    live.bot_asked = None  # asked again at the next look if still its turn
            self.looks.ask(live.id)
            self.forget_if_done(live)  # the bot's move may have ended the game

    def _think_and_play(self, live: LiveTable, seat: int, expected: int) -> None:
        with live.lock:
            bot_name = live.seats[seat][1]
            if live.state is None or live.moves_made + 1 != expected or bot_name is None:
                return
            state = live.state.to_json()
        try:
            limit = self.bot_rules.max_seconds
            started = time.perf_counter()
            with metrics.BOTS_THINKING.track_inprogress():
                future = self.thinkers.submit(think, live.game.id, state, seat, bot_name, limit)
                thought = future.result()
            metrics.of_game(live.game.id).think_seconds.observe(time.perf_counter() - started)
            if thought.overran:
                log.warning(
                    "table %s: bot %s overran its %g s at move %s and was stopped; "
                    "a random legal move was played for it",
                    live.id,
                    bot_name,
                    limit,
                    expected,
                )
            if self.handing_over:
                return  # the table's new host thinks again for it
            self.submit(live.id, seat, expected, thought.move)
        except (ApiError, MeadowError) as exc:  # the table moved on meanwhile
            log.info("table %s: bot move %s not played: %s", live.id, expected, exc)
        except Exception:
            if self.handing_over:  # its thinker stopped with the process
                log.info("table %s: bot move %s left to the next host", live.id, expected)
                return
            log.exception("table %s: bot %s failed at move %s", live.id, bot_name, expected)


def _why_not_undoable(live: LiveTable, last: Entry) -> str | None:
    """The one rule of `meadow.core.undo`, for the table's last standing move; a game's flag
    saves the work when it is set."""
    if any(event.reveals for event in last.events):
        return "it revealed something or used chance"
    before = live.state_before_last()
    # The worlds are drawn from public facts only, so that asking again answers the same.
    worlds = Rng((live.id << 32) | (last.number & 0xFFFFFFFF))
    return why_not_undoable(before, before.parse_action(last.action), worlds)


def _unplayable(live: LiveTable) -> list[int]:
    """Seats of a running game with neither a person nor a bot: the start refuses them, but
    a table stored otherwise must still be played to its end."""
    return [n for n, (user, bot) in enumerate(live.seats) if user is None and bot is None]


def _check_open_tables(s: DbSession, host_id: int, most: int) -> None:
    s.get(User, host_id, with_for_update=True)  # one host's creates, one after another
    hosting = s.scalars(
        select(Table.id).where(Table.host_id == host_id, Table.status == "open").limit(most)
    ).all()
    if len(hosting) >= most:
        raise ApiError(
            409,
            f"you host {most} open tables already ({', '.join(map(str, hosting))}), the most "
            "one person may: start one, or leave it to close it",
        )


def _again(old: Table, host: User) -> Table:
    """A finished table's rematch, hosted by `host`: its other people's seats kept."""
    table = Table(
        game=old.game,
        options=dict(old.options),
        players=old.players,
        seed=str(new_seed()),
        mode=old.mode,
        invite=secrets.token_urlsafe(12),
        host_id=host.id,
        move_seconds=old.move_seconds,
        game_seconds=old.game_seconds,
        grace_seconds=old.grace_seconds,
        takeover_bot=old.takeover_bot,
        private=True,
    )
    for seat in old.seats:
        person = seat.user_id
        table.seats.append(
            Seat(
                number=seat.number,
                bot=seat.bot if person is None else None,
                user_id=person if person == host.id else None,
                reserved_for=person if person not in (None, host.id) else None,
            )
        )
    return table


def _refuse_unless_open(table: Table) -> None:
    if table.status == "abandoned":
        raise ApiError(409, "this table was closed before its game began")
    if table.status != "open":
        raise ApiError(409, "the game has already started")


def _locked(s: DbSession, table_id: int) -> Table:
    """The table's row, locked until the transaction ends: joins, leaves and the start of
    one table are decided one after another by the database, whichever process serves
    them. (SQLite's writers already take the whole database, `Database.write`.)"""
    table = s.get(Table, table_id, with_for_update=True)
    if table is None:
        raise ApiError(404, f"there is no table {table_id}")
    return table


def _seats_as_stored(live: LiveTable, table: Table) -> None:
    """The seats as the database has them: in a cluster another process may have seated
    someone since this one last looked (the lobby's steps read them; moves never do)."""
    live.seats = [(seat.user_id, seat.bot) for seat in table.seats]


def _live(table: Table) -> LiveTable:
    """A table as its row and seats stand, before any move is applied."""
    return LiveTable(
        id=table.id,
        game=games.get(table.game),
        players=table.players,
        options=dict(table.options),
        seed=int(table.seed),
        status=table.status,
        seats=[(seat.user_id, seat.bot) for seat in table.seats],
        clock=Clock(
            table.move_seconds,
            table.game_seconds,
            table.grace_seconds,
            _aware(table.turn_since),
            [seat.used_ms for seat in table.seats],
            [_aware(seat.left_at) if seat.left_at else None for seat in table.seats],
        ),
        takeover_bot=table.takeover_bot,
        mode=table.mode,
        resting=table.due_at is not None,
    )


def _aware(moment: datetime) -> datetime:
    """SQLite hands times back without their zone; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _ms(span: timedelta) -> int:
    return max(0, int(span.total_seconds() * 1000))


def _resolve(
    future: asyncio.Future[bool], failure: BaseException | None, acked: bool = False
) -> None:
    """Tell a waiting coroutine its move's outcome, unless it stopped waiting."""
    if future.done():
        return
    if failure is not None:
        future.set_exception(failure)
    else:
        future.set_result(acked)
