"""Issue 25, 10: nothing the server serves loads from another site (a CDN's page is blank
offline), and its refusals of unknown paths and methods use Meadow's body form."""

from __future__ import annotations

import re

import httpx

from tests.server.conftest import Server


def test_no_page_loads_from_a_cdn(server: Server):
    for path in ("/docs", "/redoc"):
        reply = httpx.get(server.base + path)
        assert reply.status_code == 404
        assert "cdn" not in reply.text.lower()
    page = httpx.get(server.base + "/")
    assert page.status_code == 200
    assert not re.search(r"""(src|href)=["']https?://""", page.text)
    assert "paths" in httpx.get(server.base + "/openapi.json").json()


def test_unknown_paths_and_methods_answer_with_error(server: Server):
    missing = httpx.get(server.base + "/api/no-such-route")
    assert missing.status_code == 404 and set(missing.json()) == {"error"}
    wrong = httpx.delete(server.base + "/api/games")
    assert wrong.status_code == 405 and set(wrong.json()) == {"error"}
