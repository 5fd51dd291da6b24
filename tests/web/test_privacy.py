"""A private table in the browser (issue 43, item 2): a visitor who came through its
spectator link watches it, chat included, live; one who came by its number alone is told
there is no such table."""

from __future__ import annotations

from tests.server.conftest import Server
from tests.web.conftest import Player


def test_a_spectator_link_shows_a_private_table_and_its_number_alone_does_not(
    browser: object, server: Server
) -> None:
    host = server.client().signup("host-private")
    body = {"game": "topiary", "players": 2, "seats": [None, "random"], "private": True}
    table_id = host.post("/api/tables", json=body).json()["id"]
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    assert host.post(f"/api/tables/{table_id}/chat", json={"text": "psst"}).status_code == 201
    key = host.table(table_id)["spectator_key"]

    watcher, stranger = (Player(browser.new_context().new_page(), server.base) for _ in "ab")
    watcher.open(f"#/table/{table_id}?key={key}")
    watcher.page.wait_for_selector(f".table[data-table='{table_id}']")
    watcher.page.wait_for_function(
        "() => [...document.querySelectorAll('.chat-box .chat-text')]"
        ".some((n) => n.textContent === 'psst')",
        timeout=5_000,
    )
    said = host.post(f"/api/tables/{table_id}/chat", json={"text": "still there?"})
    assert said.status_code == 201
    watcher.page.wait_for_function(  # the socket, opened with the key, hears it live
        "() => [...document.querySelectorAll('.chat-box .chat-text')]"
        ".some((n) => n.textContent === 'still there?')",
        timeout=5_000,
    )

    stranger.open(f"#/table/{table_id}")
    assert f"there is no table {table_id}" in stranger.page.inner_text("#page")
    assert stranger.page.locator(".table").count() == 0
    assert not watcher.errors and not stranger.errors
