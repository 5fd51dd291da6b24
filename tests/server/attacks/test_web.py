"""Attacks from another site's page in a person's browser: forged requests (a guest session
swapped in, a log-in or sign-up made in the person's name), framing the game page, sniffed
content types. Browsers say where a request comes from (`Sec-Fetch-Site`, `Origin`); the
server refuses what another site sends, and tells browsers what a page may do."""

from __future__ import annotations

import secrets

import pytest

from tests.server.conftest import Server

FROM_ELSEWHERE = [
    {"Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site", "Origin": "https://games.evil.example"},
    {"Origin": "null"},  # a sandboxed frame or a file
]


@pytest.mark.parametrize("headers", FROM_ELSEWHERE, ids=lambda h: ",".join(h.values()))
def test_a_page_elsewhere_cannot_swap_a_persons_session(server: Server, headers: dict):
    person = server.client().signup(f"v-{secrets.token_hex(5)}")
    cookie = person.http.cookies.get("meadow_session")
    for path, body in [
        ("/api/accounts/guest", None),
        ("/api/accounts/signup", {"name": f"x-{secrets.token_hex(4)}", "password": "12345678"}),
        ("/api/accounts/login", {"name": person.name, "password": "correct horse"}),
        ("/api/accounts/logout", None),
        ("/api/tables", {"game": "topiary", "players": 2, "seats": [None, "easy"]}),
    ]:
        reply = person.post(path, json=body, headers=headers)
        assert reply.status_code == 403, (path, reply.text)
        assert "another site" in reply.json()["error"]
        assert "set-cookie" not in reply.headers
    assert person.http.cookies.get("meadow_session") == cookie
    assert person.get("/api/accounts/me").json()["name"] == person.name
    assert person.get("/api/tables/mine").json() == []


def test_the_sites_own_pages_are_served(server: Server):
    host = f"127.0.0.1:{server.port}"
    for headers in (
        {"Origin": f"http://{host}"},
        {"Sec-Fetch-Site": "same-origin", "Origin": f"http://{host}"},
        {},  # not a browser: no one's victim
    ):
        reply = server.client().http.post("/api/accounts/guest", headers=headers)
        assert reply.status_code == 201, (headers, reply.text)


@pytest.mark.parametrize("path", ["/", "/index.html", "/js/app.js", "/api/games", "/api/nowhere"])
def test_every_answer_tells_the_browser_what_the_page_may_do(server: Server, path: str):
    reply = server.client().get(path)
    assert reply.headers["x-frame-options"] == "DENY"
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["referrer-policy"] == "same-origin"
    policy = reply.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "strict-transport-security" not in reply.headers  # plain HTTP: the default


def test_hsts_is_sent_when_cookies_are_for_https_only(tmp_path):
    server = Server(tmp_path, None, env={"MEADOW_SECURE_COOKIES": "true"})
    server.start()
    try:
        reply = server.client().get("/api/games")
        assert reply.headers["strict-transport-security"].startswith("max-age=")
    finally:
        server.stop()
