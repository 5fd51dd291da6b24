"""Wires the server together: settings, store, tables, routes and error handling."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DataError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meadow.core.errors import IllegalAction, MeadowError, NotationError
from meadow.server.auth import RateLimit
from meadow.server.cluster import Alone, RedisCluster
from meadow.server.errors import ApiError
from meadow.server.mail import Mailer
from meadow.server.routers import accounts, tables
from meadow.server.settings import Settings, get_settings
from meadow.server.tables import Tables
from meadow.store import Database

log = logging.getLogger("meadow.server")

# The browser interface: static ES modules, SVG and CSS, served as they are (no build step).
WEB = Path(__file__).resolve().parent.parent / "web"


def create_app(config: Settings | None = None) -> FastAPI:
    config = config or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(config.database())
        db.migrate()
        app.state.db = db
        mailer = Mailer(config)
        cluster: Alone | RedisCluster = Alone()
        if config.redis_url:
            cluster = RedisCluster(config.redis_url, config.lease_ms, config.cluster_name)
        app.state.tables = Tables(db, config.bot_workers, mailer, cluster)
        app.state.tables.restore()
        cluster.start(app.state.tables.follow)
        watch = asyncio.create_task(_watch_clocks(app.state.tables))
        thresholds = _spare_the_collector()
        yield
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        watch.cancel()
        cluster.close()
        app.state.tables.close()
        mailer.close()
        db.dispose()

    app = FastAPI(
        title="Meadow",
        summary="Play Renature, Mystic Vale, Topiary and Harmonies online.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.settings = config
    app.state.login_limit = RateLimit(config.login_attempts_per_minute)
    app.include_router(accounts.router)
    app.include_router(tables.router)
    # Last, so every /api route is matched before the pages.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    _handle_errors(app)
    return app


def _spare_the_collector() -> tuple[int, int, int]:
    """Tune the cycle collector for a server; returns the thresholds it had.

    A full collection scans every object of the process, and an open socket alone holds some
    hundreds: with a few thousand sockets each full collection held the event loop for half
    a second. What is there once the server has started (modules, the games' data, the tables
    restored) stays for its life, so it is frozen out of every collection. A young
    generation of 20,000 objects instead of 700 lets a move's short-lived objects die before
    a collection promotes them, so the older generations grow, and are scanned, less often.
    Under the load benchmark not one collection then ran during a run, and the server's CPU
    per move went from 0.73 to 0.47 ms (docs/benchmarks.md)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return thresholds


async def _watch_clocks(tables: Tables) -> None:
    """Twice a second: keep hosting this process's tables (adopting those of a process that
    died), and hand seats whose time (or whose player) is gone to a bot."""
    while True:
        await asyncio.sleep(0.5)
        try:
            await asyncio.to_thread(tables.adopt)
            await asyncio.to_thread(tables.check_clocks)
        except Exception:
            log.exception("clock check failed")


def _handle_errors(app: FastAPI) -> None:
    """Every refusal is one readable message with a 4xx status; a 500 means a bug."""

    def reply(status: int, message: str, **extra: Any) -> JSONResponse:
        return JSONResponse({"error": message, **extra}, status_code=status)

    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return reply(exc.status, exc.message, **exc.extra)

    @app.exception_handler(NotationError)
    async def notation_error(_: Request, exc: NotationError) -> JSONResponse:
        return reply(400, str(exc))

    @app.exception_handler(IllegalAction)
    async def illegal(_: Request, exc: IllegalAction) -> JSONResponse:
        return reply(422, str(exc))

    @app.exception_handler(MeadowError)
    async def meadow_error(_: Request, exc: MeadowError) -> JSONResponse:
        return reply(400, str(exc))

    @app.exception_handler(DataError)
    async def unstorable(_: Request, exc: DataError) -> JSONResponse:
        # Values the database cannot hold (a NUL character in text, say) are bad input.
        return reply(400, "a value in the request cannot be stored (a control character?)")

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', 'invalid')}"
            for e in exc.errors()
        ]
        return reply(422, "; ".join(problems) or "invalid request")


class BodyLimit:
    """Refuses request bodies over `limit` bytes with 413, announced or not."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(send, self.limit)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLarge:
            await _too_large(send, self.limit)


class _TooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    response = JSONResponse({"error": f"the request body is over {limit} bytes"}, 413)
    await send({"type": "http.response.start", "status": 413, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})
