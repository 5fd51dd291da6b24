"""A real `meadow serve` in its own process, on SQLite and (where it answers) on the local
PostgreSQL, with HTTP and WebSocket clients that act like a browser."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

POSTGRES = "postgresql://postgres@127.0.0.1:5432/"


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
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)

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
        self.process = subprocess.Popen(
            [sys.executable, "-m", "meadow", "serve", "--port", str(self.port)],
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
        return Client(httpx.Client(base_url=self.base, timeout=30))


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
