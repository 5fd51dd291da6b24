"""/healthz and /readyz, as a load balancer and a container's health check ask them: 200 or
503 with a short reason, outside the API's rules (limits, sessions, cross-site refusals,
the /api catch-all), on SQLite and PostgreSQL, and with Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.server.conftest import POSTGRES, Server, _drop, _free_port, own_server


def test_alive_and_ready(server: Server):
    for path, status in (("/healthz", "alive"), ("/readyz", "ready")):
        reply = httpx.get(server.base + path)
        assert reply.status_code == 200, reply.text
        assert reply.json() == {"status": status}
        assert httpx.head(server.base + path).status_code == 200


def test_health_is_outside_the_api_and_its_rules(server: Server):
    """A balancer's check carries no session and may look like another site's request;
    it is asked every few seconds, so no limit may count it."""
    foreign = {"Sec-Fetch-Site": "cross-site", "Origin": "https://elsewhere.example"}
    with httpx.Client(base_url=server.base, headers=foreign) as balancer:
        for _ in range(40):
            assert balancer.get("/readyz").status_code == 200
            assert balancer.get("/healthz").status_code == 200
    described = set(httpx.get(server.base + "/openapi.json").json()["paths"])
    assert not described & {"/healthz", "/readyz", "/metrics"}
    # The API's catch-all still answers for its own paths only.
    assert httpx.get(server.base + "/api/readyz").status_code == 404


def test_ready_only_with_the_schema_this_code_expects(server: Server):
    url = server.database_url or f"sqlite:///{server.data_dir / 'meadow.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        head = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        connection.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    try:
        reply = httpx.get(server.base + "/readyz")
        assert reply.status_code == 503
        assert reply.json() == {
            "status": "unready",
            "reason": f"the schema is at 0001, this code's at {head}",
        }
        assert httpx.get(server.base + "/healthz").status_code == 200  # alive all the same
    finally:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": head})
        engine.dispose()
    assert httpx.get(server.base + "/readyz").status_code == 200


def test_unready_when_the_database_is_gone(tmp_path_factory: pytest.TempPathFactory):
    with own_server(tmp_path_factory, "postgresql") as alone:
        assert httpx.get(alone.base + "/readyz").status_code == 200
        assert alone.database_url is not None
        _drop(alone.database_url.rsplit("/", 1)[1])  # its connections are cut too
        reply = httpx.get(alone.base + "/readyz", timeout=30)
        assert reply.status_code == 503
        assert reply.json() == {"status": "unready", "reason": "the database does not answer"}
        assert httpx.get(alone.base + "/healthz").status_code == 200
        log = next(alone.data_dir.glob("server-*.log")).read_text()
        assert "readyz: the database does not answer (OperationalError)" in log
        assert POSTGRES not in log  # the reason is said without the database's address


def test_unready_when_redis_is_gone(tmp_path_factory: pytest.TempPathFactory):
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip("no redis-server to start and stop")
    port = _free_port()
    redis = subprocess.Popen(
        [found, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port)
        settings = {"MEADOW_REDIS_URL": f"redis://127.0.0.1:{port}/0"}
        with own_server(tmp_path_factory, "postgresql", **settings) as clustered:
            assert httpx.get(clustered.base + "/readyz").status_code == 200
            redis.terminate()
            redis.wait()
            reply = httpx.get(clustered.base + "/readyz", timeout=30)
            assert reply.status_code == 503
            assert reply.json() == {"status": "unready", "reason": "Redis does not answer"}
    finally:
        redis.kill()
        redis.wait()


def _wait_for_port(port: int) -> None:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port}")
