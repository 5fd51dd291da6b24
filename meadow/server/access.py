"""Who may read a table: the one gate every route and socket that takes a table's number
goes through (`deps.readable_table` for a route, `readable` for the socket).

A public table is anyone's to read. A private one is read by its members (its seats, the
seats kept for someone at a rematch, its host) and by whoever holds a key to it: its
invitation, or the spectator key a member hands out (a link to watch, which seats nobody).
Everyone else is told exactly what they would be told of a table that does not exist, so
that a table's number, which is sequential, gives away nothing of a private one.

The spectator key is derived from the invitation rather than stored: no schema change, the
same in every process of a cluster, and it cannot be turned back into the invitation.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from sqlalchemy.orm import Session as DbSession
from starlette.requests import HTTPConnection

from meadow.server.errors import ApiError
from meadow.store import Table

MAX_ID = 2**31 - 1  # what every SQL database stores in an integer column
KEY_HEADER = "X-Meadow-Key"
KEY_QUERY = "key"  # for what cannot send a header: a socket, a download link
KEY_MAX = 64  # an invitation is at most this long (`routers.tables.INVITE`)


def no_such_table(table_id: int) -> ApiError:
    """The one refusal for a table that does not exist and a private one not yours."""
    return ApiError(404, f"there is no table {table_id}")


def spectator_key(table: Table) -> str:
    """The key a member hands out to let someone watch a private table."""
    digest = hmac.new(table.invite.encode(), f"spectate {table.id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:16]).decode().rstrip("=")


def is_member(table: Table, user_id: int | None) -> bool:
    """Seated at the table, or a seat kept for them there, or its host."""
    if user_id is None:
        return False
    if table.host_id == user_id:
        return True
    return any(seat.user_id == user_id or seat.reserved_for == user_id for seat in table.seats)


def _holds_key(table: Table, key: str | None) -> bool:
    if not key or len(key) > KEY_MAX:
        return False
    given = key.encode()
    # Both compared, always, in constant time: how long a wrong key took tells nothing.
    matches = [hmac.compare_digest(given, k.encode()) for k in (table.invite, spectator_key(table))]
    return any(matches)


def may_read(table: Table, user_id: int | None, key: str | None) -> bool:
    return not table.private or is_member(table, user_id) or _holds_key(table, key)


def readable(s: DbSession, table_id: int, user_id: int | None, key: str | None) -> Table:
    """The table if this person (or visitor, None) with this key may read it, else the
    refusal for a table that does not exist."""
    table = s.get(Table, table_id)
    if table is None or not may_read(table, user_id, key):
        raise no_such_table(table_id)
    return table


def key_of(connection: HTTPConnection) -> str | None:
    """The key a request or socket carries: the header, else the query parameter."""
    return connection.headers.get(KEY_HEADER) or connection.query_params.get(KEY_QUERY)
