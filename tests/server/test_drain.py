"""SIGTERM drains a process: /readyz answers 503 at once and nothing new connects; a move
being committed is committed and answered; every socket is then closed with 1012, which
tells the page to reconnect; the process hands its tables to the others and exits by itself.
A rolling restart of two processes, while people play over HTTP and over sockets through
both, loses no acknowledged move, and every table plays on afterwards."""

from __future__ import annotations

import json
import re
import secrets
import signal
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg2
import pytest
import redis
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from tests.server.conftest import (
    POSTGRES,
    REDIS,
    Client,
    Server,
    own_server,
    signed_in,
    two_processes,
)
from tests.server.test_safety import new_table, socket_to

RESTARTING = 1012
PACE = 0.2  # seconds a player takes per move: a game must outlast two restarts


@pytest.fixture(params=["sqlite", "postgresql"])
def stopping(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    # Room enough that the drain never runs out while the test holds a commit back.
    with own_server(tmp_path_factory, request.param, MEADOW_DRAIN_SECONDS="120") as found:
        yield found


@contextmanager
def writes_held(server: Server, table_id: int) -> Iterator[None]:
    """No move of the table can be committed meanwhile: the test holds the lock its commit
    needs (SQLite's write lock; PostgreSQL's lock on the table's row)."""
    if server.database_url is None:
        holder = sqlite3.connect(server.data_dir / "meadow.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        return
    name = server.database_url.rsplit("/", 1)[1]
    holder = psycopg2.connect(POSTGRES + name)
    try:
        with holder.cursor() as cursor:
            cursor.execute("SELECT id FROM tables WHERE id = %s FOR UPDATE", (table_id,))
        yield
    finally:
        holder.rollback()
        holder.close()


def test_a_stopping_process_answers_the_move_it_took_then_sends_pages_elsewhere(
    stopping: Server,
):
    server = stopping
    table_id, host, other = new_table(server)
    seats = {0: host, 1: other}
    state = host.table(table_id)["game_state"]
    mover, waiting = seats[state["to_move"]], seats[1 - state["to_move"]]
    mine = mover.table(table_id)["game_state"]
    number, action = mine["move"] + 1, mine["legal"][0]
    balancer = httpx.Client(base_url=server.base)  # one connection, kept open
    assert balancer.get("/readyz").status_code == 200
    assert server.process is not None

    with socket_to(server, mover, table_id) as ws:
        assert json.loads(ws.recv(timeout=10))["kind"] == "sync"
        with writes_held(server, table_id):
            ws.send(json.dumps({"kind": "move", "move": number, "action": action}))
            # The move is being committed once the table says so to anyone else who tries.
            wait_for(lambda: "being recorded" in try_move(waiting, table_id, number, action))
            server.process.send_signal(signal.SIGTERM)
            # A balancer's open connection hears 503 at once; nothing new connects.
            ready = wait_for(lambda: (r := balancer.get("/readyz")).status_code == 503 and r)
            assert ready.json()["status"] == "draining"
            wait_for(lambda: refused(server.port))
        # The commit goes through: the move is answered before the socket closes.
        answer = json.loads(ws.recv(timeout=30))
        assert (answer["kind"], answer["number"], answer.get("ack")) == ("move", number, True)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == RESTARTING

    assert server.process.wait(timeout=60) in (0, -signal.SIGTERM)  # by itself
    log = next(server.data_dir.glob("server-*.log")).read_text()
    assert "stopping: 1 sockets told to reconnect" in log
    assert "Traceback" not in log
    balancer.close()
    server.start()
    assert host.table(table_id)["moves_made"] == number


def try_move(client: Client, table_id: int, number: int, action: str) -> str:
    """What the table answers someone whose turn it is not (nothing is played)."""
    reply = client.post(f"/api/tables/{table_id}/moves", json={"move": number, "action": action})
    assert reply.status_code in (403, 409), reply.text
    return reply.json()["error"]


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    except ConnectionRefusedError:
        return True
    return False


def wait_for(check: Callable[[], Any], seconds: float = 30) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("waited in vain")


# -- a rolling restart of two processes ---------------------------------------------------


@dataclass
class Played:
    """What one table's players were told: each acknowledged move (number: seat, action),
    and how each of its sockets was closed."""

    acked: dict[int, tuple[int, str]] = field(default_factory=dict)
    closes: list[int | None] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, number: int, seat: int, action: str) -> None:
        with self.lock:
            assert number not in self.acked, f"move {number} acknowledged twice"
            self.acked[number] = (seat, action)


def socket_seat(
    servers: list[Server], client: Client, table_id: int, seat: int, played: Played, stop: Any
) -> None:
    """A page playing one seat over the table's socket: it reconnects whenever the socket
    closes (to the process it prefers, else the other) and plays its first choice."""
    while not stop.is_set():
        for server in servers:
            try:
                ws = socket_to(server, client, table_id)
                break
            except (OSError, InvalidHandshake, TimeoutError):
                continue
        else:
            time.sleep(0.1)
            continue
        try:
            with ws:
                converse(ws, seat, played, stop)
        except ConnectionClosed as closed:
            played.closes.append(closed.rcvd.code if closed.rcvd else None)
        except TimeoutError:
            continue  # no answer in time (a slow machine): a new socket reads where it stands


def converse(ws: Any, seat: int, played: Played, stop: Any) -> None:
    state = json.loads(ws.recv(timeout=15))  # the sync: where the game stands
    while not stop.is_set() and not state["over"]:
        if state["to_move"] != seat or not state["legal"]:
            try:
                news = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if news["kind"] == "move":
                state = news
            continue
        number, action = state["move"] + 1, state["legal"][0]
        time.sleep(PACE)
        ws.send(json.dumps({"kind": "move", "move": number, "action": action}))
        while True:
            news = json.loads(ws.recv(timeout=15))
            if news["kind"] == "move":
                state = news
                if news.get("ack"):
                    played.ack(number, seat, action)
                    break
            elif news["kind"] == "ack":
                played.ack(number, seat, action)
                break
            elif news["kind"] == "error":
                return  # a stale position: read it afresh from a new sync


def http_seat(clients: list[Client], table_id: int, seat: int, played: Played, stop: Any) -> None:
    """A player of one seat over HTTP, through whichever process answers."""
    while not stop.is_set():
        for client in clients:
            try:
                state = client.table(table_id)["game_state"]
                break
            except (httpx.HTTPError, AssertionError):
                continue
        else:
            time.sleep(0.1)
            continue
        if state["over"]:
            return
        if state["to_move"] != seat or not state["legal"]:
            time.sleep(0.05)
            continue
        number, action = state["move"] + 1, state["legal"][0]
        time.sleep(PACE)
        try:
            reply = client.post(
                f"/api/tables/{table_id}/moves", json={"move": number, "action": action}
            )
        except httpx.HTTPError:
            continue  # no answer: not acknowledged, the next look tells
        if reply.status_code == 200:
            played.ack(number, seat, action)


def lease_holder(site: str, table_id: int) -> str | None:
    """The process hosting the table, while its lease lasts."""
    client = redis.Redis.from_url(REDIS)
    found = client.hget(f"{site}:hosts", str(table_id))
    if found is None or not client.exists(f"{site}:alive:{found.decode()}"):
        return None
    return found.decode()


def drain_and_restart(server: Server) -> str:
    """SIGTERM, the process's own exit, a start on the same port; the old process's log."""
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(timeout=60) in (0, -signal.SIGTERM)
    log = next(server.data_dir.glob(f"server-{server.port}.log")).read_text()
    return log


def test_a_rolling_restart_loses_no_acknowledged_move(tmp_path_factory: pytest.TempPathFactory):
    with two_processes(tmp_path_factory) as (a, b):
        run_rolling_restart(a, b)


def run_rolling_restart(a: Server, b: Server) -> None:
    site = a.env["MEADOW_CLUSTER_NAME"]
    stop = threading.Event()
    players: list[threading.Thread] = []
    tables: dict[str, tuple[int, Played, Client]] = {}

    def table_of_two(kind: str) -> tuple[int, Client, Client]:
        host = a.client().signup(f"r{kind[0]}-{secrets.token_hex(5)}")
        guest = b.client().signup(f"r{kind[0]}-{secrets.token_hex(5)}")
        body = {"game": "renature", "players": 2, "seats": [None, None]}
        table_id = host.post("/api/tables", json=body).json()["id"]
        assert guest.post(f"/api/tables/{table_id}/join").status_code == 200
        assert host.post(f"/api/tables/{table_id}/start").status_code == 204
        tables[kind] = (table_id, Played(), host)
        return table_id, host, guest

    # Over sockets: the host's page on A, the guest's on B, each reconnecting elsewhere.
    table_id, host, guest = table_of_two("socket")
    for seat, client, order in ((0, host, [a, b]), (1, guest, [b, a])):
        players.append(
            threading.Thread(
                target=socket_seat, args=(order, client, table_id, seat, tables["socket"][1], stop)
            )
        )
    # Over HTTP, through both processes.
    table_id, host, guest = table_of_two("http")
    for seat, client, elsewhere in ((0, host, b), (1, guest, a)):
        clients = [client, signed_in(elsewhere, client)]
        players.append(
            threading.Thread(
                target=http_seat, args=(clients, table_id, seat, tables["http"][1], stop)
            )
        )
    # Against a bot: whichever process hosts it must hand it over.
    bot_table, bot_host, _ = new_table(a, "renature", bot="random")
    tables["bot"] = (bot_table, Played(), bot_host)
    players.append(
        threading.Thread(
            target=http_seat,
            args=([bot_host, signed_in(b, bot_host)], bot_table, 0, tables["bot"][1], stop),
        )
    )
    for player in players:
        player.start()

    def progress(moves: int = 3) -> None:
        """Every table gets `moves` more acknowledged moves."""
        start = {kind: len(played.acked) for kind, (_, played, _) in tables.items()}
        try:
            wait_for(
                lambda: all(len(p.acked) >= start[k] + moves for k, (_, p, _) in tables.items()),
                120,
            )
        except AssertionError:
            now = {kind: len(played.acked) for kind, (_, played, _) in tables.items()}
            alive = [player.is_alive() for player in players]
            raise AssertionError(f"no progress: {start} -> {now}; players alive {alive}") from None

    try:
        progress()
        # The process hosting the bot's table goes first: its lease must not outlive it.
        holder = wait_for(lambda: lease_holder(site, bot_table))
        pids = {str(server.process.pid): server for server in (a, b) if server.process}
        first = pids[holder.split(":")[1]]
        second = b if first is a else a
        for server in (first, second):
            log = drain_and_restart(server)
            assert "sockets told to reconnect" in log and "Traceback" not in log
            if server is first:
                assert re.search(r"stopping: [1-3] tables handed to the other processes", log)
                now = lease_holder(site, bot_table)  # another's, or nobody's yet
                assert now is None or now.split(":")[1] != holder.split(":")[1]
            progress()  # the other process plays on meanwhile
            server.start()
            progress()
    finally:
        stop.set()
        for player in players:
            player.join(timeout=60)

    for kind, (table_id, played, seat_0) in tables.items():
        logged = logged_moves(a, seat_0, table_id)
        assert played.acked, kind
        for number, (seat, action) in played.acked.items():
            assert number in logged, f"{kind} table: acknowledged move {number} is lost"
            assert logged[number]["seat"] == seat
            assert logged[number].get("action", action) == action  # seat 0's are shown
    socket_closes = tables["socket"][1].closes
    # Each restart sent the sockets on the stopping process elsewhere, with 1012 only.
    assert len(socket_closes) >= 2 and set(socket_closes) == {RESTARTING}, socket_closes


def logged_moves(server: Server, client: Client, table_id: int) -> dict[int, dict[str, Any]]:
    with connect(
        f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws?since=0",
        additional_headers={"Cookie": client.cookies},
        open_timeout=10,
    ) as ws:
        sync = json.loads(ws.recv(timeout=10))
    return {line["number"]: line for line in sync["moves"]}


def test_the_drain_is_bounded(tmp_path_factory: pytest.TempPathFactory):
    """A socket whose move can never be committed holds the drain no longer than
    MEADOW_DRAIN_SECONDS: the process still exits by itself."""
    with own_server(tmp_path_factory, "postgresql", MEADOW_DRAIN_SECONDS="2") as server:
        table_id, host, other = new_table(server)
        seats = {0: host, 1: other}
        to_move = host.table(table_id)["game_state"]["to_move"]
        mine = seats[to_move].table(table_id)["game_state"]
        number, action = mine["move"] + 1, mine["legal"][0]
        assert server.process is not None
        with socket_to(server, seats[to_move], table_id) as ws, writes_held(server, table_id):
            assert json.loads(ws.recv(timeout=10))["kind"] == "sync"
            ws.send(json.dumps({"kind": "move", "move": number, "action": action}))
            wait_for(
                lambda: "being recorded" in try_move(seats[1 - to_move], table_id, number, action)
            )
            server.process.send_signal(signal.SIGTERM)
            assert server.process.wait(timeout=60) in (0, -signal.SIGTERM, 1)
        log = next(server.data_dir.glob("server-*.log")).read_text()
        assert "socket moves and" in log and "unfinished after 2 s" in log
        server.start()
        # The move that was never answered is there or not, never half: the table plays on.
        state = host.table(table_id)["game_state"]
        assert state["move"] in (number - 1, number)
