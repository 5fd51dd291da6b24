"""Request dependencies: the store, the tables, and who is asking."""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request
from fastapi.routing import APIRoute
from sqlalchemy.orm import Session as DbSession
from starlette.requests import HTTPConnection

from meadow.server import access
from meadow.server.auth import COOKIE, CSRF_HEADER, expired, token_hash
from meadow.server.errors import ApiError
from meadow.server.limits import Limits
from meadow.server.settings import Settings
from meadow.server.tables import Tables
from meadow.store import Database, Session, User

# Async, though they never wait: FastAPI runs a plain function dependency in a worker
# thread, a hop that costs more than the attribute it reads.


async def settings(request: HTTPConnection) -> Settings:
    return request.app.state.settings


async def database(request: HTTPConnection) -> Database:
    return request.app.state.db


async def tables(request: HTTPConnection) -> Tables:
    return request.app.state.tables


async def db_session(db: Database = Depends(database)) -> AsyncIterator[DbSession]:
    # Async: making and closing a session are quick (routes hand their connection back
    # before they return), and a plain generator would cost two hops to a worker thread.
    with db.open() as s:
        yield s


def db_writer(db: Database = Depends(database)) -> Iterator[DbSession]:
    """A session for a request that writes (see `Database.write`)."""
    with db.write() as s:
        yield s


def session_of(request: HTTPConnection, s: DbSession) -> Session | None:
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    found = s.get(Session, token_hash(token))
    if found is None or expired(found):
        return None
    # A ban ends the person's sessions; a session made while the ban was being decided must
    # not outlive it either.
    if found.user.banned_at is not None or found.user.deleted_at is not None:
        return None
    return found


def viewer(request: Request, s: DbSession = Depends(db_session)) -> User | None:
    """The signed-in person, or None."""
    found = session_of(request, s)
    user = found.user if found else None
    s.commit()  # hand the connection back: the request may need one elsewhere meanwhile
    return user


def signed_in(request: Request, s: DbSession = Depends(db_session)) -> User:
    """The signed-in person, for requests that change something: the CSRF header must
    match the session's token."""
    found = session_of(request, s)
    if found is None:
        raise ApiError(401, "sign in first")
    if request.method not in ("GET", "HEAD") and request.headers.get(CSRF_HEADER) != found.csrf:
        raise ApiError(403, f"missing or wrong {CSRF_HEADER} header")
    user = found.user
    # Hand the connection back: the tables open their own, and a request holding one while
    # waiting for another would starve the pool under load.
    s.commit()
    return user


def readable_table(
    connection: HTTPConnection,
    table_id: Annotated[int, Path(ge=1, le=access.MAX_ID, description="The table's number.")],
    # Declared for the schema; read through `key_of`, which a socket shares.
    key: Annotated[
        str | None,
        Query(
            max_length=access.KEY_MAX,
            description="For a private table: its invitation or spectator key (as the "
            f"{access.KEY_HEADER} header, where one can be sent).",
        ),
    ] = None,
    x_meadow_key: Annotated[
        str | None, Header(max_length=access.KEY_MAX, description="The key, as a header.")
    ] = None,
    user: User | None = Depends(viewer),
    s: DbSession = Depends(db_session),
) -> int:
    """The route's table number, once the asking person (or visitor) may read the table:
    every route that takes a table's number goes through this gate (`meadow.server.access`),
    and a private table not theirs is, to them, one that does not exist (404)."""
    access.readable(s, table_id, user.id if user else None, access.key_of(connection))
    s.commit()  # hand the connection back: the route may need one elsewhere
    return table_id


ReadableTable = Annotated[int, Depends(readable_table)]


class DatabaseRoute(APIRoute):
    """A route whose plain-function endpoint hands its database sessions' connections back
    before it leaves its worker thread.

    FastAPI closes a `Depends` session only after it has checked the endpoint's reply, and
    for a plain function it checks the reply in a worker thread. So a finished request kept
    its connection while it waited for a thread, and under a burst (200 lobby reads at once)
    every thread waited for a connection held by a request waiting for a thread: the server
    answered nobody (fastapi#3205). A connection taken in a thread now goes back in it."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not inspect.iscoroutinefunction(endpoint):
            endpoint = _closing_sessions(endpoint)
        super().__init__(path, endpoint, **kwargs)


def _closing_sessions(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(endpoint)  # FastAPI reads the endpoint's own signature through it
    def run(**arguments: Any) -> Any:
        try:
            return endpoint(**arguments)
        finally:
            for value in arguments.values():
                if isinstance(value, DbSession):
                    value.close()  # what is loaded stays readable; nothing uncommitted is kept

    return run


async def site_limits(request: HTTPConnection) -> Limits:
    return request.app.state.limits
