"""Writing lines of tables' move logs: the three statements every move runs, for many
lines at once (group commit, `meadow.store.writer`).

The statements are built once: building them anew cost more than running them. Their
parameters are named p_...: an update given a parameter named like one of its table's
columns would set that column too.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, update

from meadow.store import Move, Seat, Table
from meadow.store.writer import Done, GroupWriter

_ADVANCE = (
    update(Table)
    .where(Table.id == bindparam("p_table"), Table.moves_made == bindparam("p_before"))
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
            line at least: the group writer then writes the lines one by one to tell which).
        IntegrityError: a number is in the log already.
    """
    values = [line.values for line in lines]
    # The guard on moves_made: of two writers for one number, one wins (and on PostgreSQL
    # the row lock makes the writers of one table take turns). Every line's guard must hold,
    # so the rows changed must be as many as the lines; a driver that cannot count the rows
    # of a statement run for many (not ours so far) has each line's guard run alone.
    if connection.dialect.supports_sane_multi_rowcount:
        if connection.execute(_ADVANCE, values).rowcount != len(lines):
            raise Taken
    else:
        for line in lines:
            if connection.execute(_ADVANCE, line.values).rowcount != 1:
                raise Taken
    connection.execute(_LOG_LINE, values)
    connection.execute(_CHARGE, values)
    for line in lines:
        if line.also is not None:
            line.also(connection)  # if it fails, the batch is written again line by line


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
