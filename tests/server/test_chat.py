"""Table chat (issue 20, 6): stored with the table, told live over the table's socket, in
one process and across two, within its limits, and never read by someone who muted its
writer. On a real server, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import secrets
from typing import Any

from tests.server.conftest import Client, Server, signed_in, two_people
from tests.server.test_safety import socket_to


def table_of_two(server: Server) -> tuple[int, Client, Client]:
    host = server.client().signup(f"c-{secrets.token_hex(5)}")
    guest = server.client().signup(f"d-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    table_id = host.post("/api/tables", json=body).json()["id"]
    assert guest.post(f"/api/tables/{table_id}/join").status_code == 200
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    return table_id, host, guest


def chat_heard(socket: Any, text: str) -> dict[str, Any]:
    """The first chat line a socket hears (after its sync), which must say `text`."""
    while True:
        message = json.loads(socket.recv(timeout=15))
        if message["kind"] == "chat":
            assert message["text"] == text
            return message


def test_a_line_is_stored_with_the_table_and_reaches_every_socket_of_it(server: Server):
    table_id, host, guest = table_of_two(server)
    with (
        socket_to(server, guest, table_id) as theirs,
        socket_to(server, None, table_id) as spectator,
    ):
        for socket in (theirs, spectator):
            assert json.loads(socket.recv(timeout=15))["kind"] == "sync"
        said = host.post(f"/api/tables/{table_id}/chat", json={"text": "  good luck!  "})
        assert said.status_code == 201, said.text
        line = said.json()
        assert (line["name"], line["seat"], line["text"], line["move"]) == (
            host.name,
            0,
            "good luck!",
            0,
        )
        assert chat_heard(theirs, "good luck!")["id"] == line["id"]
        assert chat_heard(spectator, "good luck!")["name"] == host.name
    # Kept: read back from the store, and in a new socket's sync.
    assert [m["text"] for m in guest.get(f"/api/tables/{table_id}/chat").json()] == ["good luck!"]
    with socket_to(server, None, table_id) as later:
        sync = json.loads(later.recv(timeout=15))
        assert [m["text"] for m in sync["chat"]] == ["good luck!"]


def test_a_spectator_may_chat_and_a_visitor_may_not(server: Server):
    table_id, _host, _guest = table_of_two(server)
    watcher = server.client().signup(f"w-{secrets.token_hex(5)}")
    said = watcher.post(f"/api/tables/{table_id}/chat", json={"text": "nice move"})
    assert said.status_code == 201 and said.json()["seat"] is None
    assert server.client().post(
        f"/api/tables/{table_id}/chat", json={"text": "hi"}
    ).status_code == (401)


def test_a_line_that_looks_like_html_is_stored_as_it_was_written(server: Server):
    """The page shows it as text (tests/web/test_chat.py); the server neither runs nor
    rewrites it."""
    table_id, host, guest = table_of_two(server)
    text = '<img src=x onerror="alert(1)"><b>bold</b>'
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": text}).status_code == 201
    assert guest.get(f"/api/tables/{table_id}/chat").json()[-1]["text"] == text


def test_empty_long_and_control_character_lines_are_refused_or_cleaned(server: Server):
    table_id, host, _guest = table_of_two(server)
    path = f"/api/tables/{table_id}/chat"
    empty = host.post(path, json={"text": " \n\t "})
    assert empty.status_code == 400 and "needs some text" in empty.json()["error"]
    long = host.post(path, json={"text": "x" * 501})
    assert long.status_code == 422 and "at most 500 characters, not 501" in long.json()["error"]
    cleaned = host.post(path, json={"text": "a\x00b\x1b[31mc\nd"})
    assert cleaned.status_code == 201 and cleaned.json()["text"] == "ab[31mc\nd"
    assert host.post(path, json={"text": 7}).status_code == 422
    assert host.post("/api/tables/999999/chat", json={"text": "anyone?"}).status_code == 404


def test_a_person_writes_a_few_lines_a_minute_at_most(server: Server):
    table_id, host, guest = table_of_two(server)
    path = f"/api/tables/{table_id}/chat"
    answers = [host.post(path, json={"text": f"spam {n}"}).status_code for n in range(12)]
    assert answers == [201] * 10 + [429] * 2
    refused = host.post(path, json={"text": "more"})
    assert "too many chat messages: at most 10 in 1 minute" in refused.json()["error"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert guest.post(path, json={"text": "my turn to talk"}).status_code == 201  # per person
    assert len(guest.get(path).json()) == 11


def test_a_muted_person_is_read_by_nobody_who_muted_them(server: Server):
    table_id, host, guest = table_of_two(server)
    watcher = server.client().signup(f"m-{secrets.token_hex(5)}")
    path = f"/api/tables/{table_id}/chat"
    with socket_to(server, guest, table_id) as theirs:
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        muted = guest.http.put(
            f"/api/accounts/me/mutes/{host.name}", headers={"X-CSRF-Token": guest.csrf}
        )
        assert muted.status_code == 204
        assert guest.get("/api/accounts/me").json()["muted"] == [host.name]
        host.post(path, json={"text": "you will not read this"})
        watcher.post(path, json={"text": "but this"})
        # The muted line never reaches the socket: the next one heard is the watcher's.
        assert chat_heard(theirs, "but this")["name"] == watcher.name
    assert [m["text"] for m in guest.get(path).json()] == ["but this"]
    assert [m["text"] for m in watcher.get(path).json()] == ["you will not read this", "but this"]
    with socket_to(server, guest, table_id) as again:  # a new socket's sync leaves it out too
        assert [m["text"] for m in json.loads(again.recv(timeout=15))["chat"]] == ["but this"]
    unmuted = guest.http.delete(
        f"/api/accounts/me/mutes/{host.name}", headers={"X-CSRF-Token": guest.csrf}
    )
    assert unmuted.status_code == 204
    assert len(guest.get(path).json()) == 2
    nobody = guest.http.put(
        "/api/accounts/me/mutes/nobody-here", headers={"X-CSRF-Token": guest.csrf}
    )
    assert nobody.status_code == 404
    myself = guest.http.put(
        f"/api/accounts/me/mutes/{guest.name}", headers={"X-CSRF-Token": guest.csrf}
    )
    assert myself.status_code == 400


def test_a_line_the_sites_host_hid_is_read_by_nobody(server: Server):
    """Moderation's tools come with the operators' issue; the data model has the mark now."""
    from sqlalchemy import create_engine, text

    table_id, host, guest = table_of_two(server)
    path = f"/api/tables/{table_id}/chat"
    hidden = host.post(path, json={"text": "something rude"}).json()["id"]
    host.post(path, json={"text": "sorry"})
    url = server.database_url or f"sqlite:///{server.data_dir / 'meadow.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE chat SET hidden_at = CURRENT_TIMESTAMP WHERE id = :id"), {"id": hidden}
        )
    engine.dispose()
    assert [m["text"] for m in guest.get(path).json()] == ["sorry"]


def test_a_line_said_on_one_process_reaches_a_socket_on_the_other(
    pair: tuple[Server, Server],
):
    a, b = pair
    table_id, host, guest = two_people(a, b)
    with socket_to(b, guest, table_id) as on_b:
        assert json.loads(on_b.recv(timeout=15))["kind"] == "sync"
        said = host.post(f"/api/tables/{table_id}/chat", json={"text": "hello from A"})
        assert said.status_code == 201
        assert chat_heard(on_b, "hello from A")["id"] == said.json()["id"]
        # And back: the guest says it on B, the host's socket on A hears it.
        with socket_to(a, host, table_id) as on_a:
            assert json.loads(on_a.recv(timeout=15))["kind"] == "sync"
            guest.post(f"/api/tables/{table_id}/chat", json={"text": "hello from B"})
            assert chat_heard(on_a, "hello from B")["name"] == guest.name
    # The chat limit is one across the processes: ten lines in a minute, wherever written.
    on_a_too = signed_in(a, guest)
    answers = [
        (on_a_too if n % 2 else guest)
        .post(f"/api/tables/{table_id}/chat", json={"text": f"line {n}"})
        .status_code
        for n in range(10)
    ]
    assert answers.count(429) == 1  # one line was written already this minute


def test_a_socket_opened_later_gets_the_latest_lines_however_many_were_said(server: Server):
    """A table read back into memory (here: after a restart) holds its lines for the sync,
    with other tables' lines between them in the store."""
    table_id, host, guest = table_of_two(server)
    other_id, other_host, _ = table_of_two(server)
    path = f"/api/tables/{table_id}/chat"
    for n in range(9):
        assert (host if n % 2 else guest).post(path, json={"text": f"line {n}"}).status_code == 201
        other_host.post(f"/api/tables/{other_id}/chat", json={"text": "elsewhere"})
    server.stop()
    server.start()
    with socket_to(server, None, table_id) as later:
        sync = json.loads(later.recv(timeout=15))
        assert [m["text"] for m in sync["chat"]] == [f"line {n}" for n in range(9)]
