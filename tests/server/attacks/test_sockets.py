"""Attacks through a table's WebSocket: a socket kept after its seat was given up, and frames
no page ever sends (binary, invalid UTF-8). On a real server, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client, Server
from tests.server.test_safety import socket_to


def heard_until(socket: Any, move: int) -> list[dict[str, Any]]:
    """Every message a socket hears up to (and with) the news of move `move`."""
    heard: list[dict[str, Any]] = []
    while True:
        message = json.loads(socket.recv(timeout=15))
        heard.append(message)
        if message["kind"] == "move" and message["number"] >= move:
            return heard


@pytest.mark.parametrize("game", ["topiary", "renature", "mystic-vale"])
def test_a_socket_kept_after_leaving_a_seat_hears_its_new_player_as_a_spectator(
    server: Server, game: str
):
    host = server.client().signup(f"h-{secrets.token_hex(5)}")
    leaver = server.client().signup(f"b-{secrets.token_hex(5)}")
    newcomer = server.client().signup(f"c-{secrets.token_hex(5)}")
    created = host.post("/api/tables", json={"game": game, "players": 2, "seats": [None, None]})
    table_id = created.json()["id"]
    assert leaver.post(f"/api/tables/{table_id}/join").json() == {"seat": 1}
    with socket_to(server, leaver, table_id) as kept, socket_to(server, None, table_id) as watcher:
        for socket in (kept, watcher):
            assert json.loads(socket.recv(timeout=10))["kind"] == "sync"
        assert leaver.post(f"/api/tables/{table_id}/leave").status_code == 204
        assert newcomer.post(f"/api/tables/{table_id}/join").json() == {"seat": 1}
        assert host.post(f"/api/tables/{table_id}/start").status_code == 204
        played = play_until_both_moved(table_id, {0: host, 1: newcomer})
        through_kept, through_watcher = heard_until(kept, played), heard_until(watcher, played)
    # The seat's hand, private events and action texts are the newcomer's alone: the
    # socket of the person who left gets exactly what a spectator gets.
    assert through_kept == through_watcher
    assert all("action" not in message for message in through_kept)
    assert any(message["kind"] == "move" and message["seat"] == 1 for message in through_kept)


def play_until_both_moved(table_id: int, seats: dict[int, Client]) -> int:
    """Whoever is to move plays a legal action until each seat has moved twice (at most 60
    moves); returns the last move's number."""
    number, moved = 0, {0: 0, 1: 0}
    while min(moved.values()) < 2 and number < 60:
        state = seats[0].table(table_id)["game_state"]
        mover = seats[state["to_move"]]
        mine = mover.table(table_id)["game_state"]
        number = mine["move"] + 1
        body = {"move": number, "action": mine["legal"][-1]}
        reply = mover.post(f"/api/tables/{table_id}/moves", json=body)
        assert reply.status_code == 200, reply.text
        moved[state["to_move"]] += 1
    return number


def log_since(server: Server, offset: int) -> str:
    return (server.data_dir / f"server-{server.port}.log").read_bytes()[offset:].decode("utf-8")


def log_size(server: Server) -> int:
    return (server.data_dir / f"server-{server.port}.log").stat().st_size


@pytest.mark.parametrize(
    ("frame", "as_text"),
    [
        (b"\x00\x01binary", False),
        (b"\xff\xfe not utf-8", True),
        (b'{"kind": "move", "move": 1, "action": "' + b"x" * 200_000 + b'"}', True),
    ],
    ids=["binary frame", "invalid utf-8 text frame", "a frame of 200 kB"],
)
def test_a_frame_no_page_sends_is_closed_with_a_code_and_no_traceback(
    server: Server, frame: bytes, as_text: bool
):
    host = server.client().signup(f"f-{secrets.token_hex(5)}")
    created = host.post(
        "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
    )
    table_id = created.json()["id"]
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    before = log_size(server)
    with socket_to(server, host, table_id) as socket:
        assert json.loads(socket.recv(timeout=10))["kind"] == "sync"
        socket.send(frame, text=as_text)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                socket.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code in (1003, 1007, 1009)
    # The same socket's table still plays: nothing was half-applied.
    assert host.table(table_id)["status"] == "running"
    written = log_since(server, before)
    assert "Traceback" not in written and "KeyError" not in written, written
