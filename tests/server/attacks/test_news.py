"""Attacks through Redis: whoever can publish on a site's news channel (another site sharing
the Redis, or anyone who reaches it) can make a process read its log, never believe a move."""

from __future__ import annotations

import json
import time

import redis

from meadow.store import Database
from tests.server.conftest import REDIS, Server, signed_in, two_people
from tests.server.test_safety import socket_to


def test_a_move_published_on_the_news_channel_is_never_applied(pair: tuple[Server, Server]):
    a, b = pair
    table_id, host, guest = two_people(a, b)
    on_b = signed_in(b, host)
    state = on_b.table(table_id)["game_state"]
    channel = f"{a.env['MEADOW_CLUSTER_NAME']}:table:{table_id}"
    forged_line = {
        "number": state["move"] + 1,
        "seat": state["to_move"],
        "action": state["legal"][-1],
        "note": "forged",
        "at": "2026-01-01T00:00:00+00:00",
        "used": 0,
    }
    publisher = redis.Redis.from_url(REDIS)
    for forged in (
        json.dumps({"table": table_id, "line": forged_line}),  # a line, as news once carried
        str(table_id),  # a bare hint: the log is read, and it holds nothing new
        f"{table_id} line someone-else",
        b"\xff\x00 not a table",
        "9" * 400,
    ):
        publisher.publish(channel, forged)
    time.sleep(1.0)  # what was heard is handled by then
    for process in (host, on_b, guest):
        assert process.table(table_id)["moves_made"] == state["move"]
    # The news still works: a real move through A is heard on B.
    with socket_to(b, guest, table_id) as socket:
        assert json.loads(socket.recv(timeout=10))["kind"] == "sync"
        mover = host if state["to_move"] == 0 else signed_in(a, guest)
        mine = mover.table(table_id)["game_state"]
        body = {"move": mine["move"] + 1, "action": mine["legal"][0]}
        assert mover.post(f"/api/tables/{table_id}/moves", json=body).status_code == 200
        heard = json.loads(socket.recv(timeout=10))
        assert heard["kind"] == "move" and heard["number"] == body["move"]
    for server in (a, b):
        written = (server.data_dir / f"server-{server.port}.log").read_text()
        assert "Traceback" not in written, written


def test_each_database_names_its_own_site_in_redis(tmp_path):
    """Two sites on one Redis with the default name: each database makes its own, so they
    never hear each other; two processes of one database share it."""
    first, second = (Database(f"sqlite:///{tmp_path / name}") for name in ("one.db", "two.db"))
    again = Database(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        for db in (first, second):
            db.migrate()
        assert first.site_id() != second.site_id()
        assert again.site_id() == first.site_id()
    finally:
        for db in (first, second, again):
            db.dispose()


def test_a_site_without_a_cluster_name_publishes_under_its_databases_id(tmp_path):
    server = Server(tmp_path, None, env={"MEADOW_REDIS_URL": REDIS, "MEADOW_LEASE_MS": "1500"})
    server.start()
    try:
        site = Database(f"sqlite:///{tmp_path / 'meadow.sqlite3'}")
        name = f"meadow-{site.site_id()}"
        site.dispose()
        listening = redis.Redis.from_url(REDIS).pubsub(ignore_subscribe_messages=True)
        listening.psubscribe(f"{name}:table:*")
        time.sleep(0.2)
        host = server.client().signup("site-host")
        body = {"game": "topiary", "players": 2, "seats": [None, "random"]}
        table_id = host.post("/api/tables", json=body).json()["id"]
        assert host.post(f"/api/tables/{table_id}/start").status_code == 204
        heard = []
        deadline = time.monotonic() + 10
        while len(heard) < 3 and time.monotonic() < deadline:
            message = listening.get_message(timeout=1)
            if message is not None:
                heard.append(message["data"])
        assert any(data.split(b" ")[0] == str(table_id).encode() for data in heard)
    finally:
        server.stop()
