"""Prometheus metrics: never served unless the operator asks (404), behind a bearer token on
the main port (401, 403) or on an address of their own; what a game, a bot, a log-in and a
second process leave in them, on SQLite and PostgreSQL and in the cluster."""

from __future__ import annotations

import json
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import (
    ISSUED,
    Client,
    Server,
    _free_port,
    own_server,
    two_people,
    two_processes,
)
from tests.server.test_safety import new_table, play_first_moves, socket_to

TOKEN = secrets.token_urlsafe(24)
ISSUED.add(TOKEN)  # no server log may hold it either

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(server: Server, token: str = TOKEN) -> Samples:
    reply = httpx.get(server.base + "/metrics", headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200, reply.text
    return parsed(reply.text)


def parsed(exposition: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def eventually(
    server: Server, name: str, wanted: float, at_least: bool = False, **labels: str
) -> None:
    """Scrape until `name` has the value `wanted` (or more, `at_least`): a gauge settling
    after a socket closed, a counter after a bot moved."""
    for _ in range(600):
        found = value(scrape(server), name, **labels)
        if found == wanted or (at_least and found > wanted):
            return
        time.sleep(0.05)
    raise AssertionError(f"{name}{labels} never became {wanted}: {found}")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def counted(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    settings = {"MEADOW_METRICS_TOKEN": TOKEN, "MEADOW_LOGIN_FAILURES_PER_NAME_AND_ADDRESS": "2"}
    with own_server(tmp_path_factory, request.param, **settings) as found:
        yield found


def test_no_metrics_unless_the_operator_asks(server: Server):
    assert httpx.get(server.base + "/metrics").status_code == 404
    shown = {"Authorization": f"Bearer {TOKEN}"}
    assert httpx.get(server.base + "/metrics", headers=shown).status_code == 404


def test_the_token_is_needed(counted: Server):
    bare = httpx.get(counted.base + "/metrics")
    assert bare.status_code == 401
    assert bare.headers["www-authenticate"].startswith("Bearer")
    for wrong in ("Bearer " + secrets.token_urlsafe(24), f"Basic {TOKEN}", "Bearer"):
        reply = httpx.get(counted.base + "/metrics", headers={"Authorization": wrong})
        assert reply.status_code in (401, 403), wrong
        assert "meadow_" not in reply.text
    reply = httpx.get(counted.base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    assert "process_cpu_seconds_total" in reply.text  # the library's own, per process


def test_moves_batches_and_routes_are_counted(counted: Server):
    before = scrape(counted)
    table_id, host, other = new_table(counted)
    play_first_moves(table_id, {0: host, 1: other}, 6)
    stale = host.post(f"/api/tables/{table_id}/moves", json={"move": 1, "action": "x"})
    assert stale.status_code == 409
    socket_moves = play_on_socket(counted, table_id, {0: host, 1: other}, 2)
    after = scrape(counted)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("meadow_moves_committed_total", game="topiary") == 6 + socket_moves
    assert grew("meadow_move_seconds_count", game="topiary") == 6 + socket_moves
    assert grew("meadow_movelog_batch_lines_sum") == 6 + socket_moves
    assert 1 <= grew("meadow_movelog_batch_lines_count") <= 6 + socket_moves
    moves = "/api/tables/{table_id}/moves"
    assert grew("meadow_http_requests_total", method="POST", route=moves, status="200") == 6
    assert grew("meadow_http_requests_total", method="POST", route=moves, status="409") == 1
    assert grew("meadow_http_request_seconds_count", method="POST", route=moves) == 7
    routes = {dict(labels).get("route") for _name, labels in after} - {None}
    assert all(str(table_id) not in route.split("/") for route in routes), routes
    assert "/api/tables/{table_id}" in routes


def play_on_socket(server: Server, table_id: int, seats: dict[int, Client], moves: int) -> int:
    """Each seat on its own socket; whoever is to move plays their first choice there."""
    with (
        socket_to(server, seats[0], table_id) as first,
        socket_to(server, seats[1], table_id) as second,
    ):
        sockets = {0: first, 1: second}
        syncs = {seat: json.loads(ws.recv(timeout=10)) for seat, ws in sockets.items()}
        state = syncs[syncs[0]["to_move"]]
        for _ in range(moves):
            mover = state["to_move"]
            move = {"kind": "move", "move": state["move"] + 1, "action": state["legal"][0]}
            sockets[mover].send(json.dumps(move))
            state = heard_by(sockets[mover], move["move"])
            if state["to_move"] != mover:
                state = heard_by(sockets[state["to_move"]], move["move"])
    return moves


def heard_by(ws: Any, number: int) -> dict[str, Any]:
    """The news of move `number` as a socket hears it."""
    while True:
        news = json.loads(ws.recv(timeout=10))
        if news["kind"] == "move" and news["number"] == number:
            return news


def test_sockets_and_running_tables_are_gauged(counted: Server):
    sockets = value(scrape(counted), "meadow_open_sockets")
    running = value(scrape(counted), "meadow_running_tables", game="topiary")
    table_id, host, _other = new_table(counted)
    assert value(scrape(counted), "meadow_running_tables", game="topiary") == running + 1
    with socket_to(counted, host, table_id) as ws:
        assert json.loads(ws.recv(timeout=10))["kind"] == "sync"
        assert value(scrape(counted), "meadow_open_sockets") == sockets + 1
    eventually(counted, "meadow_open_sockets", sockets)


def test_bots_are_timed(counted: Server):
    thought = value(scrape(counted), "meadow_bot_think_seconds_count", game="topiary")
    table_id, host, _ = new_table(counted, bot="random")
    while host.table(table_id)["game_state"]["to_move"] == 0:  # until the bot's turn
        play_first_moves(table_id, {0: host}, 1)
    eventually(counted, "meadow_bot_think_seconds_count", thought + 1, True, game="topiary")
    # A Topiary turn is often two decisions: the gauges are read once the bot's turn is over
    # (a CI run read them while it thought about its second one).
    for _ in range(600):
        position = host.table(table_id)["game_state"]
        if position["to_move"] == 0 or position.get("over"):
            break
        time.sleep(0.05)
    samples = scrape(counted)
    assert value(samples, "meadow_bots_thinking") == 0
    assert value(samples, "meadow_bots_queued") == 0


def test_failed_and_throttled_log_ins_are_counted(counted: Server):
    name = f"l-{secrets.token_hex(5)}"
    counted.client().signup(name)
    before = scrape(counted)
    guesser = counted.client()
    tries = [
        guesser.post("/api/accounts/login", json={"name": name, "password": "wrong guess"})
        for _ in range(3)
    ]
    assert [reply.status_code for reply in tries] == [401, 401, 429]
    after = scrape(counted)
    assert (
        value(after, "meadow_login_failures_total") - value(before, "meadow_login_failures_total")
        == 2
    )
    throttled = ("meadow_throttled_total", (("limit", "login-name-address"),))
    assert after.get(throttled, 0) - before.get(throttled, 0) == 1


def test_metrics_on_an_address_of_their_own(tmp_path_factory: pytest.TempPathFactory):
    address = f"127.0.0.1:{_free_port()}"
    with own_server(tmp_path_factory, "sqlite", MEADOW_METRICS_ADDRESS=address) as apart:
        httpx.get(apart.base + "/api/games")
        reply = httpx.get(f"http://{address}/metrics")
        assert reply.status_code == 200
        samples = parsed(reply.text)
        assert (
            value(
                samples,
                "meadow_http_requests_total",
                method="GET",
                route="/api/games",
                status="200",
            )
            >= 1
        )
        assert httpx.get(apart.base + "/metrics").status_code == 404  # not on the main port


def test_a_metrics_address_in_use_is_one_line(tmp_path_factory: pytest.TempPathFactory):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        ran = subprocess.run(
            [sys.executable, "-m", "meadow", "serve", "--port", str(_free_port())],
            env=_env(tmp_path_factory, MEADOW_METRICS_ADDRESS=address),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert ran.returncode == 2
    assert "Traceback" not in ran.stderr
    last = ran.stderr.strip().splitlines()[-1]
    assert last == f"error: MEADOW_METRICS_ADDRESS={address}: Address already in use"


def _env(tmp_path_factory: pytest.TempPathFactory, **settings: str) -> dict[str, str]:
    import os

    return dict(os.environ, MEADOW_DATA_DIR=str(tmp_path_factory.mktemp("refused")), **settings)


@pytest.fixture(scope="module")
def counted_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    with two_processes(tmp_path_factory, MEADOW_METRICS_TOKEN=TOKEN) as servers:
        yield servers


def test_each_process_counts_its_own_and_news_lag(counted_pair: tuple[Server, Server]):
    a, b = counted_pair
    table_id, host, guest = two_people(a, b)
    with socket_to(b, guest, table_id) as on_b:  # B holds the table and hears A's news
        assert json.loads(on_b.recv(timeout=10))["kind"] == "sync"
        heard = value(scrape(b), "meadow_news_lag_seconds_count")
        as_guest_on_a = Client(a.client().http)
        as_guest_on_a.http.cookies = guest.http.cookies
        as_guest_on_a.csrf = guest.csrf
        play_first_moves(table_id, {0: host, 1: as_guest_on_a}, 4)
        for _ in range(4):  # B hears each move's news
            while json.loads(on_b.recv(timeout=10))["kind"] != "move":
                pass
    assert value(scrape(a), "meadow_moves_committed_total", game="topiary") == 4
    assert value(scrape(b), "meadow_moves_committed_total", game="topiary") == 0
    assert value(scrape(b), "meadow_news_lag_seconds_count") >= heard + 4
    # Every running table is hosted by one process: summed, each counts once.
    for _ in range(300):
        hosted = sum(
            value(scrape(server), "meadow_running_tables", game="topiary") for server in (a, b)
        )
        if hosted == 1:
            break
        time.sleep(0.05)
    assert hosted == 1
