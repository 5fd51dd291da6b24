"""The people one has played with (issue 47: no way to find a person again after a game): the
profile lists them, and a new table may keep a seat for one of them, which then is among
their tables. Only someone one finished a game with: a stranger's name is refused as an
unknown one is."""

from __future__ import annotations

import secrets

from tests.server.conftest import Server
from tests.server.test_rematch import finished_game


def test_the_people_played_with_and_a_seat_kept_for_one_of_them(server: Server):
    table_id, host, guest = finished_game(server, [None, None, "random"])
    listed = host.get("/api/accounts/me/played-with")
    assert listed.status_code == 200, listed.text
    assert listed.json() == [
        {"name": guest.name, "games": 1, "last_table": table_id, "last_game": "topiary"}
    ]
    assert [p["name"] for p in guest.get("/api/accounts/me/played-with").json()] == [host.name]

    body = {"game": "harmonies", "players": 2, "seats": [None, None]}
    created = host.post("/api/tables", json={**body, "keep_seat_for": guest.name})
    assert created.status_code == 201, created.text
    new_id = created.json()["id"]
    assert [s["kept_for"] for s in host.table(new_id)["seats"]] == [None, guest.name]
    # The guest finds it among their tables, and takes the seat kept for them; nobody else may.
    assert new_id in [t["id"] for t in guest.get("/api/tables/mine").json()]
    stranger = server.client().signup(f"z-{secrets.token_hex(5)}")
    refused = stranger.post(f"/api/tables/{new_id}/join")
    assert refused.status_code == 409 and "kept" in refused.text
    assert new_id not in [t["id"] for t in stranger.get("/api/tables").json()]
    assert guest.post(f"/api/tables/{new_id}/join").json()["seat"] == 1


def test_a_seat_is_kept_only_for_someone_played_with_and_where_there_is_one(server: Server):
    _, host, guest = finished_game(server, [None, None, "random"])
    stranger = server.client().signup(f"w-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    for name in (stranger.name, "nobody-at-all", host.name):
        refused = host.post("/api/tables", json={**body, "keep_seat_for": name})
        assert refused.status_code == 404, refused.text
        assert "nobody of that name has finished a game with you" in refused.text
    full = host.post(
        "/api/tables", json={**body, "seats": [None, "random"], "keep_seat_for": guest.name}
    )
    assert full.status_code == 400 and "no seat for a person" in full.text
    # Nothing was half made: the host hosts no table from these.
    mine = host.get("/api/tables/mine").json()
    assert [t["status"] for t in mine] == ["finished"]
    assert stranger.get("/api/accounts/me/played-with").json() == []
