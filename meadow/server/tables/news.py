"""Cluster news: what other processes did at the tables this one holds, read back from the
log, and which process hosts each running table (its bots and clock).

News on the cluster's channel (`meadow.server.cluster`) is only a hint to read the log:
whoever can publish on the channel can make this process read, never make it believe a move.
Alone (no Redis), this process hosts every table and hears no news.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, select

from meadow.server import chat
from meadow.server.cluster import CHAT, FRESH, LINE, TABLE
from meadow.server.errors import ApiError
from meadow.server.live import LiveTable
from meadow.server.tables.memory import aware
from meadow.store import Move, Seat, Table

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables

log = logging.getLogger("meadow.server")

# A table's log lines after a number, each with its seat's clock (`ClusterNews._read_lines`).
_NEW_LINES = (
    select(Move.number, Move.seat, Move.action, Move.note, Move.created_at, Seat.used_ms)
    .join(Seat, (Seat.table_id == Move.table_id) & (Seat.number == Move.seat))
    .where(Move.table_id == bindparam("p_table"), Move.number > bindparam("p_after"))
    .order_by(Move.number)
)


class ClusterNews:
    """Hearing of other processes' moves, and hosting tables among the processes."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def current(self, table_id: int) -> LiveTable:
        """The table with every line logged so far, by any process: what a reader who may
        have just heard of a move elsewhere must be shown (news may still be on its way)."""
        live = self.hub.memory.get(table_id)
        if self.hub.cluster.shared:
            self.catch_up(live)
        return live

    def restore(self) -> int:
        """Bring every running table back after a start and let its bots carry on (in a
        cluster, `adopt` does this for the tables this process comes to host)."""
        hub = self.hub
        if hub.cluster.shared:
            return 0
        with hub.db.open() as s:
            running = s.scalars(select(Table.id).where(Table.status == "running")).all()
        for table_id in running:
            hub.bots.schedule(hub.memory.get(table_id))
        return len(running)

    def follow(self, table_id: int, kind: str = TABLE) -> None:
        """News from another process (on its listening thread): `kind` of table `table_id`
        changed (LINE: new lines of its log; CHAT: of its chat; TABLE: anything else), or
        (FRESH) this process has just begun to hear the table's news and reads what it may
        have missed. The reading is done by a few threads, so that one table's round trips
        to the database do not hold up news of the others; two readers of one table take
        turns on its lock, and the later one reads what the earlier did not."""
        hub = self.hub
        with hub.guard:  # a table's news is looked up by its number, not by a pass over all
            live = hub.live.get(table_id)
        try:
            if live is None:
                if hub.cluster.hosts(table_id):
                    # A table resting out of memory changed elsewhere (or may have, while
                    # this process did not hear it): its host holds it again, so that its
                    # bots and clock carry on from what changed.
                    hub.hearing.submit(self._hold, table_id)
            elif kind == FRESH:
                hub.hearing.submit(self._hear, live, FRESH)
            elif not self._let_go(live):
                hub.hearing.submit(self._hear, live, kind)
        except RuntimeError:  # closed: the process is stopping, its listeners gone
            return

    def _let_go(self, live: LiveTable) -> bool:
        """A table another process hosts, held here for a request and watched by nobody
        here, leaves memory at its first news instead of following it: read again if asked
        for, it costs nothing meanwhile (without this, a table created or joined through
        this process had every move applied here too). True if it left."""
        if self.hub.cluster.hosts(live.id):
            return False
        with live.lock:  # then the guard: never the other way round
            return not live.busy and self.hub.memory.drop(live)

    def _hold(self, table_id: int) -> None:
        try:
            self.hub.memory.get(table_id)
        except ApiError:  # deleted meanwhile: the next recount forgets its host
            pass
        except Exception:
            log.exception("table %s: could not read it back after news", table_id)

    def _hear(self, live: LiveTable, kind: str) -> None:
        try:
            if kind in (CHAT, FRESH):  # FRESH: whatever may have been missed, chat too
                chat.hear(self.hub, live)
            if kind == CHAT or self._read_lines(live):
                return
            # A line's news with nothing new to read: another reader was quicker. Unless
            # the table is not at play here yet (its start's news still on its way).
            if kind != LINE or live.status != "running":
                self.catch_up(live)
                if kind != LINE and live.status == "finished":
                    self.hub.telling.announce_table(live)  # a rematch offered elsewhere
        except Exception:
            log.exception("table %s: could not read news from the log", live.id)

    def _read_lines(self, live: LiveTable) -> bool:
        """The quick way to hear of moves made elsewhere: only the log's new lines, each
        with its seat's clock (one query, no ORM: a process hears every move of its tables
        made elsewhere). False when there are none, or the table is not at play here: then
        something else changed (a seat, the status), and `catch_up` reads it all."""
        hub = self.hub
        with live.lock:
            if live.status != "running":
                return False
            with hub.db.engine.connect() as connection:
                after = {"p_table": live.id, "p_after": live.moves_made}
                rows = connection.execute(_NEW_LINES, after).all()
            if not rows:
                return False
            for row in rows:
                entry = hub.memory.replay_line(live, row.number, row.seat, row.action, row.note)
                live.clock.used_ms[row.seat] = row.used_ms
                hub.telling.tell(live, entry)
            live.clock.turn_since = aware(rows[-1].created_at)  # a line's time starts a turn
            if live.state is not None and live.state.is_over:
                live.status = "finished"
        self.unhost_if_over(live)
        hub.bots.schedule(live)
        return True

    def catch_up(self, live: LiveTable) -> None:
        """Read what other processes logged for this table and tell this process's
        listeners, line by line, as if the moves had been made here."""
        hub = self.hub
        with live.lock:
            with hub.db.open() as s:
                table = s.get(Table, live.id)
                assert table is not None
                seats = [(seat.user_id, seat.bot) for seat in table.seats]
                lines = s.scalars(
                    select(Move)
                    .where(Move.table_id == live.id, Move.number > live.moves_made)
                    .order_by(Move.number)
                ).all()
                live.clock.turn_since = aware(table.turn_since)
                live.clock.used_ms = [seat.used_ms for seat in table.seats]
                live.clock.left_at = [
                    aware(seat.left_at) if seat.left_at else None for seat in table.seats
                ]
                status = table.status
            hub.looks.ask(live.id)
            if live.status == "open":
                if status != "open" or seats != live.seats:
                    hub.memory.reload(live)
                    hub.telling.announce_table(live)
                return
            for number, (was, now) in enumerate(zip(live.seats, seats, strict=True)):
                if was != now:  # a bot took a seat, elsewhere
                    live.seats[number] = now
                    hub.telling.seat_changed(live, number, now[1])
            for row in lines:
                entry = hub.memory.replay_line(live, row.number, row.seat, row.action, row.note)
                hub.telling.tell(live, entry)
            live.status = status
        self.unhost_if_over(live)
        hub.bots.schedule(live)

    def refresh(self, table_id: int) -> None:
        """A table held here, read again from the database, and its pages told: something
        about it was decided in the database elsewhere (an admin closed it, or a person's
        seat was freed)."""
        with self.hub.guard:
            live = self.hub.live.get(table_id)
        if live is None:
            return
        self.catch_up(live)  # an open table is reloaded and announced if it changed
        if live.status != "open":
            self.hub.telling.announce_table(live)

    def unhost_if_over(self, live: LiveTable) -> None:
        """A table no longer at play needs no host (if it was this process), and leaves
        memory once nobody here watches it."""
        if live.status in ("open", "running"):
            return
        if self.hub.cluster.hosts(live.id):
            self.hub.cluster.release(live.id)
        self.hub.memory.forget_if_done(live)

    def adopt(self) -> None:
        """Keep hosting this process's tables and take those of a process that died: their
        bots and clocks carry on here. The database's running tables are read only now and
        then (`recount_due`), to host any that no process hosts, never at every look."""
        hub = self.hub
        if not hub.cluster.shared:
            return
        taken = hub.cluster.look()
        if hub.cluster.recount_due():
            taken += self.recount()
        for table_id in taken:
            live = hub.memory.get(table_id)
            self.catch_up(live)
            log.info("table %s: hosted here from now on", table_id)
            hub.bots.schedule(live)

    def host_here(self, table_ids: list[int]) -> list[int]:
        """Host those of the tables no process hosts; Redis failing, the next recount
        does (its bots wait until then)."""
        try:
            return self.hub.cluster.claim(table_ids)
        except Exception:
            log.warning("could not host tables %s here; the next recount does", table_ids[:5])
            return []

    def recount(self) -> list[int]:
        """Compare the hosts with the database: host the running tables nobody hosts (a
        start whose claim failed, a site whose Redis was emptied), forget the hosts of
        tables no longer running (one that ended with its host gone). Returns the tables
        newly hosted here."""
        hub = self.hub
        with hub.db.open() as s:
            running = set(s.scalars(select(Table.id).where(Table.status == "running")).all())
        taken = self.host_here(sorted(running))
        gone = [t for t in hub.cluster.listed() if t not in running]
        if gone:  # re-read: a table may have started since (a status never goes back)
            with hub.db.open() as s:
                at_play = set(
                    s.scalars(
                        select(Table.id).where(
                            Table.id.in_(gone), Table.status.in_(("open", "running"))
                        )
                    ).all()
                )
            hub.cluster.forget([t for t in gone if t not in at_play])  # ended, or deleted
        return taken
