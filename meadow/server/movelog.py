"""Writing one line of a table's move log: the three statements every move runs, in one
piece of group-committed work (`meadow.store.writer`).

The statements are built once: building them anew cost more than running them. Their
parameters are named p_...: an update given a parameter named like one of its table's
columns would set that column too.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime

from sqlalchemy import Connection, bindparam, insert, update
from sqlalchemy.orm import Session as DbSession

from meadow.store import Move, Seat, Table
from meadow.store.writer import GroupWriter

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


def write_line(
    writer: GroupWriter,
    table: int,
    number: int,
    seat: int,
    action: str,
    note: str | None,
    now: datetime,
    used_ms: int,
    status: str,
    also: Callable[[DbSession], None] | None = None,
) -> Future[None]:
    """Log line `number` of `table` and charge the seat's clock. The future is done once
    the line is committed. `also`: more changes in the same transaction (the ratings of a
    game this line ends).

    The future's exception:
        Taken: the table's move counter is no longer `number - 1`.
        IntegrityError: the number is in the log already.
    """
    line = {
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

    def record(connection: Connection) -> None:
        # The guard on moves_made: of two writers for one number, one wins (and on
        # PostgreSQL the row lock makes the writers of one table take turns).
        if connection.execute(_ADVANCE, line).rowcount != 1:
            raise Taken
        connection.execute(_LOG_LINE, line)
        connection.execute(_CHARGE, line)
        if also is not None:
            # In this line's own savepoint: committing the session releases it, and the
            # batch's commit makes it durable with the move.
            with DbSession(bind=connection, join_transaction_mode="create_savepoint") as s:
                also(s)
                s.commit()

    return writer.submit(record, order=table)
