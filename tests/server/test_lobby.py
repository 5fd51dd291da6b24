"""The lobby's list of open tables: only tables a person can still join."""

from __future__ import annotations

import secrets

from tests.server.conftest import Server


def test_a_full_table_leaves_the_open_list_and_comes_back_when_a_seat_frees(server: Server):
    host = server.client().signup(f"l-{secrets.token_hex(5)}")
    guest = server.client().signup(f"g-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    table_id = host.post("/api/tables", json=body).json()["id"]

    def listed() -> bool:
        return table_id in [table["id"] for table in guest.get("/api/tables").json()]

    assert listed()
    assert guest.post(f"/api/tables/{table_id}/join").status_code == 200
    assert not listed()  # issue 20: it stayed, and its Join button failed
    assert guest.post(f"/api/tables/{table_id}/leave").status_code == 204
    assert listed()


def test_games_in_play_are_listed_to_watch_unless_private(server: Server):
    """Issue 20, 8: the lobby lists running tables for anyone to watch; a private table is
    listed nowhere (its invitation still leads to it)."""
    host = server.client().signup(f"w-{secrets.token_hex(5)}")
    visitor = server.client()
    tables = {}
    for private in (False, True):
        body = {"game": "topiary", "players": 2, "seats": [None, None], "private": private}
        tables[private] = host.post("/api/tables", json=body).json()
    open_ids = [t["id"] for t in visitor.get("/api/tables").json()]
    assert tables[False]["id"] in open_ids and tables[True]["id"] not in open_ids
    for created in tables.values():
        joiner = server.client().signup(f"j-{secrets.token_hex(5)}")
        assert joiner.post(f"/api/invites/{created['invite']}/join").status_code == 200
        assert host.post(f"/api/tables/{created['id']}/start").status_code == 204
    watched = [t["id"] for t in visitor.get("/api/tables/running").json()]
    assert tables[False]["id"] in watched and tables[True]["id"] not in watched
    # Not listed, and its number alone leads nowhere: its invitation does (issue 43).
    invite = tables[True]["invite"]
    assert visitor.get(f"/api/invites/{invite}").json()["private"] is True
    assert visitor.get(f"/api/tables/{tables[True]['id']}").status_code == 404
    keyed = visitor.get(f"/api/tables/{tables[True]['id']}", headers={"X-Meadow-Key": invite})
    assert keyed.status_code == 200
