"""Attacks on privacy (issue 43, items 2 and 5): a private table read or written by its
number by someone who is neither its seat nor holds its invitation, and a deleted person's
name kept in a table's memory. On a real server, SQLite and PostgreSQL, and through two
processes."""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.server.conftest import Client, Server, signed_in, two_people
from tests.server.test_chat import table_of_two
from tests.server.test_play import play_out
from tests.server.test_rematch import finished_game
from tests.server.test_safety import socket_to

MISSING = 2_000_000_000  # a table number no test run reaches
READS = [
    "/api/tables/{}",
    "/api/tables/{}/chat",
    "/api/tables/{}/replay/0",
    "/api/tables/{}/record",
]


def private_game(server: Server) -> tuple[int, str, Client]:
    """A private Topiary game its host played to the end against a bot, with a line of
    chat: its number, its invitation and its host."""
    host = server.client().signup(f"p-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, "random"], "private": True}
    created = host.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id, invite = created.json()["id"], created.json()["invite"]
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "secret"}).status_code == 201
    play_out({0: host}, table_id, random.Random(table_id))
    return table_id, invite, host


def guest(server: Server) -> Client:
    client = server.client()
    made = client.http.post("/api/accounts/guest")
    assert made.status_code == 201, made.text
    client.csrf = made.json()["csrf"]
    return client


def outsiders(server: Server, other_invite: str) -> dict[str, Client]:
    """Everyone who may not read a private table: a visitor without a session, a person
    signed in, a guest, and a visitor holding another private table's invitation."""
    wrong_key = server.client()
    wrong_key.http.headers["X-Meadow-Key"] = other_invite
    return {
        "visitor": server.client(),
        "signed in": server.client().signup(f"o-{secrets.token_hex(5)}"),
        "guest": guest(server),
        "another table's invitation": wrong_key,
    }


def nowhere(reply: httpx.Response, table_id: int) -> tuple[int, Any]:
    """A refusal with the table's number taken out: what a stranger may compare."""
    body = reply.json()
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        body["error"] = body["error"].replace(str(table_id), "N")
    return reply.status_code, body


def refused_socket(server: Server, client: Client | None, table_id: int) -> tuple[int, bytes]:
    with pytest.raises(InvalidStatus) as refused:
        socket_to(server, client, table_id)
    response = refused.value.response
    return response.status_code, response.body.replace(str(table_id).encode(), b"N")


@pytest.fixture(scope="module")
def private_tables(server: Server) -> tuple[tuple[int, str, Client], tuple[int, str, Client]]:
    return private_game(server), private_game(server)


def test_a_private_table_is_nowhere_for_anyone_but_its_seats_and_invited(
    server: Server, private_tables: Any
):
    (table_id, _invite, _host), (_, other_invite, _) = private_tables
    for who, client in outsiders(server, other_invite).items():
        for path in READS:
            missing = nowhere(client.get(path.format(MISSING)), MISSING)
            assert missing[0] == 404
            assert nowhere(client.get(path.format(table_id)), table_id) == missing, (who, path)
        missing_socket = refused_socket(server, client, MISSING)
        assert refused_socket(server, client, table_id) == missing_socket, who
        assert str(table_id) not in client.get("/api/tables/running").text


def test_its_seats_and_those_holding_its_invitation_or_spectator_key_read_it(
    server: Server, private_tables: Any
):
    (table_id, invite, host), _ = private_tables
    spectator_key = host.table(table_id)["spectator_key"]
    assert spectator_key and spectator_key != invite
    by_header = server.client()
    by_header.http.headers["X-Meadow-Key"] = invite
    by_query = server.client()
    by_query.http.params = {"key": spectator_key}
    for client in (host, by_header, by_query):
        for path in READS:
            assert client.get(path.format(table_id)).status_code == 200, path
    said = by_query.get(f"/api/tables/{table_id}/chat").json()
    assert [line["text"] for line in said] == ["secret"]
    for client, key in ((host, None), (server.client(), invite), (None, spectator_key)):
        path = f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws?key={key or ''}"
        headers = {"Cookie": client.cookies} if client else {}
        with connect(path, additional_headers=headers, open_timeout=10) as socket:
            sync = json.loads(socket.recv(timeout=10))
            assert sync["kind"] == "sync" and sync["chat"][0]["text"] == "secret"


def test_nobody_but_its_seats_does_anything_at_a_private_table_by_its_number(
    server: Server, private_tables: Any
):
    (table_id, _invite, _host), _ = private_tables
    stranger = server.client().signup(f"x-{secrets.token_hex(5)}")
    for action, body in [
        ("join", None),
        ("leave", None),
        ("reclaim", None),
        ("rematch", None),
        ("start", None),
        ("moves", {"move": 1, "action": "x"}),
        ("undo", {"move": 1}),
        ("chat", {"text": "hello"}),
    ]:
        missing = stranger.post(f"/api/tables/{MISSING}/{action}", json=body)
        tried = stranger.post(f"/api/tables/{table_id}/{action}", json=body)
        assert nowhere(tried, table_id) == nowhere(missing, MISSING), action


def test_only_its_seats_write_a_private_tables_chat(server: Server, private_tables: Any):
    (table_id, invite, host), _ = private_tables
    invited = server.client().signup(f"i-{secrets.token_hex(5)}")
    invited.http.headers["X-Meadow-Key"] = invite
    assert invited.get(f"/api/tables/{table_id}").status_code == 200
    refused = invited.post(f"/api/tables/{table_id}/chat", json={"text": "let me in"})
    assert refused.status_code == 403, refused.text
    assert "seats" in refused.json()["error"]
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "gg"}).status_code == 201
    texts = [line["text"] for line in host.get(f"/api/tables/{table_id}/chat").json()]
    assert texts == ["secret", "gg"]


def test_a_spectator_writes_a_public_tables_chat_a_visitor_does_not(server: Server):
    table_id, _host, _guest = table_of_two(server)
    spectator = server.client().signup(f"w-{secrets.token_hex(5)}")
    said = spectator.post(f"/api/tables/{table_id}/chat", json={"text": "nice move"})
    assert said.status_code == 201, said.text
    visitor = server.client().post(f"/api/tables/{table_id}/chat", json={"text": "hi"})
    assert visitor.status_code == 401


def test_a_private_games_rematch_is_private_and_read_by_the_seats_kept_there(server: Server):
    # A public game's rematch is public (tests/server/test_rematch.py, issue 47).
    table_id, host, kept = finished_game(server, [None, None], private=True)
    rematch = host.post(f"/api/tables/{table_id}/rematch").json()["id"]
    assert kept.table(rematch)["private"] is True
    stranger = server.client().signup(f"y-{secrets.token_hex(5)}")
    missing = nowhere(stranger.get(f"/api/tables/{MISSING}"), MISSING)
    assert nowhere(stranger.get(f"/api/tables/{rematch}"), rematch) == missing
    assert nowhere(server.client().get(f"/api/tables/{rematch}"), rematch) == missing
    assert host.table(rematch)["spectator_key"]


# A deleted person's name (item 5)


def chat_names(client: Client, server: Server, table_id: int) -> list[list[str]]:
    """The chat's names as a seat reads them: the table, the chat, a new socket's sync."""
    shown = client.table(table_id)["game_state"]["chat"]
    stored = client.get(f"/api/tables/{table_id}/chat").json()
    with socket_to(server, client, table_id) as socket:
        sync = json.loads(socket.recv(timeout=10))
    return [[line["name"] for line in lines] for lines in (shown, stored, sync["chat"])]


def delete_account(client: Client) -> None:
    deleted = client.post("/api/accounts/me/delete", json={"password": "correct horse"})
    assert deleted.status_code == 204, deleted.text


def test_a_deleted_persons_name_leaves_the_chat_of_a_loaded_table(server: Server):
    table_id, host, leaving = table_of_two(server)
    said = leaving.post(f"/api/tables/{table_id}/chat", json={"text": "bye"}).json()
    assert chat_names(host, server, table_id) == [[leaving.name]] * 3  # in memory now
    delete_account(leaving)
    assert chat_names(host, server, table_id) == [[f"deleted player {said['user']}"]] * 3


def test_a_deleted_persons_name_leaves_the_chat_in_every_process(
    pair: tuple[Server, Server],
):
    a, b = pair
    table_id, host, leaving = two_people(a, b)
    said = leaving.post(f"/api/tables/{table_id}/chat", json={"text": "bye"}).json()
    on_b = signed_in(b, host)
    with socket_to(b, on_b, table_id) as watching:  # B holds the table while it is watched
        assert json.loads(watching.recv(timeout=10))["chat"][0]["name"] == leaving.name
        delete_account(signed_in(a, leaving))
        neutral = [[f"deleted player {said['user']}"]] * 3
        # B hears of the erasure from the audit log, within half a second: waited for.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if on_b.table(table_id)["game_state"]["chat"][0]["name"] != leaving.name:
                break
            time.sleep(0.05)
        assert chat_names(on_b, b, table_id) == neutral
