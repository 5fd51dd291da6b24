"""'Your turn' e-mail for async tables, sent to a local SMTP sink (aiosmtpd)."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from pathlib import Path
from typing import TypeVar

from aiosmtpd.controller import Controller

from tests.server.conftest import Server

S = TypeVar("S", bound="Sink")


class Sink:
    def __init__(self) -> None:
        self.messages: list = []
        self.port = 0  # where it listens, once `listening`

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def listening(sink: S) -> Iterator[S]:
    """`sink` as an SMTP server on a free local port (`sink.port`), for a server to mail to."""
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()
    sink.port = smtp.port
    try:
        yield sink
    finally:
        smtp.stop()


def test_an_async_table_mails_the_person_whose_move_it_is(tmp_path: Path):
    sink = Sink()
    smtp = Controller(sink, hostname="127.0.0.1", port=free_port())
    smtp.start()
    server = Server(
        tmp_path,
        None,
        env={"MEADOW_SMTP_HOST": "127.0.0.1", "MEADOW_SMTP_PORT": str(smtp.port)},
    )
    server.start()
    try:
        host = server.client().signup("mail-host")
        friend = server.client().signup("mail-friend")
        assert friend.http.put(
            "/api/accounts/me",
            json={"email": "friend@example.org", "notify": True, "password": "correct horse"},
            headers={"X-CSRF-Token": friend.csrf},
        ).json()["notify"]
        # Notices go to a confirmed address only: follow the link mailed to it.
        deadline = time.monotonic() + 10
        while not sink.messages and time.monotonic() < deadline:
            time.sleep(0.1)
        link = re.search(r"#/confirm/([\w-]+)", sink.messages.pop().get_payload())
        assert link is not None
        confirmed = friend.post("/api/accounts/email/confirm", json={"token": link.group(1)})
        assert confirmed.status_code == 200
        created = host.post(
            "/api/tables",
            json={"game": "harmonies", "players": 2, "seats": [None, None], "mode": "async"},
        )
        table_id = created.json()["id"]
        friend.post(f"/api/tables/{table_id}/join")
        host.post(f"/api/tables/{table_id}/start")
        while host.table(table_id)["game_state"]["to_move"] == 0:
            state = host.table(table_id)["game_state"]
            host.post(
                f"/api/tables/{table_id}/moves",
                json={"move": state["move"] + 1, "action": state["legal"][-1]},
            )
        deadline = time.monotonic() + 10
        while not sink.messages and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(sink.messages) == 1  # the host, who asked for nothing, got nothing
        notice = sink.messages[0]
        assert notice["To"] == "friend@example.org"
        assert notice["Subject"] == f"Your turn in Harmonies (table {table_id})"
        assert f"/#/table/{table_id}" in notice.get_payload()
    finally:
        server.stop()
        smtp.stop()


def test_notices_need_an_address(tmp_path: Path):
    server = Server(tmp_path, None)
    server.start()
    try:
        me = server.client().signup("no-address")
        reply = me.http.put(
            "/api/accounts/me", json={"notify": True}, headers={"X-CSRF-Token": me.csrf}
        )
        assert reply.status_code == 400 and "e-mail address" in reply.json()["error"]
        bad = me.http.put(
            "/api/accounts/me", json={"email": "not an address"}, headers={"X-CSRF-Token": me.csrf}
        )
        assert bad.status_code == 422
    finally:
        server.stop()
