"""Resting and waking tables: which tables this process holds in memory, how one is read
back from the log, and when one leaves.

A table at play is kept while it is played or watched; a finished one only while someone
watches it; a running one idle for `Tables.idle_seconds` with a person to move rests out of
memory until its clock may run out (`wake_due`) or someone opens it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select, update

from meadow import games
from meadow.core.record import GameRecord
from meadow.server import chat
from meadow.server.clocks import Clock
from meadow.server.errors import ApiError
from meadow.server.live import UNDO, Entry, LiveTable
from meadow.store import Move, Table

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables

# The look for running tables idle long enough to rest runs this often, not at every tick.
REST_EVERY_SECONDS = 60.0


class Memory:
    """The tables held in this process's memory (`Tables.live`, guarded by `Tables.guard`)."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def get(self, table_id: int) -> LiveTable:
        """The table: the one in memory, else read from the database and kept while it is
        at play. A table no longer at play is kept only while someone watches it
        (`Telling.subscribe`), so that its readers do not fill the process's memory."""
        hub = self.hub
        with hub.guard:
            live = hub.live.get(table_id)
        if live is not None and not live.gone:
            live.touched = datetime.now(UTC)
            return live
        loaded = self.load(table_id)
        if loaded.status not in ("open", "running"):
            return loaded
        kept = self.keep(loaded)
        if kept is loaded and loaded.resting and hub.cluster.hosts(table_id):
            self.set_due(table_id, None)  # back in its host's memory: its clock is watched
        return kept

    def keep(self, live: LiveTable) -> LiveTable:
        """The table in memory under its number: the one already there, else `live` from
        now on, whose news this process hears from now on too."""
        hub = self.hub
        with hub.guard:
            kept = hub.live.get(live.id)
            if kept is None or kept.gone:
                hub.live[live.id] = kept = live
                hub.cluster.hold(live.id)
                hub.looks.ask(live.id)
            return kept

    def watched(self, table_id: int) -> LiveTable | None:
        """The table if it is in memory here (at play, or watched), else None."""
        with self.hub.guard:
            live = self.hub.live.get(table_id)
        return None if live is None or live.gone else live

    def held(self) -> list[LiveTable]:
        """The tables in this process's memory."""
        with self.hub.guard:
            return list(self.hub.live.values())

    def load(self, table_id: int) -> LiveTable:
        """The table read afresh from the database: its row, its chat, and its position
        replayed from its log."""
        with self.hub.db.open() as s:
            table = s.get(Table, table_id)
            if table is None:
                raise ApiError(404, f"there is no table {table_id}")
            moves = s.scalars(
                select(Move).where(Move.table_id == table_id).order_by(Move.number)
            ).all()
            live = from_row(table)
            chat.load(live, s)
        # A running game an admin closed ("abandoned" with moves) still shows its position.
        if live.status in ("running", "finished") or moves:
            record = GameRecord(live.game.id, live.players, live.options, live.seed)
            live.state = record.initial_state()
            for move in moves:
                self.replay_line(live, move.number, move.seat, move.action, move.note)
        return live

    def replay_line(
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
            self.hub.looks.ask(live.id)
            return entry
        events = live.state.apply(live.state.parse_action(action))
        entry = Entry(number, seat, action, events, note)
        self.remember(live, entry)
        return entry

    def remember(self, live: LiveTable, entry: Entry) -> None:
        """A move's line joins the table's log and the moves that stand."""
        live.log.append(entry)
        live.standing.append(entry)
        self.hub.looks.ask(live.id)  # another seat to move, its clock started

    def reload(self, live: LiveTable) -> None:
        """The table afresh from the database, in place: its lock and listeners stay."""
        fresh = self.load(live.id)
        for name in ("status", "seats", "clock", "state", "log", "standing"):
            setattr(live, name, getattr(fresh, name))

    def forget_if_done(self, live: LiveTable) -> bool:
        """A table no longer at play that nobody here watches leaves memory: opened again,
        it is rebuilt from its log. A process keeps only the tables at play and those
        watched, however many games it has hosted. True if it left."""
        with live.lock:  # then the guard: never the other way round
            if live.status in ("open", "running") or live.busy:
                return False
            return self.drop(live)

    def drop(self, live: LiveTable) -> bool:
        """Take the table out of memory (its lock held): whoever still holds it reads it
        anew. False if the map holds no such table (one read but never kept)."""
        hub = self.hub
        with hub.guard:
            if hub.live.get(live.id) is not live:
                return False
            del hub.live[live.id]
            hub.cluster.let_go(live.id)
        live.gone = True
        return True

    def rest_idle(self, now: datetime | None = None) -> list[int]:
        """Running tables idle here for `idle_seconds` (no move, no look), with nobody
        watching and a person to move, leave memory: opened again, they are rebuilt from
        the log. Their host first writes when their clock must be looked at again
        (`wake_due`). Looks once a minute, not at every tick. Returns the tables that left."""
        hub = self.hub
        now = now or datetime.now(UTC)
        if now < hub.rest_at:
            return []
        hub.rest_at = now + timedelta(seconds=REST_EVERY_SECONDS)
        with hub.guard:
            running = [live for live in hub.live.values() if live.status == "running"]
        return [live.id for live in running if self._rest(live, now)]

    def _rest(self, live: LiveTable, now: datetime) -> bool:
        with live.lock:  # then the guard: never the other way round
            to_move = live.state.to_move if live.state is not None else None
            bot_to_move = to_move is not None and live.seats[to_move][1] is not None
            last = max(live.clock.turn_since, live.touched)
            idle = (now - last).total_seconds() >= self.hub.idle_seconds
            if live.status != "running" or live.busy or bot_to_move or not idle:
                return False
            if self.hub.cluster.hosts(live.id):
                self.set_due(live.id, live.clock.due(to_move))
            return self.drop(live)

    def wake_due(self, now: datetime | None = None) -> list[int]:
        """Bring back into memory the resting tables hosted here whose clock may have run
        out, for the clock's look (`ClockWatch.check`) that follows. One indexed query a
        look, whatever the tables. Returns the tables woken."""
        now = now or datetime.now(UTC)
        with self.hub.db.open() as s:
            due = s.scalars(
                select(Table.id).where(Table.status == "running", Table.due_at <= now)
            ).all()
        woken = []
        for table_id in due:
            if self.watched(table_id) is None and self.hub.cluster.hosts(table_id):
                self.get(table_id)
                woken.append(table_id)
        return woken

    def set_due(self, table_id: int, due: datetime | None) -> None:
        """When a resting table must be woken for its clock (None: it is in memory)."""
        with self.hub.db.write() as s:
            s.execute(update(Table).where(Table.id == table_id).values(due_at=due))
            s.commit()


def from_row(table: Table) -> LiveTable:
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
            aware(table.turn_since),
            [seat.used_ms for seat in table.seats],
            [aware(seat.left_at) if seat.left_at else None for seat in table.seats],
        ),
        takeover_bot=table.takeover_bot,
        mode=table.mode,
        hints=table.hints,
        resting=table.due_at is not None,
    )


def aware(moment: datetime) -> datetime:
    """SQLite hands times back without their zone; they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
