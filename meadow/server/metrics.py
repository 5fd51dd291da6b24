"""What the server counts for Prometheus (prometheus-client), and the two ways to read it.

Each server process counts its own, in prometheus-client's registry of the process (with the
library's process and garbage-collector metrics): a site of several processes is scraped
process by process (docs/operations.md). Nothing is served unless the operator asks for it:
`MEADOW_METRICS_ADDRESS` starts a second, small HTTP server with the metrics alone (on a
private address), `MEADOW_METRICS_TOKEN` serves /metrics on the main port to requests that
show the token; with neither, /metrics answers 404.

Labels are bounded sets (games, route templates, statuses, methods, the limits' names), so
that no client can make the registry grow by asking for new paths.
"""

from __future__ import annotations

import secrets
import time
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meadow import games

if TYPE_CHECKING:
    from meadow.server.tables import Tables

disable_created_metrics()  # a `_created` series beside each counter doubles what is scraped

# Seconds: a move is committed in milliseconds; a slow disk or a stalled database shows in
# the upper buckets.
_QUICK = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MOVES = Counter(
    "meadow_moves_committed",
    "Lines of the move log (moves and undos) this process committed, by game.",
    ["game"],
)
MOVE_SECONDS = Histogram(
    "meadow_move_seconds",
    "From a move's check to its line being committed and told to the table, by game.",
    ["game"],
    buckets=_QUICK,
)
BATCH_LINES = Histogram(
    "meadow_movelog_batch_lines",
    "Lines of the move log committed together in one transaction (the group writer).",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)
SOCKETS = Gauge("meadow_open_sockets", "Table sockets open on this process.")
BOTS_QUEUED = Gauge("meadow_bots_queued", "Bot moves waiting for a thinker.")
BOTS_THINKING = Gauge("meadow_bots_thinking", "Bots thinking now.")
THINK_SECONDS = Histogram(
    "meadow_bot_think_seconds",
    "How long a bot thought about a move, by game.",
    ["game"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0, 600.0),
)
HTTP_REQUESTS = Counter(
    "meadow_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "meadow_http_request_seconds",
    "How long HTTP requests took to answer, by method and route template.",
    ["method", "route"],
    buckets=_QUICK,
)
LOGIN_FAILURES = Counter("meadow_login_failures", "Log-ins refused for a wrong name or password.")
THROTTLED = Counter(
    "meadow_throttled",
    "Requests refused by a limit (429), or by the full password-hashing queue (503), by limit.",
    ["limit"],
)
NEWS_LAG = Histogram(
    "meadow_news_lag_seconds",
    "From another process publishing news of a table to this process hearing it (the two "
    "machines' clocks apart included).",
    buckets=_QUICK,
)


@dataclass(frozen=True)
class OfGame:
    """One game's series, looked up once: a label lookup costs more than the count itself
    (about 1 µs against 0.4), and a move is counted on the event loop."""

    moves: Counter
    move_seconds: Histogram
    think_seconds: Histogram


@cache
def of_game(game_id: str) -> OfGame:
    return OfGame(
        MOVES.labels(game_id), MOVE_SECONDS.labels(game_id), THINK_SECONDS.labels(game_id)
    )


for _game in games.all():  # every game's series from the start, at 0, not once it is played
    of_game(_game.id)

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _RunningTables(Collector):
    """Running tables this process hosts (plays their bots, watches their clocks), by game:
    counted when scraped. Summed over the processes of a site, each table counts once."""

    def __init__(self) -> None:
        self.tables: Tables | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "meadow_running_tables", "Running tables this process hosts, by game.", labels=["game"]
        )
        tables = self.tables
        if tables is not None:
            hosted = Tally(
                live.game.id
                for live in tables.held()
                if live.status == "running" and tables.cluster.hosts(live.id)
            )
            for game in games.all():
                family.add_metric([game.id], hosted.get(game.id, 0))
        yield family


RUNNING_TABLES = _RunningTables()
REGISTRY.register(RUNNING_TABLES)


def count_tables(tables: Tables | None) -> None:
    """The tables `meadow_running_tables` counts: the process's, once it has started."""
    RUNNING_TABLES.tables = tables


class HttpMetrics:
    """Counts each HTTP request by its route's template (`/api/tables/{table_id}`, not the
    table's number) and its status, and times it. Plain ASGI, like `protect`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless an answer starts: the server's error

        async def counted(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, counted)
        finally:
            method = scope["method"] if scope["method"] in _METHODS else "other"
            route = _template(scope)
            HTTP_REQUESTS.labels(method, route, str(status)).inc()
            HTTP_SECONDS.labels(method, route).observe(time.perf_counter() - started)


def _template(scope: Scope) -> str:
    """The path template of the route that answered: "none" for an answer given before
    routing (a refused cross-site request, a body too large), "pages" for the static files."""
    route = scope.get("route")
    if route is None:
        return "none"
    path = getattr(route, "path", "")
    return path if path else "pages"


def answer(request: Request) -> Response:
    """/metrics on the main port: only with `MEADOW_METRICS_TOKEN` set (404 otherwise), and
    only to a request that shows it as its bearer token (401 without one, 403 for another)."""
    token: str | None = request.app.state.settings.metrics_token
    if not token:
        return JSONResponse({"error": "no API at /metrics"}, status_code=404)
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not given:
        return JSONResponse(
            {"error": "the metrics need a bearer token"},
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
        )
    if not secrets.compare_digest(given.strip().encode(), token.encode()):
        return JSONResponse({"error": "not the metrics token"}, status_code=403)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


def serve_apart(address: str) -> Callable[[], None]:
    """Serve the metrics alone at `address` ("host:port"; "[::1]:9100" for IPv6), in a
    thread; returns what stops that server."""
    host, _, port = address.rpartition(":")
    server, thread = start_http_server(int(port), addr=host.strip("[]") or "0.0.0.0")

    def stop() -> None:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

    return stop
