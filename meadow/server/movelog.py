"""Writing lines of tables' move logs: the three statements every move runs, for many
lines at once (group commit, `meadow.store.writer`).

The statements are built once: building them anew cost more than running them. Their
parameters are named p_...: an update given a parameter named like one of its table's
columns would set that column too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, DateTime, bindparam, insert, literal_column, update
from sqlalchemy.dialects import sqlite

from meadow.store import Move, Seat, Table
from meadow.store.writer import Done, GroupWriter

# Only at a running table: a game an admin closed meanwhile (in the database, maybe from
# another process) takes no further line.
_ADVANCE = (
    update(Table)
    .where(
        Table.id == bindparam("p_table"),
        Table.moves_made == bindparam("p_before"),
        Table.status == literal_column("'running'"),  # no parameter of its own
    )
    .values(
        moves_made=bindparam("p_number"),
        updated_at=bindparam("p_now"),
        turn_since=bindparam("p_now"),
        status=bindparam("p_status"),
    )
)
_LOG_LINE = insert(Move).values(
    table_id=bindparam("p_table"),
    number=bindparam("p_number"),
    seat=bindparam("p_seat"),
    action=bindparam("p_action"),
    note=bindparam("p_note"),
    created_at=bindparam("p_now"),
)
_CHARGE = (
    update(Seat)
    .where(Seat.table_id == bindparam("p_table"), Seat.number == bindparam("p_seat"))
    .values(used_ms=bindparam("p_used"))
)


class Taken(Exception):
    """Another writer committed this move number first."""


@dataclass
class Line:
    """One line of a table's log, with the seat's clock after it."""

    order: int  # the table's number: batches take their row locks in table order
    values: dict[str, Any]
    also: Callable[[Connection], None] | None = None


def write_lines(connection: Connection, lines: list[Line]) -> None:
    """Log `lines` (of different tables) in the connection's transaction: one statement for
    the guards, one for all the log lines, one for all the clocks.

    Raises:
        Taken: a table's move counter is no longer its line's number minus one (for one
            line at least: the group writer then writes the lines one by one to tell which),
            or (SQLite) the number is in the log already.
        IntegrityError: (other databases) a number is in the log already.
    """
    if connection.dialect.name == "sqlite":
        _write_on_sqlite(connection, lines)
    else:
        _write(connection, lines)
    for line in lines:
        if line.also is not None:
            line.also(connection)  # if it fails, the batch is written again line by line


def _write(connection: Connection, lines: list[Line]) -> None:
    # The guard on moves_made: of two writers for one number, one wins (and on PostgreSQL
    # the row lock makes the writers of one table take turns). A line at a time: psycopg2
    # cannot count the rows a statement run for many lines changed.
    for line in lines:
        if connection.execute(_ADVANCE, line.values).rowcount != 1:
            raise Taken
    values = [line.values for line in lines]
    connection.execute(_LOG_LINE, values)
    connection.execute(_CHARGE, values)


# SQLite: the same statements, rendered once, run by the driver itself. Through SQLAlchemy,
# preparing each batch's parameters cost the writer more than SQLite's work on them, and the
# writer shares the interpreter with the event loop.
_SQLITE = sqlite.dialect(paramstyle="named")
_ON_SQLITE = tuple(str(s.compile(dialect=_SQLITE)) for s in (_ADVANCE, _LOG_LINE, _CHARGE))
_SQLITE_TIME = DateTime().dialect_impl(_SQLITE).bind_processor(_SQLITE)  # as the ORM stores it
assert _SQLITE_TIME is not None


def _write_on_sqlite(connection: Connection, lines: list[Line]) -> None:
    advance, log_line, charge = _ON_SQLITE
    # Copies: if the batch fails, its lines are written again one by one.
    rows = [{**line.values, "p_now": _SQLITE_TIME(line.values["p_now"])} for line in lines]
    cursor = connection.connection.cursor()
    try:
        cursor.executemany(advance, rows)
        # Every line's guard must hold (as in `_write`): as many rows changed as lines.
        if cursor.rowcount != len(rows):
            raise Taken
        cursor.executemany(log_line, rows)
        cursor.executemany(charge, rows)
    except sqlite3.IntegrityError as exc:
        raise Taken from exc  # the number is in the log already
    finally:
        cursor.close()


def write_line(
    writer: GroupWriter[Line],
    table: int,
    number: int,
    seat: int,
    action: str,
    note: str | None,
    now: datetime,
    used_ms: int,
    status: str,
    done: Done,
    also: Callable[[Connection], None] | None = None,
) -> None:
    """Log line `number` of `table` and charge the seat's clock. `done` hears once the line
    is committed (None) or what failed it. `also`: more changes in the same transaction (the
    ratings of a game this line ends).

    What fails it:
        Taken: the table's move counter is no longer `number - 1`.
        IntegrityError: the number is in the log already.
    """
    values = {
        "p_table": table,
        "p_before": number - 1,
        "p_number": number,
        "p_seat": seat,
        "p_action": action,
        "p_note": note,
        "p_now": now,
        "p_used": used_ms,
        "p_status": status,
    }
    writer.submit(Line(table, values, also), done)
