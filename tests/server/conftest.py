"""A real `meadow serve` in its own process, on SQLite and (where it answers) on the local
PostgreSQL, with HTTP and WebSocket clients that act like a browser."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from meadow.store.db import SECOND_CONNECTION
from tests.server import warm

POSTGRES = "postgresql://postgres@127.0.0.1:5432/"
# A server started by this command is forked from a warm process (`tests/server/warm.py`).
MEADOW_SERVE = [sys.executable, "-m", "meadow", "serve"]
T = TypeVar("T")

# Every session token and CSRF token a test client was given: no server log may hold one.
ISSUED: set[str] = set()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _postgres_database() -> str | None:
    """A fresh, empty PostgreSQL database for one test run, or None if there is none."""
    try:
        import psycopg2
    except ImportError:
        return None
    name = f"meadow_test_{secrets.token_hex(4)}"
    try:
        connection = psycopg2.connect(POSTGRES + "postgres", connect_timeout=3)
    except psycopg2.OperationalError:
        return None
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    connection.close()
    return POSTGRES.replace("postgresql://", "postgresql+psycopg2://") + name


@dataclass
class Server:
    """One server process and where it keeps its data; `restart` and `kill` for crash tests."""

    data_dir: Path
    database_url: str | None
    port: int = 0
    process: subprocess.Popen[bytes] | warm.WarmProcess | None = None
    env: dict[str, str] = field(default_factory=dict)
    # What starts it, before `--port N`: `meadow serve` unless a test starts it otherwise
    # (the container's entry point).
    command: list[str] = field(default_factory=lambda: list(MEADOW_SERVE))

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start (or restart, on the same port, so clients carry on) the server."""
        self.port = self.port or _free_port()
        env = dict(os.environ, MEADOW_DATA_DIR=str(self.data_dir), **self.env)
        if self.database_url:
            env["MEADOW_DATABASE_URL"] = self.database_url
        log = open(self.data_dir / f"server-{self.port}.log", "wb")  # noqa: SIM115
        if self.command == MEADOW_SERVE and warm.may_start_warm(env):
            log.close()
            self.process = warm.start(["serve", "--port", str(self.port)], env, log.name)
        else:
            self.process = subprocess.Popen(
                [*self.command, "--port", str(self.port)],
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(self.base + "/api/games", timeout=1)
                return
            except httpx.HTTPError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {(self.data_dir / log.name).read_text()}")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def client(self) -> Client:
        # Each client its own address (the server trusts X-Forwarded-For from 127.0.0.1), as
        # each person's browser has: the limits per address count people apart.
        address = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
        http = httpx.Client(
            base_url=self.base,
            timeout=30,
            # Idle connections dropped before the server's keep-alive (uvicorn: 5 s) ends them:
            # at equal times a request could go out on a connection the server was closing
            # ("connection reset by peer" in test_cluster).
            limits=httpx.Limits(keepalive_expiry=2),
            headers={"X-Forwarded-For": address},
            event_hooks={"response": [_remember_tokens]},
        )
        return Client(http)

    def assert_logs_clean(self) -> None:
        """No log line holds a password hash or a token a client was given, and no thread
        held two database connections of one pool (see `meadow.store.db`)."""
        for log in self.data_dir.glob("server-*.log"):
            text = log.read_text(errors="replace")
            assert SECOND_CONNECTION not in text, text[-3000:]
            assert "$argon2" not in text, f"{log.name} holds a password hash"
            leaked = [token for token in ISSUED if token in text]
            assert not leaked, f"{log.name} holds {len(leaked)} issued token(s)"


def _remember_tokens(response: httpx.Response) -> None:
    if not response.url.path.startswith("/api/accounts/"):
        return
    if cookie := response.cookies.get("meadow_session"):
        ISSUED.add(cookie)
    if response.status_code in (200, 201):
        response.read()
        found = response.json()
        if isinstance(found, dict) and isinstance(found.get("csrf"), str):
            ISSUED.add(found["csrf"])


class Client:
    """A person's browser: cookies kept, the CSRF header sent on every change."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.csrf = ""
        self.name = ""

    def signup(self, name: str, password: str = "correct horse") -> Client:
        reply = self.http.post("/api/accounts/signup", json={"name": name, "password": password})
        assert reply.status_code == 201, reply.text
        self.csrf, self.name = reply.json()["csrf"], name
        return self

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, **kw: Any) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf, **kw.pop("headers", {})}
        return self.http.post(path, headers=headers, **kw)

    def table(self, table_id: int) -> dict[str, Any]:
        reply = self.get(f"/api/tables/{table_id}")
        assert reply.status_code == 200, reply.text
        return reply.json()

    @property
    def cookies(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def _databases() -> list[str]:
    return ["sqlite", "postgresql"]


@pytest.fixture(scope="module", params=_databases())
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    with fresh_postgres() if request.param == "postgresql" else nullcontext() as url:
        found = Server(tmp_path_factory.mktemp(request.param), url)
        found.start()
        yield found
        found.stop()
        found.assert_logs_clean()


@contextmanager
def own_server(
    tmp_path_factory: pytest.TempPathFactory, database: str, **settings: str
) -> Iterator[Server]:
    """A server of a test's own on `database` ("sqlite", or "postgresql": a fresh one), with
    more `MEADOW_...` settings; its log is checked as every server's is."""
    with fresh_postgres() if database == "postgresql" else nullcontext() as url:
        found = Server(tmp_path_factory.mktemp(database), url, env=dict(settings))
        try:
            found.start()
            yield found
        finally:
            found.stop()
        found.assert_logs_clean()


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """The URL of a fresh PostgreSQL database, dropped afterwards. Without PostgreSQL the
    test is skipped, except in CI, where it fails."""
    url = _postgres_database()
    if url is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test on PostgreSQL, and it does not answer at 127.0.0.1:5432")
        pytest.skip("no PostgreSQL at 127.0.0.1:5432")
    try:
        yield url
    finally:
        _drop(url.rsplit("/", 1)[1])


def _drop(name: str) -> None:
    import psycopg2

    connection = psycopg2.connect(POSTGRES + "postgres", connect_timeout=3)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    connection.close()


REDIS = "redis://127.0.0.1:6379/0"


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS, socket_timeout=2).ping())
    except redis.RedisError:
        return False


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    with two_processes(tmp_path_factory) as servers:
        yield servers


@contextmanager
def two_processes(
    tmp_path_factory: pytest.TempPathFactory, **settings: str
) -> Iterator[tuple[Server, Server]]:
    """Two server processes on a fresh PostgreSQL database and the local Redis (`pair`),
    with more `MEADOW_...` settings if given."""
    url = _postgres_database()
    if url is None or not _redis_answers():
        if os.environ.get("CI"):
            pytest.fail("CI must test the cluster on PostgreSQL and Redis at 127.0.0.1")
        pytest.skip("no PostgreSQL or Redis at 127.0.0.1")
    env = {
        "MEADOW_REDIS_URL": REDIS,
        # One site per test run: the runs share the machine's Redis.
        "MEADOW_CLUSTER_NAME": f"meadow-test-{secrets.token_hex(4)}",
        "MEADOW_LEASE_MS": "1500",
        "MEADOW_BOT_WORKERS": "1",
        **settings,
    }
    servers = (
        Server(tmp_path_factory.mktemp("node0"), url, env=dict(env)),
        Server(tmp_path_factory.mktemp("node1"), url, env=dict(env)),
    )
    # Both at once on the fresh database: one applies the migrations, the other waits for it.
    starting = [threading.Thread(target=server.start) for server in servers]
    for thread in starting:
        thread.start()
    for thread in starting:
        thread.join()
    try:
        assert all(server.process and server.process.poll() is None for server in servers)
        yield servers
    finally:
        for server in servers:
            server.stop()
        _drop(url.rsplit("/", 1)[1])
    for server in servers:
        server.assert_logs_clean()


def signed_in(server: Server, client: Client) -> Client:
    """The same person (same cookie) talking to another process."""
    other = server.client()
    other.http.cookies = client.http.cookies
    other.csrf, other.name = client.csrf, client.name
    return other


def two_people(a: Server, b: Server) -> tuple[int, Client, Client]:
    """A running 2-player Topiary table: the host set it up on A, the guest joined on B."""
    host = a.client().signup(f"h-{secrets.token_hex(5)}")
    guest = b.client().signup(f"g-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    created = host.post("/api/tables", json=body)
    table_id = created.json()["id"]
    assert guest.post(f"/api/tables/{table_id}/join").status_code == 200
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    return table_id, host, guest


def at_once(calls: Sequence[Callable[[], T]], seconds: float = 60) -> list[T]:
    """Each call in a thread of its own, all let go at the same moment (a race, as clients
    make one); their results in the calls' order."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        start.wait(timeout=10)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        running = [pool.submit(run, call) for call in calls]
        return [future.result(timeout=seconds) for future in running]
