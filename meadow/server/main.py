"""Wires the server together: settings, store, tables, routes and error handling."""

from __future__ import annotations

import asyncio
import gc
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meadow.core.errors import IllegalAction, MeadowError, NotationError
from meadow.server import auth, health, limits, metrics, upkeep
from meadow.server.botrules import BotRules
from meadow.server.cluster import Alone, RedisCluster
from meadow.server.coach import Coach
from meadow.server.connections import Sockets
from meadow.server.drain import Drain
from meadow.server.errors import ApiError
from meadow.server.logs import RequestId
from meadow.server.mail import Mailer
from meadow.server.moderation import Moderation
from meadow.server.protect import SameSite, SecurityHeaders
from meadow.server.routers import (
    accounts,
    admin,
    analysis,
    chat,
    learn,
    people,
    sockets,
    tables,
)
from meadow.server.settings import Settings, get_settings
from meadow.server.tables import Tables
from meadow.store import Database

log = logging.getLogger("meadow.server")

# The browser interface: static ES modules, SVG and CSS, served as they are (no build step).
WEB = Path(__file__).resolve().parent.parent / "web"


# Said at every start while the site has no admin: the command is in no page a host sees.
FIRST_ADMIN = (
    "no admin yet: sign up in the browser, then `meadow admin make-admin NAME` makes "
    "you one (docs/operations.md, first run)"
)


def _has_admin(db: Database) -> bool:
    from sqlalchemy import select

    from meadow.store.models import User

    with db.open() as session:
        return session.scalar(select(User.id).where(User.is_admin).limit(1)) is not None


def create_app(config: Settings | None = None) -> FastAPI:
    config = config or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        auth.configure(config.password_hash_memory_kib, config.password_hash_rounds)
        db = Database(config.database())
        db.migrate()
        app.state.db = db
        if not _has_admin(db):
            log.info("%s", FIRST_ADMIN)
        mailer = Mailer(config)
        app.state.mailer = mailer
        cluster: Alone | RedisCluster = Alone()
        # The site's name in Redis: its news channel, leases and shared limits.
        app.state.site = config.cluster_name or f"meadow-{db.site_id()}"
        app.state.site_secret = db.site_fact("secret")
        if config.redis_url:
            cluster = RedisCluster(config.redis_url, config.lease_ms, app.state.site)
        bot_rules = BotRules(config.bot_max_iterations, config.bot_max_seconds)
        app.state.tables = Tables(
            db, config.bot_workers, mailer, cluster, bot_rules, config.idle_table_seconds
        )
        app.state.tables.restore()
        metrics.count_tables(app.state.tables)
        app.state.moderation = Moderation(app.state.tables)
        cluster.start(app.state.tables.follow)
        watch = asyncio.create_task(_watch_clocks(app.state.tables, app.state.moderation))
        tidy = asyncio.create_task(_tidy(db, config))
        app.state.coach = Coach(db, config)
        hub = app.state.tables
        coaching = asyncio.create_task(
            app.state.coach.run(lambda table_id: hub.current(table_id).record())
        )
        thresholds = _spare_the_collector()
        yield
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        watch.cancel()
        tidy.cancel()
        coaching.cancel()
        app.state.coach.close()
        # The log writer commits what it holds, then the others hear of it and get the
        # leases; in that order, so that no news is lost and no table is hosted by two.
        if not app.state.tables.close(app.state.drain.time_left(10)):
            log.warning("stopping: the move log's last lines were still being committed")
        cluster.close()
        metrics.count_tables(None)
        mailer.close()
        db.dispose()

    app = FastAPI(
        title="Meadow",
        summary="Play Renature, Mystic Vale, Topiary and Harmonies online.",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's /docs and /redoc pages load their scripts from a CDN: blank offline and
        # outside the site's CSP. The description itself is /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = config
    app.state.drain = Drain(config.drain_seconds)
    app.state.sockets = Sockets.of(config)  # table sockets per person and address
    _quiet_client_faults()
    app.state.limits = limits.for_app(app, config)
    app.include_router(accounts.router)
    app.include_router(tables.router)
    app.include_router(sockets.router)
    app.include_router(chat.router)
    app.include_router(analysis.router)
    app.include_router(learn.router)
    app.include_router(people.router)
    app.include_router(admin.router)
    _answer_unrouted(app)
    app.include_router(health.router)  # outside /api: no limit, session or catch-all
    # Last, so every /api route is matched before the pages.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    app.add_middleware(SameSite)
    app.add_middleware(SecurityHeaders, https_only=config.secure_cookies)
    app.add_middleware(metrics.HttpMetrics)
    app.add_middleware(RequestId)  # the outermost: every line logged for a request has its id
    _handle_errors(app)
    return app


class _ClientFault(logging.Filter):
    """A client's broken frame is the client's fault, not the server's: one warning line,
    no traceback. (The WebSocket layer logs a text frame of invalid UTF-8 as an exception,
    though it answers it correctly, closing the socket with 1007.)"""

    FAULTS = ("Invalid UTF-8 sequence received from client.",)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() in self.FAULTS:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def _quiet_client_faults() -> None:
    server_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _ClientFault) for f in server_log.filters):
        server_log.addFilter(_ClientFault())


METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]


def _answer_unrouted(app: FastAPI) -> None:
    """An /api path no route takes, or a method its route does not: 404, or 405 with the
    methods the API description gives that path in `Allow` (not the pages' GET)."""

    @app.api_route("/api/{rest:path}", methods=METHODS, include_in_schema=False)
    async def unrouted(request: Request, rest: str) -> JSONResponse:
        path = request.url.path
        allowed = sorted(
            method.upper()
            for template, methods in _described_paths(app)
            if template.fullmatch(path)
            for method in methods
        )
        if not allowed:
            return JSONResponse({"error": f"no API at {path}"}, status_code=404)
        return JSONResponse(
            {"error": f"{request.method} is not for {path}: {', '.join(allowed)} are"},
            status_code=405,
            headers={"Allow": ", ".join(allowed)},
        )


def _described_paths(app: FastAPI) -> list[tuple[re.Pattern[str], list[str]]]:
    """Each path of the OpenAPI description as a pattern, with its methods."""
    found: list[tuple[re.Pattern[str], list[str]]] | None = getattr(app.state, "paths", None)
    if found is None:
        found = [
            (re.compile(re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(path))), list(methods))
            for path, methods in app.openapi()["paths"].items()
        ]
        app.state.paths = found
    return found


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


async def _watch_clocks(tables: Tables, moderation: Moderation) -> None:
    """Twice a second: keep hosting this process's tables (adopting those of a process that
    died), bring back resting tables whose clock may have run out, hand seats whose time (or
    whose player) is gone to a bot, let tables idle for long leave memory (once a minute),
    and carry out what admins decided meanwhile (a banned person's seats go to a bot too)."""
    while True:
        await asyncio.sleep(0.5)
        try:
            await asyncio.to_thread(tables.adopt)
            await asyncio.to_thread(tables.wake_due)
            await asyncio.to_thread(tables.check_clocks)
            await asyncio.to_thread(tables.rest_idle)
            await asyncio.to_thread(moderation.tick)
        except Exception:
            log.exception("clock check failed")


async def _tidy(db: Database, config: Settings) -> None:
    """Every ten minutes: expired sessions, idle guests and long-untouched open tables go
    (`upkeep.purge`). Each process does it; what one deleted, the others find gone."""
    while True:
        try:
            gone = await asyncio.to_thread(upkeep.purge, db, config)
            if any(gone.values()):
                log.info("upkeep: %s", ", ".join(f"{n} {what}" for what, n in gone.items()))
        except Exception:
            log.exception("upkeep failed")
        await asyncio.sleep(600)


def _handle_errors(app: FastAPI) -> None:
    """Every refusal is one readable message with a 4xx status; a 500 means a bug."""

    def reply(status: int, message: str, **extra: Any) -> JSONResponse:
        return JSONResponse({"error": message, **extra}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Starlette's own refusals (a body that is not JSON, say) in Meadow's form.
        answer = reply(exc.status_code, str(exc.detail))
        answer.headers.update(exc.headers or {})
        return answer

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
