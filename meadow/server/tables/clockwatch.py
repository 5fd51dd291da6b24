"""Clocks at the tables hosted here: a person out of time, or gone, loses the seat to the
table's takeover bot, and a seat nobody holds is played by it at once.

The rules of one clock are `meadow.server.clocks.Clock`; when each table is looked at is
`meadow.server.looks.Looks` (at the next tick after a change, and when its clock may run out,
never at every tick for every table).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from meadow.server.live import LiveTable

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables


class ClockWatch:
    """The looks at the clocks of this process's tables."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def check(self, now: datetime | None = None) -> int:
        """Hand overdue seats, and seats nobody holds, to the takeover bot, and ask the bot
        to move wherever it is a bot's turn: at the tables hosted here that changed since
        the last look or whose clock may have run out (`Looks`), not at every table held.
        Returns how many tables were looked at."""
        hub = self.hub
        now = now or datetime.now(UTC)
        asked, every_table = hub.looks.due(now)
        with hub.guard:
            if every_table:
                asked.update(hub.live)
            found = [hub.live.get(table_id) for table_id in asked]
        running = [
            live
            for live in found
            if live is not None and live.status == "running" and hub.cluster.hosts(live.id)
        ]
        for live in running:
            with live.lock:
                to_move = live.state.to_move if live.state else None
                people = {n for n, (user, bot) in enumerate(live.seats) if bot is None and user}
                late = live.clock.overdue(to_move, now)
                for seat, reason in late.items():
                    if seat in people:
                        hub.bots.take_over(live, seat, reason)
                        people.discard(seat)
                for seat in _unplayable(live):  # a bot plays a seat nobody holds, at once
                    hub.bots.take_over(live, seat, "never came")
                due = live.clock.due(to_move, people)
            if due is not None:
                # Not before the next tick: a moment just reached is overdue only after it.
                hub.looks.ask_at(live.id, max(due, now + timedelta(milliseconds=1)))
            hub.bots.schedule(live)
        return len(running)


def _unplayable(live: LiveTable) -> list[int]:
    """Seats of a running game with neither a person nor a bot: the start refuses them, but
    a table stored otherwise must still be played to its end."""
    return [n for n, (user, bot) in enumerate(live.seats) if user is None and bot is None]
