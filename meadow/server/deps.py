"""Request dependencies: the store, the tables, and who is asking."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

from fastapi import Depends, Request
from sqlalchemy.orm import Session as DbSession
from starlette.requests import HTTPConnection

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


async def site_limits(request: HTTPConnection) -> Limits:
    return request.app.state.limits
