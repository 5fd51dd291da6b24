"""What admins decided, carried out in this server process.

A ban, an erasure, a hidden chat line or a closed table is decided in the database
(`meadow.server.people`), by this process, another one, or `meadow admin` at the shell while
the servers run. Each process then reads the audit log's new entries twice a second (with
the clock check) and does what only it can do, for what it holds in memory:

- a banned or deleted person: their sockets close, their seats at running tables this
  process hosts go to the takeover bot at once (as on a time-out), and its open tables they
  sat at are read again; a deleted person's name leaves the chat its tables keep in memory
  (their lines read as the store has them now, "deleted player 17"), and pages are told;
- sessions of a person ended (a reset, a new password, an undone address change): the
  sockets opened in them close;
- a hidden chat line: it leaves the table's lines in memory, and the table's sockets hear
  `chat_hidden` (the page removes it);
- a closed table: its pages hear a sync with the new status.

Entries of one table commit in any order on PostgreSQL (an id taken early may commit
late), so entries are read from a floor that stays a minute behind, each acted on once.
A full look at the seats of banned and deleted people at open and running tables, at the
first tick and then every half minute, covers what no entry can: a table this process came
to host after the entry was read (its host died), or a ban decided while no server ran.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import func, or_, select

from meadow.server import chat, outbound, people
from meadow.server.tables import Tables
from meadow.store import AuditEntry, Seat, Session, Table, User

log = logging.getLogger("meadow.server")

LATE = timedelta(minutes=1)  # how long an entry may take to commit after it was stamped
SWEEP_TICKS = 60  # the full look: every 60 ticks (half a minute at two ticks a second)


class Entry(NamedTuple):
    id: int
    at: datetime
    action: str
    user_id: int | None
    table_id: int | None
    chat_id: int | None


class Moderation:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.lock = threading.Lock()  # the clock loop and the admin routes both tick
        with tables.db.open() as s:
            # What was decided before this process started is in the database it loads
            # from; the first sweep covers the seats.
            self.floor: int = s.scalar(select(func.max(AuditEntry.id))) or 0
        self.seen: set[int] = set()
        self.ticks = 0

    def tick(self) -> None:
        """Act on the audit log's new entries (and, now and then, sweep)."""
        with self.lock:
            if self.ticks % SWEEP_TICKS == 0:
                self._sweep()
            self.ticks += 1
            with self.tables.db.open() as s:
                rows = [
                    Entry(*row)
                    for row in s.execute(
                        select(
                            AuditEntry.id,
                            AuditEntry.at,
                            AuditEntry.action,
                            AuditEntry.user_id,
                            AuditEntry.table_id,
                            AuditEntry.chat_id,
                        )
                        .where(AuditEntry.id > self.floor)
                        .order_by(AuditEntry.id)
                    )
                ]
            for row in rows:
                if row.id not in self.seen:
                    self.seen.add(row.id)
                    self._carry_out(row)
            settled = [row.id for row in rows if _aware(row.at) < datetime.now(UTC) - LATE]
            if settled:
                self.floor = max(settled)
                self.seen = {n for n in self.seen if n > self.floor}

    def _carry_out(self, row: Entry) -> None:
        try:
            if row.action in people.GONE and row.user_id is not None:
                self._gone(row.user_id, row.action)
            elif row.action == people.SIGN_OUT and row.user_id is not None:
                self._signed_out(row.user_id)
            elif row.action == people.HIDE_CHAT and row.table_id and row.chat_id:
                self._hidden(row.table_id, row.chat_id)
            elif row.action == people.CLOSE_TABLE and row.table_id:
                self.tables.refresh(row.table_id)
        except Exception:
            log.exception("moderation: could not carry out audit entry %s", row.id)

    def _gone(self, user_id: int, action: str) -> None:
        """A person banned or deleted: their sockets here close, their running seats at
        tables hosted here go to the bot, and the open tables here they sat at are read
        again (the ban freed their seats in the database)."""
        banned = action == people.BAN
        reason = "was banned" if banned else "left the site"
        name = None if banned else self._name_now(user_id)
        for live in self.tables.held():
            with live.lock:
                for listener in live.listeners:
                    if listener.user_id == user_id:
                        listener.end("your account is banned" if banned else "your account ended")
                sat = live.seat_of(user_id) is not None
                status = live.status
                renamed = name is not None and chat.rename(live, user_id, name)
            if (sat and status == "open") or renamed:
                self.tables.refresh(live.id)  # its pages read the new name in a sync
        self._hand_over(
            [(t, n, user_id, reason) for t, n in _running_seats(self.tables, [user_id])]
        )

    def _signed_out(self, user_id: int) -> None:
        """Sessions of the person ended: the sockets here opened in one of them close (the
        page asks the person to sign in again); those of a session kept go on."""
        with self.tables.db.open() as s:
            alive = set(s.scalars(select(Session.token_hash).where(Session.user_id == user_id)))
        for live in self.tables.held():
            with live.lock:
                for listener in live.listeners:
                    if listener.user_id == user_id and listener.session not in alive:
                        listener.end("your session ended: sign in again")

    def _name_now(self, user_id: int) -> str | None:
        """The person's name as the store has it since the erasure (a neutral one)."""
        with self.tables.db.open() as s:
            return s.scalar(select(User.name).where(User.id == user_id))

    def _hand_over(self, seats: list[tuple[int, int, int, str]]) -> None:
        for table_id, number, user_id, reason in seats:
            self.tables.give_seat_to_bot(table_id, number, user_id, reason)  # logs it

    def _hidden(self, table_id: int, chat_id: int) -> None:
        live = next((t for t in self.tables.held() if t.id == table_id), None)
        if live is None:
            return
        with live.lock:
            live.chat = [line for line in live.chat if line["id"] != chat_id]
            message = outbound.message("chat_hidden", id=chat_id)
            for listener in live.listeners:
                listener.send(message)

    def _sweep(self) -> None:
        """Seats of banned and deleted people at open and running tables: open ones freed
        (in the database), running ones hosted here handed to the bot."""
        barred = or_(User.banned_at.is_not(None), User.deleted_at.is_not(None))
        with self.tables.db.open() as s:
            found = s.execute(
                select(Seat.table_id, Seat.number, Seat.user_id, Table.status, User.banned_at)
                .join(Table, Seat.table_id == Table.id)
                .join(User, Seat.user_id == User.id)
                .where(Table.status.in_(("open", "running")), Seat.bot.is_(None), barred)
            ).all()
        if not found:
            return
        for user_id in {row.user_id for row in found if row.status == "open"}:
            with self.tables.db.write() as s:
                changed = people.leave_open_tables(s, user_id)
                s.commit()
            for table_id in changed:
                self.tables.refresh(table_id)
        self._hand_over(
            [
                (row.table_id, row.number, row.user_id, _reason(row.banned_at))
                for row in found
                if row.status == "running"
            ]
        )


def _running_seats(tables: Tables, user_ids: list[int]) -> list[tuple[int, int]]:
    """(table, seat) of running games these people still play themselves."""
    with tables.db.open() as s:
        return [
            (row.table_id, row.number)
            for row in s.execute(
                select(Seat.table_id, Seat.number)
                .join(Table, Seat.table_id == Table.id)
                .where(Seat.user_id.in_(user_ids), Seat.bot.is_(None), Table.status == "running")
            )
        ]


def _reason(banned_at: datetime | None) -> str:
    return "was banned" if banned_at is not None else "left the site"


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
