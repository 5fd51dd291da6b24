"""The container recipe, tested by what it runs (this machine cannot pull base images, so no
image is built here): the Dockerfile and compose.yaml as files; the entry point on SQLite
and on a PostgreSQL database that appears only after it started; and compose.yaml's
topology started by hand: two processes on PostgreSQL and Redis, with the settings the file
gives them, behind nginx with the shipped configuration (ports and paths changed only)."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import yaml

from tests.server.conftest import (
    POSTGRES,
    REDIS,
    Client,
    Server,
    _drop,
    _free_port,
    _redis_answers,
    fresh_postgres,
)
from tests.server.test_safety import socket_to

ROOT = Path(__file__).resolve().parents[2]
ENTRY_POINT = ROOT / "deploy" / "entrypoint.sh"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
PROCESSES = ("meadow1", "meadow2")


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def interpolated(value: object) -> str:
    """A compose value as compose hands it to a container with no .env: `${NAME:-default}`
    takes its default (this machine's own environment is not the host's)."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", str(value))


def test_the_dockerfile_builds_a_slim_image_that_runs_as_nobody_special():
    text = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert len(stages) == 2 and all(re.fullmatch(r"python:\$\{PYTHON\}-slim", s) for s in stages)
    assert re.search(r"^ARG PYTHON=3\.1[1-9]$", text, re.MULTILINE)
    assert "COPY --from=build /opt/meadow /opt/meadow" in text
    users = re.findall(r"^USER (\S+)", text, re.MULTILINE)
    assert users == ["meadow"]
    assert 'VOLUME ["/data"]' in text and "MEADOW_DATA_DIR=/data" in text
    healthcheck = re.search(r"^HEALTHCHECK .*\n.*", text, re.MULTILINE)
    assert healthcheck and "/healthz" in healthcheck.group(0)
    assert "COPY deploy/entrypoint.sh /usr/local/bin/meadow-entrypoint" in text
    assert 'ENTRYPOINT ["meadow-entrypoint"]' in text
    assert "'.[cluster]'" in text  # PostgreSQL's driver and Redis's client
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests"} <= set(ignored)


def test_compose_runs_two_processes_on_postgres_and_redis_behind_nginx():
    found = compose()
    services = found["services"]
    assert set(services) == {"postgres", "redis", *PROCESSES, "nginx"}
    for name in ("postgres", "redis", *PROCESSES, "nginx"):
        assert services[name]["healthcheck"]["test"], name
    for name in PROCESSES:
        service = services[name]
        assert service["build"] == "."
        assert service["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }
        assert "/readyz" in " ".join(service["healthcheck"]["test"])
        env = service["environment"]
        assert env["MEADOW_DATABASE_URL"].startswith("postgresql+psycopg2://meadow:")
        assert env["MEADOW_DATABASE_URL"].endswith("@postgres:5432/meadow")
        assert env["MEADOW_REDIS_URL"] == "redis://redis:6379/0"
        assert f"{name}:/data" in service["volumes"]
        # Docker waits longer than the drain before it kills.
        assert _seconds(service["stop_grace_period"]) > float(env["MEADOW_DRAIN_SECONDS"])
    assert "${POSTGRES_PASSWORD:?" in services["postgres"]["environment"]["POSTGRES_PASSWORD"]
    nginx = services["nginx"]
    assert nginx["depends_on"] == {name: {"condition": "service_healthy"} for name in PROCESSES}
    assert nginx["volumes"] == ["./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro"]
    upstreams = re.findall(r"^\s*server (\S+) ", NGINX_CONF.read_text(), re.MULTILINE)
    # Both groups, any process and a table's own, are the two processes.
    assert upstreams == [f"{name}:8000" for name in PROCESSES] * 2


def _seconds(duration: str) -> float:
    match = re.fullmatch(r"(\d+)s", duration)
    assert match, duration
    return float(match.group(1))


def entry_point_server(data_dir: Path, database_url: str | None, **settings: str) -> Server:
    """A server started as the container starts it: through deploy/entrypoint.sh, with
    `meadow` on the PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return Server(
        data_dir,
        database_url,
        env={"PATH": path, "MEADOW_DATABASE_WAIT": "60", **settings},
        command=["sh", str(ENTRY_POINT), "serve"],
    )


def test_the_entry_point_on_sqlite(tmp_path: Path):
    server = entry_point_server(tmp_path, None)
    server.start()
    try:
        ready = httpx.get(server.base + "/readyz")
        assert ready.status_code == 200 and ready.json() == {"status": "ready"}
        log = next(tmp_path.glob("server-*.log")).read_text()
        assert f"SQLite in {tmp_path.resolve()}: schema at " in log
    finally:
        server.stop()
    server.assert_logs_clean()


def test_the_entry_point_waits_for_postgres(tmp_path: Path):
    """The database does not exist when the entry point starts (a container of PostgreSQL
    still starting): it waits, then migrates and serves."""
    with fresh_postgres() as url:
        name = url.rsplit("/", 1)[1]
        _drop(name)
        server = entry_point_server(tmp_path, url)
        starting = threading.Thread(target=server.start)
        starting.start()
        log = tmp_path / "server-0.log"
        try:
            for _ in range(600):
                logs = list(tmp_path.glob("server-*.log"))
                if logs and "waiting up to 60 s for" in logs[0].read_text():
                    log = logs[0]
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the entry point did not wait for the database")
            _create(name)
            starting.join(timeout=60)
            ready = httpx.get(server.base + "/readyz")
            assert ready.status_code == 200 and ready.json() == {"status": "ready"}
            assert f"{name}: schema at " in log.read_text()
        finally:
            starting.join(timeout=60)
            server.stop()
    server.assert_logs_clean()


def _create(name: str) -> None:
    import psycopg2

    connection = psycopg2.connect(POSTGRES + "postgres", connect_timeout=3)
    connection.autocommit = True
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE {name}")
    connection.close()


def test_the_entry_point_runs_other_commands_as_they_are(tmp_path: Path):
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = dict(os.environ, PATH=path, MEADOW_DATA_DIR=str(tmp_path))
    migrated = subprocess.run(
        ["sh", str(ENTRY_POINT), "migrate"], env=env, capture_output=True, text=True, timeout=120
    )
    assert migrated.returncode == 0, migrated.stderr
    assert "schema at" in migrated.stdout
    listed = subprocess.run(
        ["sh", str(ENTRY_POINT), "meadow", "games"], env=env, capture_output=True, text=True
    )
    assert listed.returncode == 0 and "topiary" in listed.stdout.lower()


# -- compose.yaml's topology, started by hand ----------------------------------------------


@contextmanager
def topology(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """compose.yaml's two Meadow processes, with its settings for them, through the entry
    point: its database and Redis's address are this machine's."""
    if not _redis_answers():
        if os.environ.get("CI"):
            pytest.fail("CI must test the topology on Redis at 127.0.0.1")
        pytest.skip("no Redis at 127.0.0.1")
    services = compose()["services"]
    with fresh_postgres() as url:
        servers = []
        for name in PROCESSES:
            env = {k: interpolated(v) for k, v in services[name]["environment"].items()}
            env.pop("MEADOW_DATABASE_URL")
            env["MEADOW_REDIS_URL"] = REDIS
            # One site per test run: the runs share the machine's Redis.
            env["MEADOW_CLUSTER_NAME"] = f"meadow-test-{secrets.token_hex(4)}"
            env["FORWARDED_ALLOW_IPS"] = "127.0.0.1"  # nginx is on this machine here
            env["MEADOW_BOT_WORKERS"] = "1"
            servers.append(entry_point_server(tmp_path_factory.mktemp(name), url, **env))
        site = servers[0].env["MEADOW_CLUSTER_NAME"]
        servers[1].env["MEADOW_CLUSTER_NAME"] = site
        starting = [threading.Thread(target=server.start) for server in servers]
        for thread in starting:
            thread.start()
        for thread in starting:
            thread.join()
        try:
            yield servers[0], servers[1]
        finally:
            for server in servers:
                server.stop()
    for server in servers:
        server.assert_logs_clean()


def test_the_topology_serves_on_postgres_and_redis(tmp_path_factory: pytest.TempPathFactory):
    with topology(tmp_path_factory) as (first, second):
        for server in (first, second):
            assert httpx.get(server.base + "/readyz").json() == {"status": "ready"}
        host = first.client().signup(f"c-{secrets.token_hex(5)}")
        guest = second.client().signup(f"c-{secrets.token_hex(5)}")
        table_id = start_table(host, guest)
        played = play(table_id, {0: host, 1: guest}, 6)
        assert host.table(table_id)["moves_made"] == played
        for server in (first, second):
            lines = [json.loads(line) for line in log_lines(server)]  # JSON, as compose sets
            assert any(line["message"].startswith("Meadow on http://") for line in lines)


def log_lines(server: Server) -> list[str]:
    text = next(server.data_dir.glob("server-*.log")).read_text()
    return [line for line in text.splitlines() if line.strip()]


def start_table(host: Client, guest: Client) -> int:
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    table_id = host.post("/api/tables", json=body).json()["id"]
    assert guest.post(f"/api/tables/{table_id}/join").status_code == 200
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    return table_id


def play(table_id: int, seats: dict[int, Client], moves: int) -> int:
    """Whoever is to move plays their first choice, `moves` times; the moves made."""
    for _ in range(moves):
        mover = seats[seats[0].table(table_id)["game_state"]["to_move"]]
        mine = mover.table(table_id)["game_state"]
        body = {"move": mine["move"] + 1, "action": mine["legal"][0]}
        reply = mover.post(f"/api/tables/{table_id}/moves", json=body)
        assert reply.status_code == 200, reply.text
    return body["move"]


# Where nginx keeps what it buffers: in the test's directory, not the system's.
TEMPORARY = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


@contextmanager
def nginx_in_front(tmp_path: Path, first: Server, second: Server) -> Iterator[str]:
    """nginx with deploy/nginx.conf, its upstreams, port and log's path changed only; the
    base URL it answers at."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if Path(p).exists()), None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("CI must test nginx in front (scripts/test.sh installs it)")
        pytest.skip("nginx is not installed here: `apt-get install nginx` to run this test")
    port = _free_port()
    shipped = NGINX_CONF.read_text()
    ours = (
        shipped.replace("meadow1:8000", f"127.0.0.1:{first.port}")
        .replace("meadow2:8000", f"127.0.0.1:{second.port}")
        .replace("listen 80;", f"listen 127.0.0.1:{port};")
        .replace("/var/log/nginx/", f"{tmp_path}/")
    )
    # Two upstream groups (any process, and a table's own) of the same two, and the listen.
    assert ours.count(str(tmp_path)) == 1 and ours.count("127.0.0.1:") == 5
    (tmp_path / "meadow.conf").write_text(ours)
    temp = {f"{name}_temp_path": tmp_path / name for name in TEMPORARY}
    (tmp_path / "nginx.conf").write_text(
        "\n".join(
            [
                "daemon off;",
                "user root;" if os.geteuid() == 0 else "",
                f"pid {tmp_path}/nginx.pid;",
                f"error_log {tmp_path}/error.log;",
                "events {}",
                "http {",
                *(f"    {name} {path};" for name, path in temp.items()),
                f"    include {tmp_path}/meadow.conf;",
                "}",
            ]
        )
    )
    checked = subprocess.run(
        [found, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    nginx = subprocess.Popen(
        [found, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield base
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait(timeout=30)


def test_nginx_in_front_of_the_topology(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path):
    with (
        topology(tmp_path_factory) as (first, second),
        nginx_in_front(tmp_path, first, second) as base,
    ):
        proxied = Server(first.data_dir, None, port=int(base.rsplit(":", 1)[1]))
        host, guest = proxied.client(), proxied.client()
        host.signup(f"n-{secrets.token_hex(5)}")
        guest.signup(f"n-{secrets.token_hex(5)}")
        table_id = start_table(host, guest)
        # nginx's request id reaches Meadow, and comes back.
        ready = httpx.get(base + "/readyz")
        assert ready.json() == {"status": "ready"}
        assert re.fullmatch(r"[0-9a-f]{32}", ready.headers["x-request-id"])
        assert httpx.get(base + "/metrics").status_code == 404  # never public through nginx
        # Moves over HTTP and over the table's socket, both through nginx.
        play(table_id, {0: host, 1: guest}, 4)
        with socket_to(proxied, host, table_id) as ws:
            sync = json.loads(ws.recv(timeout=10))
            assert sync["kind"] == "sync" and len(sync["moves"]) == 4
            mover = {0: host, 1: guest}[sync["to_move"]]
            mine = mover.table(table_id)["game_state"]
            body = {"move": 5, "action": mine["legal"][0]}
            assert mover.post(f"/api/tables/{table_id}/moves", json=body).status_code == 200
            heard = json.loads(ws.recv(timeout=10))
            assert (heard["kind"], heard["number"]) == ("move", 5)
        # Requests went to both processes, each line of nginx's log with its request id.
        access = (tmp_path / "access.log").read_text().splitlines()
        assert access and all(re.search(r" [0-9a-f]{32}$", line) for line in access)
        for server in (first, second):
            assert any(f" 127.0.0.1:{server.port} " in line for line in access)
        # Every request and socket of a table went to one process: the one hosting it.
        assert_one_process_per_table(access, [table_id], first, second)
        # Tables spread over both processes by number, each whole on one.
        others = [start_table(host, guest) for _ in range(8)]
        for other in others:
            play(other, {0: host, 1: guest}, 1)
        access = (tmp_path / "access.log").read_text().splitlines()
        served = assert_one_process_per_table(access, others, first, second)
        assert len(set(served.values())) == 2
        site = first.env["MEADOW_CLUSTER_NAME"]
        hosts = redis.Redis.from_url(REDIS).hgetall(f"{site}:hosts")
        pids = {first.port: first.process.pid, second.port: second.process.pid}
        for other, port in served.items():
            assert hosts[str(other).encode()].decode().split(":")[1] == str(pids[port])
        # One process stops: nginx sends everything to the other.
        first.stop()
        for _ in range(6):
            assert httpx.get(base + "/readyz").status_code == 200
        assert play(table_id, {0: host, 1: guest}, 2) == 7


def assert_one_process_per_table(
    access: list[str], table_ids: list[int], first: Server, second: Server
) -> dict[int, int]:
    """Each table's lines in nginx's log went to one process; the port of each."""
    served = {}
    for table_id in table_ids:
        path = re.compile(rf'"[A-Z]+ /api/tables/{table_id}(/[^ ]*)? ')
        ports = {
            port
            for line in access
            if path.search(line)
            for port in (first.port, second.port)
            if f" 127.0.0.1:{port} " in line
        }
        assert len(ports) == 1, f"table {table_id} was served by {ports}"
        served[table_id] = ports.pop()
    return served
