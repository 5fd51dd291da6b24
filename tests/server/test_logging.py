"""MEADOW_LOG_FORMAT=json: every line of the log is one JSON object, and every line written
while serving a request carries its request id, which the answer's X-Request-ID header
names too (the request's own, if it is a short plain token). The default stays readable
text, and no secret reaches either (the database's password included)."""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import ISSUED, Server, fresh_postgres, own_server
from tests.server.test_clocks import timed_table, wait_until

HEX_ID = re.compile(r"[0-9a-f]{16}")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def json_logged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    settings = {"MEADOW_LOG_FORMAT": "json", "MEADOW_ACCESS_LOG": "true"}
    with own_server(tmp_path_factory, request.param, **settings) as found:
        yield found


def log_of(server: Server) -> str:
    return next(server.data_dir.glob("server-*.log")).read_text()


def json_lines(server: Server) -> list[dict[str, Any]]:
    lines = [line for line in log_of(server).splitlines() if line.strip()]
    parsed = [json.loads(line) for line in lines]  # every line, or this fails
    assert all({"time", "level", "logger", "message"} <= line.keys() for line in parsed)
    return parsed


def test_lines_written_for_a_request_carry_its_id(json_logged: Server):
    table_id, host, _other = timed_table(json_logged, grace_seconds=0, takeover_bot="random")
    assert host.post(f"/api/tables/{table_id}/leave").status_code == 204
    wait_until(lambda: host.table(table_id)["seats"][0]["bot"] == "random")
    request_id = f"probe-{secrets.token_hex(6)}"
    reclaimed = host.post(f"/api/tables/{table_id}/reclaim", headers={"X-Request-ID": request_id})
    assert reclaimed.status_code == 200, reclaimed.text
    assert reclaimed.headers["x-request-id"] == request_id

    mine = [line for line in json_lines(json_logged) if line.get("request_id") == request_id]
    said = {(line["logger"], line["message"]) for line in mine}
    # Meadow's own line, written in a worker thread while serving the request, and the
    # server's access line for it.
    assert ("meadow.server", f"table {table_id}: {host.name} took seat 0 back from the bot") in said
    access = [line for line in mine if line["logger"] == "uvicorn.access"]
    assert [(a["method"], a["path"], a["status"]) for a in access] == [
        ("POST", f"/api/tables/{table_id}/reclaim", 200)
    ]
    # The bot's taking the seat was the clock's doing, in no request.
    takeover = [
        line for line in json_lines(json_logged) if "bot random took seat 0" in line["message"]
    ]
    assert takeover and all("request_id" not in line for line in takeover)


@pytest.mark.parametrize(
    "given", ["has a space", "x" * 65, "-leading-dash", "ünïcode", "a\\nfake line"]
)
def test_an_unfit_request_id_is_replaced(json_logged: Server, given: str):
    reply = httpx.get(json_logged.base + "/healthz", headers={"X-Request-ID": given.encode()})
    assert HEX_ID.fullmatch(reply.headers["x-request-id"])
    assert all(line.get("request_id") != given for line in json_lines(json_logged))


def test_each_answer_has_its_own_id_and_a_socket_has_one_too(json_logged: Server):
    ids = {httpx.get(json_logged.base + "/healthz").headers["x-request-id"] for _ in range(3)}
    assert len(ids) == 3 and all(HEX_ID.fullmatch(found) for found in ids)
    table_id, host, _other = timed_table(json_logged)
    with connect(
        f"ws://127.0.0.1:{json_logged.port}/api/tables/{table_id}/ws",
        additional_headers={"Cookie": host.cookies, "X-Request-ID": "socket-probe-1"},
        open_timeout=10,
    ) as ws:
        assert ws.response is not None
        assert ws.response.headers["x-request-id"] == "socket-probe-1"
        assert json.loads(ws.recv(timeout=10))["kind"] == "sync"
    wait_until(
        lambda: any(line.get("request_id") == "socket-probe-1" for line in json_lines(json_logged))
    )


def test_text_stays_the_default(server: Server):
    reply = httpx.get(server.base + "/healthz")
    assert HEX_ID.fullmatch(reply.headers["x-request-id"])
    lines = [line for line in log_of(server).splitlines() if line.strip()]
    assert lines and all(line.startswith(("INFO:", "WARNING:", "ERROR:")) for line in lines)
    assert lines[0].startswith("INFO:     Meadow on http://127.0.0.1:")


def test_the_database_password_never_reaches_the_log(tmp_path_factory: pytest.TempPathFactory):
    password = secrets.token_urlsafe(12)
    ISSUED.add(password)
    with fresh_postgres() as url:
        # Local PostgreSQL trusts the connection whatever the password.
        with_password = url.replace("postgres@", f"postgres:{password}@")
        server = Server(Path(tmp_path_factory.mktemp("password")), with_password)
        server.start()
        server.stop()
    assert password not in log_of(server)
    assert "postgres:***@127.0.0.1" in log_of(server)
    server.assert_logs_clean()
