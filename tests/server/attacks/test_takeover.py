"""A stolen session must not become a stolen account (issue 43, 1). With only a browser's
cookie and CSRF token, nothing that leads to the password may be done: the e-mail address
changes only with the current password, the confirmed address it replaces is told with a
link that undoes the change and ends every session, and no password reset goes to a freshly
confirmed address while the old one may still object. On a real server, SQLite and
PostgreSQL, its e-mail caught by a local SMTP sink (aiosmtpd)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import create_engine, select, update
from websockets.exceptions import ConnectionClosed

from meadow.store import Token, User
from tests.server.conftest import Client, Server, own_server, signed_in
from tests.server.test_mail import listening
from tests.server.test_people import (
    HeldSink,
    address,
    ask_reset,
    mailing_to,
    mails,
    me,
    token_in,
)
from tests.server.test_safety import socket_to

PASSWORD = "correct horse"
UNDO = "undo-address"  # the page the notice's link opens


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory, sink: HeldSink) -> Iterator[Server]:
    settings = {**mailing_to(sink), "MEADOW_MAILS_PER_ACCOUNT_PER_HOUR": "50"}
    with own_server(tmp_path_factory, request.param, **settings) as found:
        yield found


@pytest.fixture(scope="module")
def sink() -> Iterator[HeldSink]:
    with listening(HeldSink()) as found:
        yield found


def owner(server: Server) -> Client:
    return server.client().signup(f"own-{secrets.token_hex(5)}", PASSWORD)


def put_address(client: Client, email: str | None, password: str | None = None) -> httpx.Response:
    body: dict[str, object] = {"email": email}
    if password is not None:
        body["password"] = password
    return client.http.put("/api/accounts/me", json=body, headers={"X-CSRF-Token": client.csrf})


def confirm(client: Client, sink: HeldSink, email: str) -> None:
    token = token_in(mails(sink, email)[-1], "confirm")
    reply = client.post("/api/accounts/email/confirm", json={"token": token})
    assert reply.status_code == 200, reply.text


def owner_with_address(server: Server, sink: HeldSink) -> tuple[Client, str]:
    person = owner(server)
    email = address()
    assert put_address(person, email, PASSWORD).status_code == 200
    confirm(person, sink, email)
    return person, email


def undo(client: Client, token: str) -> httpx.Response:
    return client.post("/api/accounts/email/undo", json={"token": token})


def mail_thread_caught_up(server: Server, sink: HeldSink) -> None:
    """Every mail the server decided on so far has been sent: the mail thread works in
    order, so a confirmation asked for now comes after them."""
    probe = owner(server)
    email = address()
    assert put_address(probe, email, PASSWORD).status_code == 200
    mails(sink, email)


def sign_in(server: Server, name: str, password: str = PASSWORD) -> httpx.Response:
    body = {"name": name, "password": password}
    return server.client().http.post("/api/accounts/login", json=body)


def test_a_stolen_session_cannot_change_or_remove_the_address(server: Server, sink):
    alice, old = owner_with_address(server, sink)
    thief = signed_in(server, alice)  # the cookie and the CSRF token, nothing else
    theirs = address()
    for email in (theirs, None):
        missing = put_address(thief, email)
        assert missing.status_code == 403
        assert "current password" in missing.json()["error"]
        wrong = put_address(thief, email, "a guess")
        assert wrong.status_code == 403
        assert wrong.json()["error"] == "that is not your current password"
    shown = me(alice)
    assert (shown["email"], shown["email_confirmed"], shown["pending_email"]) == (old, True, None)
    # What needs no password still needs none: notices on, the address unchanged.
    assert thief.http.put(
        "/api/accounts/me",
        json={"email": old, "notify": True},
        headers={"X-CSRF-Token": thief.csrf},
    ).json()["notify"]
    mail_thread_caught_up(server, sink)
    assert sink.to(theirs) == []


def test_a_first_address_needs_the_password_too(server: Server, sink):
    """An account without an address would be taken by giving it one: it leads to a reset."""
    bob = owner(server)
    thief = signed_in(server, bob)
    assert put_address(thief, address()).status_code == 403
    assert me(bob)["pending_email"] is None


def test_guesses_through_the_address_count_as_failed_passwords(server: Server, sink):
    carol, _ = owner_with_address(server, sink)
    answers = [put_address(carol, address(), f"guess {n}").status_code for n in range(11)]
    assert answers == [403] * 10 + [429]
    # The same count as the password change's: no second oracle beside it.
    change = carol.http.put(
        "/api/accounts/me/password",
        json={"current": PASSWORD, "new": "a new battery"},
        headers={"X-CSRF-Token": carol.csrf},
    )
    assert change.status_code == 429


def test_the_old_address_can_undo_a_change_and_end_every_session(server: Server, sink):
    dave, old = owner_with_address(server, sink)
    elsewhere = sign_in(server, dave.name)
    assert elsewhere.status_code == 200
    # A reset link the owner asked for earlier stops working once the change is undone.
    assert ask_reset(server.client(), old)[0] == 202
    earlier_reset = token_in(mails(sink, old, 2)[-1], "reset")
    thief = signed_in(server, dave)  # who also has the password now
    theirs = address()
    assert put_address(thief, theirs, PASSWORD).status_code == 200
    notice = mails(sink, old, 3)[-1]
    assert notice["Subject"] == f"Your e-mail address for {dave.name} at Meadow is changing"
    assert theirs in notice.get_payload()
    link = token_in(notice, UNDO)
    confirm(thief, sink, theirs)
    assert (me(dave)["email"], me(dave)["email_confirmed"]) == (theirs, True)

    # Followed from any browser (the owner's mailbox), once.
    undone = undo(server.client(), link)
    assert undone.status_code == 200, undone.text
    assert undone.json() == {"email": old}
    for browser in (dave, thief):
        assert browser.get("/api/accounts/me").status_code == 401
    fresh = server.client()
    login = fresh.http.post("/api/accounts/login", json={"name": dave.name, "password": PASSWORD})
    assert login.status_code == 200
    shown = login.json()
    assert (shown["email"], shown["email_confirmed"], shown["pending_email"]) == (old, True, None)
    assert undo(server.client(), link).status_code == 400
    finish = {"token": earlier_reset, "password": "a new battery"}
    assert server.client().post("/api/accounts/reset/finish", json=finish).status_code == 400
    # The restored address gets a reset at once: it is the one that agreed.
    assert ask_reset(server.client(), old)[0] == 202
    assert mails(sink, old, 4)[-1]["Subject"] == f"A new password for {dave.name} at Meadow"


def test_removing_the_address_is_told_and_undone_too(server: Server, sink):
    erin, old = owner_with_address(server, sink)
    assert put_address(erin, None, PASSWORD).status_code == 200
    link = token_in(mails(sink, old, 2)[-1], UNDO)
    assert me(erin)["email"] is None
    assert undo(server.client(), link).json() == {"email": old}
    assert erin.get("/api/accounts/me").status_code == 401


def test_no_reset_goes_to_an_address_confirmed_while_the_old_one_may_object(server: Server, sink):
    frank, _ = owner_with_address(server, sink)
    theirs = address()
    assert put_address(frank, theirs, PASSWORD).status_code == 200
    confirm(frank, sink, theirs)
    known, unknown = ask_reset(server.client(), theirs), ask_reset(server.client(), address())
    assert known == unknown and known[0] == 202  # the answer says nothing
    mail_thread_caught_up(server, sink)
    assert [m["Subject"] for m in sink.to(theirs)] == [
        f"Confirm your e-mail address for {frank.name} at Meadow"
    ]


def test_a_later_change_cannot_undo_the_owner_s_undo_link(server: Server, sink):
    """A→B, then B→C: B's own undo link restores B, but A's still works afterwards, and
    the last one followed in that order wins for the owner."""
    grace, first = owner_with_address(server, sink)
    second, third = address(), address()
    assert put_address(grace, second, PASSWORD).status_code == 200
    owners_link = token_in(mails(sink, first, 2)[-1], UNDO)
    confirm(grace, sink, second)
    assert put_address(grace, third, PASSWORD).status_code == 200
    thiefs_link = token_in(mails(sink, second, 2)[-1], UNDO)
    assert undo(server.client(), thiefs_link).json() == {"email": second}
    assert undo(server.client(), owners_link).json() == {"email": first}
    login = sign_in(server, grace.name)
    assert (login.json()["email"], login.json()["email_confirmed"]) == (first, True)


def test_an_expired_undo_link_is_refused(server: Server, sink):
    heidi, old = owner_with_address(server, sink)
    theirs = address()
    assert put_address(heidi, theirs, PASSWORD).status_code == 200
    link = token_in(mails(sink, old, 2)[-1], UNDO)
    engine = create_engine(server.database_url or f"sqlite:///{server.data_dir}/meadow.sqlite3")
    with engine.begin() as connection:
        connection.execute(
            update(Token)
            .where(Token.user_id.in_(select(User.id).where(User.name == heidi.name)))
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    engine.dispose()
    refused = undo(server.client(), link)
    assert refused.status_code == 400
    assert "expired" in refused.json()["error"]
    assert heidi.get("/api/accounts/me").status_code == 200


def test_a_guest_needs_no_password_but_never_gets_a_reset(server: Server, sink):
    guest = server.client()
    guest.csrf = guest.http.post("/api/accounts/guest").json()["csrf"]
    email = address()
    assert put_address(guest, email).status_code == 200
    confirm(guest, sink, email)
    assert ask_reset(server.client(), email)[0] == 202
    mail_thread_caught_up(server, sink)
    assert len(sink.to(email)) == 1  # the confirmation alone


def test_a_socket_opened_in_a_stolen_session_ends_with_the_session(server: Server, sink):
    """A thief who opened the owner's table socket with the stolen cookie went on hearing the
    seat's hidden view after the owner ended every other session (a new password here; a
    reset or an undone address change end them the same way). The socket of the session kept
    goes on."""
    dave = owner(server)
    thief = signed_in(server, dave)
    mine = server.client()
    login = mine.http.post("/api/accounts/login", json={"name": dave.name, "password": PASSWORD})
    mine.csrf, mine.name = login.json()["csrf"], dave.name
    other = server.client().signup(f"o-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    table_id = dave.post("/api/tables", json=body).json()["id"]
    assert other.post(f"/api/tables/{table_id}/join").status_code == 200
    assert dave.post(f"/api/tables/{table_id}/start").status_code == 204
    with socket_to(server, thief, table_id) as stolen, socket_to(server, mine, table_id) as kept:
        for socket in (stolen, kept):
            assert json.loads(socket.recv(timeout=10))["kind"] == "sync"
        change = {"current": PASSWORD, "new": "a new battery staple"}
        reply = mine.http.put(
            "/api/accounts/me/password", json=change, headers={"X-CSRF-Token": mine.csrf}
        )
        assert reply.status_code == 204, reply.text
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                stolen.recv(timeout=15)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        assert "session ended" in closed.value.rcvd.reason
        assert other.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 201
        assert json.loads(kept.recv(timeout=10))["kind"] == "chat"
