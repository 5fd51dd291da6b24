"""A person's own account (issue 23, 6): a new password by e-mail, a change of password, a
new e-mail address confirmed by its link before anything else is sent to it, and deleting
the account (its games and chat keep a neutral name). On a real server, SQLite and
PostgreSQL, its e-mail caught by a local SMTP sink (aiosmtpd)."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from email.message import Message

import pytest

from tests.server.conftest import ISSUED, Client, Server, own_server
from tests.server.test_chat import table_of_two
from tests.server.test_mail import Sink, listening
from tests.server.test_safety import socket_to

MAILS_PER_ACCOUNT = 3
RESETS_PER_ADDRESS = 6


class HeldSink(Sink):
    """The SMTP sink, which can hold the server's mail thread in the middle of a send."""

    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()
        self.holding = threading.Event()  # set: the next mail waits until released
        self.held = threading.Event()  # a mail is waiting
        self.released = threading.Event()

    async def handle_DATA(self, server, session, envelope) -> str:
        if self.holding.is_set():
            self.holding.clear()
            self.held.set()
            while not self.released.is_set():
                await asyncio.sleep(0.01)
        with self.lock:
            return await super().handle_DATA(server, session, envelope)

    def to(self, address: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]


@pytest.fixture(scope="module")
def sink() -> Iterator[HeldSink]:
    with listening(HeldSink()) as found:
        yield found


def mailing_to(sink: Sink) -> dict[str, str]:
    """The settings of a server that sends its e-mail to `sink`, its links to meadow.test."""
    return {
        "MEADOW_SMTP_HOST": "127.0.0.1",
        "MEADOW_SMTP_PORT": str(sink.port),
        "MEADOW_PUBLIC_URL": "http://meadow.test",
    }


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory, sink: HeldSink) -> Iterator[Server]:
    """The suite's `server` (SQLite, then PostgreSQL), sending its e-mail to the sink."""
    with own_server(
        tmp_path_factory,
        request.param,
        **mailing_to(sink),
        MEADOW_MAILS_PER_ACCOUNT_PER_HOUR=str(MAILS_PER_ACCOUNT),
        MEADOW_RESETS_PER_ADDRESS_PER_HOUR=str(RESETS_PER_ADDRESS),
    ) as found:
        yield found


def mails(sink: HeldSink, address: str, count: int = 1) -> list[Message]:
    """The mails to `address`, once there are `count` (the sending thread is the server's)."""
    deadline = time.monotonic() + 20
    while len(sink.to(address)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    found = sink.to(address)
    assert len(found) >= count, f"{len(found)} mails to {address}, not {count}"
    return found


def token_in(message: Message, page: str) -> str:
    found = re.search(rf"http://meadow\.test/#/{page}/([A-Za-z0-9_-]+)", message.get_payload())
    assert found, message.get_payload()
    ISSUED.add(found.group(1))  # no server log may hold it
    return found.group(1)


def address() -> str:
    return f"p-{secrets.token_hex(5)}@example.org"


def person(server: Server, prefix: str = "p") -> Client:
    return server.client().signup(f"{prefix}-{secrets.token_hex(5)}")


def put_me(client: Client, **body: object) -> dict:
    body.setdefault("password", "correct horse")  # an address needs it (issue 43)
    reply = client.http.put("/api/accounts/me", json=body, headers={"X-CSRF-Token": client.csrf})
    assert reply.status_code == 200, reply.text
    return reply.json()


def confirmed(client: Client, sink: HeldSink, email: str, notify: bool = False) -> None:
    """Give `email` and follow the link mailed to it."""
    put_me(client, email=email, notify=notify)
    token = token_in(mails(sink, email)[-1], "confirm")
    reply = client.post("/api/accounts/email/confirm", json={"token": token})
    assert reply.status_code == 200 and reply.json() == {"email": email}, reply.text


def me(client: Client) -> dict:
    return client.get("/api/accounts/me").json()


def ask_reset(client: Client, email: str) -> tuple[int, str]:
    reply = client.post("/api/accounts/reset", json={"email": email})
    return reply.status_code, reply.text


def test_a_new_address_waits_for_its_link_and_the_link_works_once(server: Server, sink):
    alice = person(server, "conf")
    first = address()
    shown = put_me(alice, email=first, notify=True)
    assert (shown["email"], shown["pending_email"], shown["email_confirmed"]) == (
        None,
        first,
        False,
    )
    mail = mails(sink, first)[0]
    assert mail["Subject"] == f"Confirm your e-mail address for {alice.name} at Meadow"
    token = token_in(mail, "confirm")
    # Any browser may follow it: no session is needed.
    elsewhere = server.client()
    reply = elsewhere.post("/api/accounts/email/confirm", json={"token": token})
    assert reply.status_code == 200 and reply.json() == {"email": first}
    shown = me(alice)
    assert (shown["email"], shown["pending_email"], shown["email_confirmed"]) == (
        first,
        None,
        True,
    )
    again = elsewhere.post("/api/accounts/email/confirm", json={"token": token})
    assert again.status_code == 400 and "was used already" in again.json()["error"]
    made_up = elsewhere.post("/api/accounts/email/confirm", json={"token": "x" * 43})
    assert made_up.status_code == 400

    # A second address waits while the confirmed one serves; the earlier link of a change
    # superseded by another stops working.
    second, third = address(), address()
    shown = put_me(alice, email=second, notify=True)
    assert (shown["email"], shown["pending_email"]) == (first, second)
    stale = token_in(mails(sink, second)[0], "confirm")
    put_me(alice, email=third, notify=True)
    fresh = token_in(mails(sink, third)[0], "confirm")
    assert elsewhere.post("/api/accounts/email/confirm", json={"token": stale}).status_code == 400
    assert elsewhere.post("/api/accounts/email/confirm", json={"token": fresh}).status_code == 200
    assert (me(alice)["email"], me(alice)["email_confirmed"]) == (third, True)
    # Giving the confirmed address again keeps it, with nothing to confirm.
    assert put_me(alice, email=third, notify=False)["pending_email"] is None


def test_no_notice_goes_to_an_address_before_it_is_confirmed(server: Server, sink):
    host = person(server, "nh")
    friend = person(server, "nf")
    email = address()
    put_me(friend, email=email, notify=True)  # the confirmation mail, not followed yet
    body = {"game": "harmonies", "players": 2, "seats": [None, None], "mode": "async"}
    table_id = host.post("/api/tables", json=body).json()["id"]
    assert friend.post(f"/api/tables/{table_id}/join").status_code == 200
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204

    def play_to_the_friend() -> None:
        while host.table(table_id)["game_state"]["to_move"] == 0:
            state = host.table(table_id)["game_state"]
            move = {"move": state["move"] + 1, "action": state["legal"][-1]}
            assert host.post(f"/api/tables/{table_id}/moves", json=move).status_code == 200

    play_to_the_friend()
    # The mail thread looks the friend up in order: once the link sent after the move has
    # come, the notice that move would have sent is decided.
    assert friend.post("/api/accounts/me/email/resend").status_code == 202
    sent = mails(sink, email, 2)
    assert [m["Subject"].startswith("Your turn") for m in sent] == [False, False]
    token = token_in(sent[-1], "confirm")
    assert friend.post("/api/accounts/email/confirm", json={"token": token}).status_code == 200
    # Confirmed: the next turn that comes to the friend is told.
    state = friend.table(table_id)["game_state"]
    while state["to_move"] == 1:
        move = {"move": state["move"] + 1, "action": state["legal"][-1]}
        assert friend.post(f"/api/tables/{table_id}/moves", json=move).status_code == 200
        state = friend.table(table_id)["game_state"]
    play_to_the_friend()
    notice = mails(sink, email, 3)[-1]
    assert notice["Subject"] == f"Your turn in Harmonies (table {table_id})"


def test_a_reset_answers_alike_for_every_address_and_sets_a_password_once(server: Server, sink):
    bob = person(server, "reset")
    email = address()
    confirmed(bob, sink, email)
    other = server.client().signup(f"other-{secrets.token_hex(4)}")  # a second session of Bob's
    other_session = server.client()
    login = {"name": bob.name, "password": "correct horse"}
    assert other_session.http.post("/api/accounts/login", json=login).status_code == 200

    asker = server.client()
    known = ask_reset(asker, email.upper())  # any case
    unknown = ask_reset(asker, address())
    assert known == unknown and known[0] == 202
    mail = mails(sink, email, 2)[-1]
    assert mail["Subject"] == f"A new password for {bob.name} at Meadow"
    token = token_in(mail, "reset")

    short = asker.post("/api/accounts/reset/finish", json={"token": token, "password": "short"})
    assert short.status_code == 422
    done = asker.post(
        "/api/accounts/reset/finish", json={"token": token, "password": "a new battery"}
    )
    assert done.status_code == 200 and done.json()["name"] == bob.name
    assert asker.get("/api/accounts/me").json()["name"] == bob.name  # signed in here
    # Every older session of the account has ended; nobody else's has.
    assert bob.get("/api/accounts/me").status_code == 401
    assert other_session.get("/api/accounts/me").status_code == 401
    assert other.get("/api/accounts/me").status_code == 200
    again = server.client().post(
        "/api/accounts/reset/finish", json={"token": token, "password": "another one"}
    )
    assert again.status_code == 400
    fresh = server.client()
    assert fresh.http.post("/api/accounts/login", json=login).status_code == 401
    new = {"name": bob.name, "password": "a new battery"}
    assert fresh.http.post("/api/accounts/login", json=new).status_code == 200


def test_a_reset_goes_only_to_a_confirmed_address(server: Server, sink):
    carol = person(server, "unconf")
    email = address()
    put_me(carol, email=email)  # never confirmed
    asker = server.client()
    assert ask_reset(asker, email)[0] == 202
    # A mail asked for afterwards comes after that reset's lookup (one mail thread).
    dave = person(server, "conf2")
    other = address()
    confirmed(dave, sink, other)
    assert ask_reset(asker, other)[0] == 202
    mails(sink, other, 2)
    assert [m["Subject"] for m in sink.to(email)] == [
        f"Confirm your e-mail address for {carol.name} at Meadow"
    ]


def test_the_answer_to_a_reset_never_waits_for_the_lookup(server: Server, sink):
    """While the mail thread is held in the middle of a send, asking for a reset is still
    answered, the same for a known and an unknown address: the accounts are looked up
    after the answer, so neither its words nor its time tell whether an address is known."""
    erin = person(server, "held")
    email = address()
    confirmed(erin, sink, email)
    blocker = person(server, "blocker")
    sink.released.clear()
    sink.holding.set()
    put_me(blocker, email=address())  # its confirmation mail holds the mail thread
    assert sink.held.wait(20)
    try:
        asker = server.client()
        assert ask_reset(asker, email) == ask_reset(asker, address())
        assert ask_reset(asker, email)[0] == 202
    finally:
        sink.released.set()
        sink.held.clear()
    assert mails(sink, email, 2)[-1]["Subject"].startswith("A new password")


def test_resets_are_limited_per_account_and_per_address(server: Server, sink):
    frank = person(server, "limit")
    email = address()
    confirmed(frank, sink, email)  # one of the account's mails this hour
    for _ in range(MAILS_PER_ACCOUNT):
        assert ask_reset(server.client(), email)[0] == 202  # from different addresses
    # A mail asked for afterwards comes after those resets were decided.
    probe = person(server, "probe")
    probe_address = address()
    put_me(probe, email=probe_address)
    mails(sink, probe_address)
    assert len(mails(sink, email)) == MAILS_PER_ACCOUNT  # the confirmation and two resets

    asker = server.client()
    answers = [ask_reset(asker, address())[0] for _ in range(RESETS_PER_ADDRESS + 1)]
    assert answers == [202] * RESETS_PER_ADDRESS + [429]


def test_a_new_password_needs_the_current_one_and_ends_other_sessions(server: Server):
    grace = person(server, "pw")
    elsewhere = server.client()
    login = {"name": grace.name, "password": "correct horse"}
    assert elsewhere.http.post("/api/accounts/login", json=login).status_code == 200

    def change(current: str, new: str) -> int:
        return grace.http.put(
            "/api/accounts/me/password",
            json={"current": current, "new": new},
            headers={"X-CSRF-Token": grace.csrf},
        ).status_code

    assert change("wrong horse", "a new battery") == 403
    assert change("correct horse", "short") == 422
    assert change("correct horse", "a new battery") == 204
    assert grace.get("/api/accounts/me").status_code == 200  # this session stays
    assert elsewhere.get("/api/accounts/me").status_code == 401
    fresh = server.client()
    assert fresh.http.post("/api/accounts/login", json=login).status_code == 401
    new = {"name": grace.name, "password": "a new battery"}
    assert fresh.http.post("/api/accounts/login", json=new).status_code == 200
    # Guessing the current password from a browser left signed in is limited: ten wrong
    # ones (the first above among them), then 429.
    answers = [change(f"guess {n}", "whatever else") for n in range(10)]
    assert answers == [403] * 9 + [429]


def test_deleting_an_account_leaves_its_games_and_chat_under_a_neutral_name(server: Server):
    table_id, host, guest = table_of_two(server)
    assert guest.post(f"/api/tables/{table_id}/chat", json={"text": "hello"}).status_code == 201
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    hosted = guest.post("/api/tables", json=body).json()["id"]
    muted = host.http.put(
        f"/api/accounts/me/mutes/{guest.name}", headers={"X-CSRF-Token": host.csrf}
    )
    assert muted.status_code == 204

    wrong = guest.post("/api/accounts/me/delete", json={"password": "wrong horse"})
    assert wrong.status_code == 403
    with socket_to(server, guest, table_id) as theirs:
        assert json.loads(theirs.recv(timeout=15))["kind"] == "sync"
        gone = guest.post("/api/accounts/me/delete", json={"password": "correct horse"})
        assert gone.status_code == 204, gone.text
        closed = _closed(theirs)
    assert closed.code == 4403
    assert guest.get("/api/accounts/me").status_code == 401
    login = {"name": guest.name, "password": "correct horse"}
    assert server.client().http.post("/api/accounts/login", json=login).status_code == 401

    seat = host.table(table_id)["seats"][1]
    assert seat["person"].startswith("deleted player ")
    assert seat["bot"] == "easy"  # at once, as when a person leaves
    lines = server.client().get(f"/api/tables/{table_id}/chat").json()
    assert [(line["name"], line["text"]) for line in lines] == [(seat["person"], "hello")]
    assert host.table(hosted)["status"] == "abandoned"
    assert me(host)["muted"] == []
    # The name is free again, for anyone.
    server.client().signup(guest.name)


def test_a_guest_has_no_password_to_change_or_delete_with(server: Server):
    guest = server.client()
    reply = guest.http.post("/api/accounts/guest")
    guest.csrf = reply.json()["csrf"]
    assert guest.post("/api/accounts/me/delete", json={"password": "x"}).status_code == 409
    change = guest.http.put(
        "/api/accounts/me/password",
        json={"current": "x", "new": "long enough"},
        headers={"X-CSRF-Token": guest.csrf},
    )
    assert change.status_code == 409


def _closed(socket) -> object:
    """The close frame the server ends the socket with, after any news before it."""
    from websockets.exceptions import ConnectionClosed

    try:
        while True:
            socket.recv(timeout=15)
    except ConnectionClosed as closed:
        return closed.rcvd
