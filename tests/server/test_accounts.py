"""Accounts: sign-up, log-in (failures limited), guests, log-out, and the session cookie."""

from __future__ import annotations

import sqlite3

import pytest

from tests.server.conftest import Server, own_server


def test_sign_up_log_out_and_log_in_again(server: Server):
    me = server.client().signup("returning-person", "a long password")
    cookie = me.http.cookies.get("meadow_session")
    assert cookie
    assert me.get("/api/accounts/me").json()["name"] == "returning-person"
    assert me.post("/api/accounts/logout").status_code == 204
    assert me.get("/api/accounts/me").status_code == 401
    again = server.client()
    wrong = again.http.post(
        "/api/accounts/login", json={"name": "returning-person", "password": "wrong one"}
    )
    assert wrong.status_code == 401 and wrong.json()["error"] == "wrong name or password"
    right = again.http.post(
        "/api/accounts/login", json={"name": "returning-person", "password": "a long password"}
    )
    assert right.status_code == 200 and right.json()["csrf"]


def test_the_session_cookie_is_http_only_and_same_site(server: Server):
    reply = server.client().http.post(
        "/api/accounts/signup", json={"name": "cookie-person", "password": "long enough"}
    )
    header = reply.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "meadow_session=" in header


def test_sign_up_refuses_taken_names_short_passwords_and_odd_names(server: Server):
    server.client().signup("only-once")
    for body, words in [
        ({"name": "only-once", "password": "long enough"}, "taken"),
        ({"name": "short-pass", "password": "short"}, "at least 8"),
        ({"name": "no spaces!", "password": "long enough"}, "letters, digits"),
    ]:
        reply = server.client().http.post("/api/accounts/signup", json=body)
        # The schema says what it takes (422 otherwise); a taken name is 409.
        assert reply.status_code in (409, 422) and words in reply.json()["error"]


def test_an_e_mail_address_with_a_control_character_is_refused(server: Server):
    # Found by schemathesis on PostgreSQL, which cannot store a NUL in text: it was a 500.
    client = server.client().signup("controlled")
    for email in ["a\x00@example.org", "a@example.org\x00", "a\x07@example.org"]:
        reply = client.http.put(
            "/api/accounts/me",
            json={"email": email, "notify": True},
            headers={"X-CSRF-Token": client.csrf},
        )
        assert reply.status_code == 422 and "email" in reply.json()["error"]
    assert client.http.get("/api/accounts/me").json()["email"] is None


def test_log_in_is_limited_per_name_from_one_address(server: Server):
    server.client().signup("hammered", "the real password")
    client = server.client().http
    codes = [
        client.post(
            "/api/accounts/login", json={"name": "hammered", "password": f"guess {i}"}
        ).status_code
        for i in range(12)
    ]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
    late = client.post(
        "/api/accounts/login", json={"name": "hammered", "password": "the real password"}
    )
    assert late.status_code == 429 and int(late.headers["retry-after"]) > 0
    assert late.json()["error"].startswith("too many failed log-ins for this name")


def test_a_guest_can_play_without_an_account(server: Server):
    guest = server.client()
    reply = guest.http.post("/api/accounts/guest")
    assert reply.status_code == 201 and reply.json()["guest"] is True
    guest.csrf = reply.json()["csrf"]
    created = guest.post(
        "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
    )
    assert created.status_code == 201


def _stored_hash(server: Server, name: str) -> str:
    with sqlite3.connect(server.data_dir / "meadow.sqlite3") as db:
        (found,) = db.execute("SELECT password_hash FROM users WHERE name = ?", (name,)).fetchone()
    return found


def test_passwords_are_hashed_at_the_cost_set_and_older_hashes_still_work(
    tmp_path_factory: pytest.TempPathFactory,
):
    """The default cost is argon2id with 64 MiB and three passes (the suite runs its other
    servers at OWASP's least, tests/conftest.py); a hash made at one cost is checked after
    the host changes it."""
    default = {"MEADOW_PASSWORD_HASH_MEMORY_KIB": "65536", "MEADOW_PASSWORD_HASH_ROUNDS": "3"}
    with own_server(tmp_path_factory, "sqlite", **default) as server:
        server.client().signup("costly-hash", "a long password")
        assert "$argon2id$v=19$m=65536,t=3," in _stored_hash(server, "costly-hash")
        server.env.update(MEADOW_PASSWORD_HASH_MEMORY_KIB="19456", MEADOW_PASSWORD_HASH_ROUNDS="2")
        server.stop()
        server.start()
        server.client().signup("cheaper-hash", "a long password")
        assert "$argon2id$v=19$m=19456,t=2," in _stored_hash(server, "cheaper-hash")
        again = server.client().http.post(
            "/api/accounts/login", json={"name": "costly-hash", "password": "a long password"}
        )
        assert again.status_code == 200
