"""Moderation (issue 23, 7): the admins' routes in the browser and `meadow admin` at the
shell, on a real server (SQLite and PostgreSQL). What the shell decides while the server
runs takes effect there: the server reads it from the database (log-in refused, the
banned person's socket closed and its moves refused, their seat handed to a bot)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client, Server, two_people
from tests.server.test_chat import table_of_two
from tests.server.test_safety import socket_to


def cli(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """`meadow admin ...` at the server's shell: its data directory and database."""
    env = dict(os.environ, MEADOW_DATA_DIR=str(server.data_dir), **server.env)
    if server.database_url:
        env["MEADOW_DATABASE_URL"] = server.database_url
    return subprocess.run(
        [sys.executable, "-m", "meadow", "admin", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def an_admin(server: Server) -> Client:
    admin = server.client().signup(f"admin-{secrets.token_hex(4)}")
    made = cli(server, "make-admin", admin.name)
    assert made.returncode == 0, made.stderr
    return admin


def person_id(admin: Client, name: str) -> int:
    found = admin.get("/api/admin/people", params={"find": name}).json()
    return next(p["id"] for p in found if p["name"] == name)


def put(client: Client, path: str, **kw: Any) -> Any:
    return client.http.put(path, headers={"X-CSRF-Token": client.csrf}, **kw)


def delete(client: Client, path: str) -> Any:
    return client.http.delete(path, headers={"X-CSRF-Token": client.csrf})


def closed_with(socket: Any) -> int:
    """The code the server closes the socket with, after any news before it."""
    try:
        while True:
            socket.recv(timeout=15)
    except ConnectionClosed as closed:
        assert closed.rcvd is not None
        return closed.rcvd.code


def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def log_in(server: Server, name: str) -> Any:
    return server.client().http.post(
        "/api/accounts/login", json={"name": name, "password": "correct horse"}
    )


def test_every_admin_route_refuses_anyone_but_an_admin(server: Server):
    described = server.client().get("/openapi.json").json()["paths"]
    routes = [
        (method.upper(), path.replace("{user_id}", "1").replace("{table_id}", "1"))
        for path, methods in described.items()
        if path.startswith("/api/admin/")
        for method in methods
    ]
    routes = [(m, p.replace("{chat_id}", "1")) for m, p in routes]
    assert len(routes) >= 10
    nobody = server.client()
    someone = server.client().signup(f"plain-{secrets.token_hex(4)}")
    for method, path in routes:
        body = {"json": {}} if method in ("PUT", "POST") else {}
        asked = someone.http.request(method, path, headers={"X-CSRF-Token": someone.csrf}, **body)
        assert asked.status_code == 403, (method, path, asked.text)
        assert asked.json()["error"] == "only the site's admins may do this"
        assert nobody.http.request(method, path, **body).status_code == 401, (method, path)


def test_a_ban_from_the_browser_ends_the_persons_sessions_seats_and_sockets(server: Server):
    admin = an_admin(server)
    table_id, host, guest = table_of_two(server)
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    waiting = server.client().signup(f"wait-{secrets.token_hex(4)}")
    open_id = waiting.post("/api/tables", json=body).json()["id"]
    assert guest.post(f"/api/tables/{open_id}/join").status_code == 200
    guest_id = person_id(admin, guest.name)

    with socket_to(server, guest, table_id) as theirs:
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        banned = put(admin, f"/api/admin/people/{guest_id}/ban", json={"reason": "spam"})
        assert banned.status_code == 200, banned.text
        assert banned.json()["banned_at"] is not None
        assert closed_with(theirs) == 4403
    assert guest.get("/api/accounts/me").status_code == 401
    assert guest.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 401
    refused = log_in(server, guest.name)
    assert refused.status_code == 403 and "banned" in refused.json()["error"]
    seat = host.table(table_id)["seats"][1]
    assert (seat["person"], seat["bot"]) == (guest.name, "easy")  # at once, as on time-out
    assert host.table(open_id)["seats"][1]["person"] is None  # their open seat is free
    entry = admin.get("/api/admin/audit").json()[0]
    assert (entry["actor"], entry["action"], entry["person"], entry["detail"]) == (
        admin.name,
        "ban",
        guest.name,
        "spam",
    )
    assert put(admin, f"/api/admin/people/{guest_id}/ban", json={}).status_code == 409

    # Unbanned, the person logs in and takes the seat back from the bot.
    assert delete(admin, f"/api/admin/people/{guest_id}/ban").status_code == 200
    again = log_in(server, guest.name)
    assert again.status_code == 200
    back = server.client()
    back.http.cookies = again.cookies
    back.csrf = again.json()["csrf"]
    assert back.post(f"/api/tables/{table_id}/reclaim").status_code == 200


def test_a_ban_at_the_shell_takes_effect_on_the_running_server(server: Server):
    table_id, host, guest = table_of_two(server)
    with (
        socket_to(server, guest, table_id) as theirs,
        socket_to(server, host, table_id) as mine,
    ):
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        assert json.loads(mine.recv(timeout=15))["kind"] == "sync"
        banned = cli(server, "ban", guest.name, "--reason", "abuse")
        assert banned.returncode == 0, banned.stderr
        assert f"{guest.name} is banned" in banned.stdout
        # The server reads the ban from the database: the person's socket closes, and the
        # others hear that a bot took the seat.
        assert closed_with(theirs) == 4403
        while (heard := json.loads(mine.recv(timeout=15)))["kind"] != "seat":
            pass
        assert (heard["seat"], heard["bot"], heard["reason"]) == (1, "easy", "was banned")
    assert log_in(server, guest.name).status_code == 403
    assert guest.get("/api/accounts/me").status_code == 401
    # A socket opened with the old cookie is a spectator's: its moves are refused.
    with socket_to(server, guest, table_id) as again:
        sync = json.loads(again.recv(timeout=15))
        again.send(json.dumps({"kind": "move", "move": sync["move"] + 1, "action": "x"}))
        refused = json.loads(again.recv(timeout=15))
    assert refused["kind"] == "error" and refused["status"] == 403
    assert (
        guest.post(f"/api/tables/{table_id}/moves", json={"move": 1, "action": "x"}).status_code
        == 401
    )
    joined = guest.post(f"/api/tables/{table_id}/join")
    assert joined.status_code == 401
    seat = host.table(table_id)["seats"][1]
    assert seat["bot"] == "easy"
    audit = cli(server, "audit")
    assert "ban" in audit.stdout and "shell:" in audit.stdout and "abuse" in audit.stdout


def test_a_hidden_line_leaves_every_page_of_the_table(server: Server):
    admin = an_admin(server)
    table_id, host, guest = table_of_two(server)
    first = host.post(f"/api/tables/{table_id}/chat", json={"text": "rude"}).json()
    second = host.post(f"/api/tables/{table_id}/chat", json={"text": "also rude"}).json()
    kept = guest.post(f"/api/tables/{table_id}/chat", json={"text": "fine"}).json()
    with socket_to(server, None, table_id) as watching:
        sync = json.loads(watching.recv(timeout=15))
        assert [line["id"] for line in sync["chat"]] == [first["id"], second["id"], kept["id"]]
        hidden = admin.post(f"/api/admin/chat/{first['id']}/hide")
        assert hidden.status_code == 204, hidden.text
        assert json.loads(watching.recv(timeout=15)) == {"kind": "chat_hidden", "id": first["id"]}
        # From the shell, while the server runs: the server tells the page within a tick.
        done = cli(server, "hide-chat", str(second["id"]))
        assert done.returncode == 0, done.stderr
        assert json.loads(watching.recv(timeout=15)) == {"kind": "chat_hidden", "id": second["id"]}
    assert [line["id"] for line in guest.get(f"/api/tables/{table_id}/chat").json()] == [kept["id"]]
    with socket_to(server, guest, table_id) as later:
        assert [line["id"] for line in json.loads(later.recv(timeout=15))["chat"]] == [kept["id"]]
    lines = admin.get("/api/admin/chat", params={"table": table_id}).json()
    assert [(line["id"], line["hidden"]) for line in lines] == [
        (kept["id"], False),
        (second["id"], True),
        (first["id"], True),
    ]
    assert admin.post(f"/api/admin/chat/{first['id']}/hide").status_code == 409
    assert admin.post("/api/admin/chat/2147483647/hide").status_code == 404


def test_closing_an_open_and_a_running_table(server: Server):
    admin = an_admin(server)
    host = server.client().signup(f"o-{secrets.token_hex(4)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    open_id = host.post("/api/tables", json=body).json()["id"]
    assert admin.post(f"/api/admin/tables/{open_id}/close").status_code == 204
    assert host.table(open_id)["status"] == "abandoned"
    joiner = server.client().signup(f"j-{secrets.token_hex(4)}")
    assert joiner.post(f"/api/tables/{open_id}/join").status_code == 409

    table_id, player, other = table_of_two(server)
    state = player.table(table_id)["game_state"]
    move = {"move": 1, "action": state["legal"][0]}
    assert player.post(f"/api/tables/{table_id}/moves", json=move).status_code == 200
    with socket_to(server, other, table_id) as theirs:
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        closed = cli(server, "close-table", str(table_id))
        assert closed.returncode == 0, closed.stderr
        assert f"table {table_id} (running) is closed" in closed.stdout
        while (heard := json.loads(theirs.recv(timeout=15)))["kind"] != "sync":
            pass
        assert heard["status"] == "abandoned"
    info = other.table(table_id)
    assert info["status"] == "abandoned" and info["moves_made"] == 1
    assert info["game_state"]["move"] == 1  # the last position stays to be seen
    legal = info["game_state"]["legal"] or ["x"]
    refused = other.post(f"/api/tables/{table_id}/moves", json={"move": 2, "action": legal[0]})
    assert refused.status_code == 409
    assert admin.post(f"/api/admin/tables/{table_id}/close").status_code == 409
    again = cli(server, "close-table", str(table_id))
    assert again.returncode == 2 and "only open or running tables close" in again.stderr
    assert "Traceback" not in again.stderr


def test_export_and_erase_a_person(server: Server):
    admin = an_admin(server)
    table_id, host, guest = table_of_two(server)
    guest.post(f"/api/tables/{table_id}/chat", json={"text": "my words"})
    guest_id = person_id(admin, guest.name)

    data = admin.post(f"/api/admin/people/{guest_id}/export").json()
    assert data["person"]["name"] == guest.name
    assert [line["text"] for line in data["chat"]] == ["my words"]
    assert [(t["table"], t["seat"]) for t in data["tables"]] == [(table_id, 1)]
    assert "argon2" not in json.dumps(data) and guest.csrf not in json.dumps(data)

    erased = admin.post(f"/api/admin/people/{guest_id}/erase")
    assert erased.status_code == 200 and erased.json()["name"] == f"deleted player {guest_id}"
    assert guest.get("/api/accounts/me").status_code == 401
    seat = host.table(table_id)["seats"][1]
    assert (seat["person"], seat["bot"]) == (f"deleted player {guest_id}", "easy")
    said = host.get(f"/api/tables/{table_id}/chat").json()
    assert [(line["name"], line["text"]) for line in said] == [
        (f"deleted player {guest_id}", "my words")
    ]
    actions = [entry["action"] for entry in admin.get("/api/admin/audit").json()[:2]]
    assert actions == ["erase", "export"]
    assert admin.post(f"/api/admin/people/{guest_id}/erase").status_code == 409
    me = person_id(admin, admin.name)
    assert admin.post(f"/api/admin/people/{me}/erase").status_code == 409


def test_admins_are_made_and_unmade_and_listed(server: Server):
    admin = an_admin(server)
    helper = server.client().signup(f"helper-{secrets.token_hex(4)}")
    helper_id = person_id(admin, helper.name)
    assert put(admin, f"/api/admin/people/{helper_id}/admin").json()["admin"] is True
    assert helper.get("/api/accounts/me").json()["admin"] is True
    assert helper.get("/api/admin/people").status_code == 200
    listed = admin.get("/api/admin/people", params={"admins": True}).json()
    assert {admin.name, helper.name} <= {p["name"] for p in listed}
    # An admin is not banned until unmade; nobody bans themselves.
    assert put(admin, f"/api/admin/people/{helper_id}/ban", json={}).status_code == 409
    me = person_id(admin, admin.name)
    assert put(admin, f"/api/admin/people/{me}/ban", json={}).status_code == 409
    assert delete(admin, f"/api/admin/people/{helper_id}/admin").json()["admin"] is False
    assert helper.get("/api/admin/people").status_code == 403  # at their next request
    guest = server.client()
    guest.http.post("/api/accounts/guest")
    found = admin.get("/api/admin/people", params={"guests": True, "find": "guest-"}).json()
    assert found and all(p["guest"] for p in found)
    assert put(admin, f"/api/admin/people/{found[0]['id']}/admin").status_code == 409


def test_a_ban_at_the_shell_reaches_every_process_of_a_cluster(pair: tuple[Server, Server]):
    """Two processes on one PostgreSQL and Redis: the banned person's socket on the one
    process closes, and whichever process hosts the table hands their seat to the bot."""
    a, b = pair
    table_id, host, guest = two_people(a, b)
    with socket_to(b, guest, table_id) as theirs, socket_to(a, host, table_id) as mine:
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        assert json.loads(mine.recv(timeout=15))["kind"] == "sync"
        assert cli(a, "ban", guest.name).returncode == 0
        assert closed_with(theirs) == 4403
        while (heard := json.loads(mine.recv(timeout=15)))["kind"] != "seat":
            pass
        assert (heard["seat"], heard["bot"]) == (1, "easy")
    for server in pair:
        assert log_in(server, guest.name).status_code == 403
        assert server.client().get(f"/api/tables/{table_id}").json()["seats"][1]["bot"] == "easy"


def test_a_ban_made_while_no_server_ran_is_carried_out_when_one_starts(server: Server):
    table_id, host, guest = table_of_two(server)
    server.stop()
    try:
        banned = cli(server, "ban", guest.name)
        assert banned.returncode == 0, banned.stderr
    finally:
        server.start()
    until(
        lambda: host.table(table_id)["seats"][1]["bot"] == "easy",
        "the restarted server hands the banned person's seat to the bot",
    )
    assert log_in(server, guest.name).status_code == 403
