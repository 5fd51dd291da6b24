"""Tables at play: the one place where moves are applied, logged and announced.

Every caller comes through `Tables` (`hub.py`), which holds what the rooms share (the
database, the cluster, the tables in memory, the log writer, the bot workers) and hands each
call to the room that does it:

    memory.py      resting and waking tables: which tables are in memory, how one is
                   read back from the log (`Memory.load`), when one leaves
    seating.py     seats and the waiting room: create, join, leave, start, reclaim, rematch
    moves.py       the move path: submit or play -> propose -> (the line committed) ->
                   settle or withdraw; undo, itself a line of the log
    telling.py     telling listeners: a sync when a socket subscribes, then each line as its
                   seat sees it; the e-mail of an async table's next player
    news.py        cluster news: other processes' lines read back from the log, and which
                   process hosts each running table
    bots.py        bots at tables: a bot asked to move, thinking in a worker process, its
                   move through the move path; a bot taking a person's seat
    clockwatch.py  clocks: who ran out of time or left, looked at only when due

A move's whole path: a router (`routers/tables.py`, HTTP) or a socket (`routers/sockets.py`)
calls `Tables.submit` or `Tables.play` -> `MovePath._propose`, under the table's lock: the
move number the client expected (a stale or repeated submission gets 409 and is never applied
twice), the seat, and `State.parse_action` -> `State.apply` on a copy of the state; its line
goes to the log writer (`movelog.write_line`, committed in a batch with other tables' lines)
and the table holds it as pending. Once the line is in the log, `MovePath._settle` swaps in
the new state, `Telling.tell` sends each listener the news built from its seat's view
(`outbound`), the cluster is told (`ClusterNews` in the other processes reads the line back),
and `BotsAtTables.schedule` asks the next seat's bot, whose move comes back through `submit`.
The lock is never held while waiting for a commit. A room reaches another only through the
hub (`self.hub.bots.schedule(...)`), so every crossing is named where it happens.
"""

from meadow.server.tables.hub import IDLE_SECONDS, Tables
from meadow.server.tables.memory import REST_EVERY_SECONDS

__all__ = ["IDLE_SECONDS", "REST_EVERY_SECONDS", "Tables"]
