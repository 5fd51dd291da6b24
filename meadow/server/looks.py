"""When the host looks at a table's clocks and bots: at the next tick after anything changed
there, and at the moment its clock may run out; never at every tick for every table.

The clock's look runs twice a second. It once went through every table held at every tick,
taking each table's lock: the cost of a tick grew with the tables held, whether they moved
or not (issue 26). A table now asks for a look when something changes that a look must see
(it came into memory, a line was applied, a seat was left or taken back, a bot's think
ended), and each look tells when the next is due if nothing changes meanwhile (`Clock.due`
for the seats people play). A pass over every table held, once a minute, is the safety net
for a change that asked for no look.
"""

from __future__ import annotations

import heapq
import threading
from datetime import datetime, timedelta

EVERY_TABLE_SECONDS = 60.0


class Looks:
    """The tables due for a look, by moment. Thread-safe: changes are asked for on any
    thread, the looks are taken on the clock's."""

    def __init__(self, now: datetime) -> None:
        self.guard = threading.Lock()
        self.soon: set[int] = set()  # looked at the next tick
        # (moment, table): superseded entries stay in the heap until their moment and are
        # then skipped, since `moments` holds each table's latest.
        self.heap: list[tuple[datetime, int]] = []
        self.moments: dict[int, datetime] = {}
        self.every_table_at = now

    def ask(self, table_id: int) -> None:
        """Something changed at the table: look at it at the next tick."""
        with self.guard:
            self.soon.add(table_id)

    def ask_at(self, table_id: int, moment: datetime) -> None:
        """Look at the table at `moment` (unless it asks again before): the one moment kept
        per table is the latest asked for."""
        with self.guard:
            if self.moments.get(table_id) == moment:
                return
            self.moments[table_id] = moment
            heapq.heappush(self.heap, (moment, table_id))
            if len(self.heap) > 2 * len(self.moments) + 64:  # mostly superseded: rebuilt
                self.heap = [(when, table) for table, when in self.moments.items()]
                heapq.heapify(self.heap)

    def due(self, now: datetime) -> tuple[set[int], bool]:
        """The tables to look at now, and whether every table held must be looked at too
        (the safety net, once a minute)."""
        with self.guard:
            tables, self.soon = self.soon, set()
            while self.heap and self.heap[0][0] <= now:
                moment, table_id = heapq.heappop(self.heap)
                if self.moments.get(table_id) == moment:
                    del self.moments[table_id]
                    tables.add(table_id)
            every_table = now >= self.every_table_at
            if every_table:
                self.every_table_at = now + timedelta(seconds=EVERY_TABLE_SECONDS)
        return tables, every_table
