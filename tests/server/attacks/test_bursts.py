"""Bursts: many requests at once, more than the server has worker threads and database
connections. Every one is answered, none with an error: a burst must never freeze the server.

Found from outside: 200 anonymous GET /api/tables at once froze a server for everyone; each
finished request kept its database connection while it waited for a worker thread (to check
its reply), and every worker thread waited for a connection (fastapi#3205). On a real server,
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import Any

import httpx

from tests.server.conftest import Server

# Past the worker threads (40) and the database connections (40) together.
AT_ONCE = 200


def answers(
    server: Server, send: Callable[[httpx.AsyncClient], Coroutine[Any, Any, Any]]
) -> Counter:
    """How `AT_ONCE` sends at once were answered: status codes, or the error's name."""

    async def burst() -> Counter:
        limits = httpx.Limits(max_connections=AT_ONCE)
        async with httpx.AsyncClient(base_url=server.base, timeout=90, limits=limits) as http:
            replies = await asyncio.gather(
                *(send(http) for _ in range(AT_ONCE)), return_exceptions=True
            )
        return Counter(getattr(r, "status_code", type(r).__name__) for r in replies)

    return asyncio.run(burst())


def test_a_burst_of_lobby_reads_is_answered(server: Server):
    assert answers(server, lambda http: http.get("/api/tables")) == {200: AT_ONCE}


def test_a_burst_of_a_signed_in_persons_reads_and_writes_is_answered(server: Server):
    person = server.client().signup(f"b-{secrets.token_hex(5)}")
    headers = {"X-CSRF-Token": person.csrf, "Cookie": person.cookies}

    def read(http: httpx.AsyncClient) -> Any:
        return http.get("/api/accounts/me", headers=headers)

    def write(http: httpx.AsyncClient) -> Any:
        return http.put("/api/accounts/me/settings", json={"language": "de"}, headers=headers)

    assert answers(server, read) == {200: AT_ONCE}
    assert answers(server, write) == {200: AT_ONCE}
