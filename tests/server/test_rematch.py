"""The end of a game (issue 20, 9): each seat's rating before and after, and a rematch with
the same people, options, clocks and bots. On a real server, SQLite and PostgreSQL, and the
offer across two processes."""

from __future__ import annotations

import json
import random
import secrets

from meadow.server.ratings import START, updated
from tests.server.conftest import Client, Server, at_once
from tests.server.test_play import play_out
from tests.server.test_safety import socket_to


def finished_game(
    server: Server, seats: list[str | None], private: bool = False
) -> tuple[int, Client, Client]:
    """A Topiary game between two new people (seats 0 and 1) and the bots of `seats`, played
    to its end; `private`: at a private table (the guest comes by its invitation)."""
    host = server.client().signup(f"r-{secrets.token_hex(5)}")
    guest = server.client().signup(f"s-{secrets.token_hex(5)}")
    body = {
        "game": "topiary",
        "players": len(seats),
        "seats": seats,
        "options": {"one_tile_diagonals": False},
        "move_seconds": 600,
        "takeover_bot": "greedy",
        "private": private,
    }
    created = host.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    invite = created.json()["invite"]
    assert guest.post(f"/api/invites/{invite}/join").status_code == 200
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    play_out({0: host, 1: guest}, table_id, random.Random(table_id))
    return table_id, host, guest


def test_each_seat_shows_its_rating_before_and_after_the_game(server: Server):
    table_id, host, _guest = finished_game(server, [None, None, "random"])
    info = host.table(table_id)
    ranking = info["game_state"]["result"]["ranking"]
    before = [seat["rating"]["before"] for seat in info["seats"]]
    after = [seat["rating"]["after"] for seat in info["seats"]]
    assert before[:2] == [START, START]  # new people; the random bot may have played before
    assert after == updated(before, ranking)
    # And they are the ratings the ratings page now shows for the people.
    people = {p["name"]: p["rating"] for p in host.get("/api/ratings/topiary").json()["people"]}
    assert [people[info["seats"][n]["person"]] for n in (0, 1)] == after[:2]


def test_a_rematch_keeps_each_persons_seat_and_the_options(server: Server):
    table_id, host, guest = finished_game(server, [None, None, "random"])
    old = host.table(table_id)
    asked = guest.post(f"/api/tables/{table_id}/rematch")  # the guest asks first
    assert asked.status_code == 200, asked.text
    new_id, guest_seat = asked.json()["id"], asked.json()["seat"]
    assert guest_seat == 1
    new = guest.table(new_id)
    assert (new["game"], new["options"], new["players"], new["mode"], new["private"]) == (
        old["game"],
        old["options"],
        old["players"],
        old["mode"],
        old["private"],  # issue 47: a public game's rematch was private, never watched
    )
    assert old["private"] is False
    assert new["clock"]["move_seconds"] == 600
    assert [(s["person"], s["bot"], s["kept_for"]) for s in new["seats"]] == [
        (None, None, host.name),
        (guest.name, None, None),
        (None, "random", None),
    ]
    assert host.table(table_id)["rematch"] == new_id
    # Nobody else may take the kept seat, by the table's number or by its invitation, and
    # the lobby's list of open tables does not offer it.
    stranger = server.client().signup(f"x-{secrets.token_hex(5)}")
    refused = stranger.post(f"/api/tables/{new_id}/join")
    assert refused.status_code == 409 and "kept for the last game's players" in refused.text
    assert new_id not in [t["id"] for t in stranger.get("/api/tables").json()]
    invite = guest.table(new_id)["invite"]
    taken = stranger.post(f"/api/invites/{invite}/join")
    assert taken.status_code == 409 and "kept for the last game's players" in taken.text
    assert stranger.post(f"/api/tables/{table_id}/rematch").status_code == 403
    # The host accepts by asking too: the same rematch, at the seat kept for them.
    accepted = host.post(f"/api/tables/{table_id}/rematch")
    assert accepted.json() == {"id": new_id, "seat": 0}
    assert guest.post(f"/api/tables/{table_id}/rematch").json() == {"id": new_id, "seat": 1}
    assert guest.post(f"/api/tables/{new_id}/start").status_code == 204
    assert host.table(new_id)["status"] == "running"
    # Each seat's present rating, as the ratings page has it, for the player panels.
    rated = {p["name"]: p["rating"] for p in host.get("/api/ratings/topiary").json()["people"]}
    seats = host.table(new_id)["seats"]
    assert [seat["rated"] for seat in seats[:2]] == [rated[host.name], rated[guest.name]]
    bots = {b["bot"]: b["rating"] for b in host.get("/api/ratings/topiary").json()["bots"]}
    assert seats[2]["rated"] == bots["random"]
    # Started, it is one of the games anyone may watch, as the game before was.
    assert new_id in [t["id"] for t in stranger.get("/api/tables/running").json()]


def test_a_private_games_rematch_is_private(server: Server):
    host = server.client().signup(f"p-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, "random"], "private": True}
    table_id = host.post("/api/tables", json=body).json()["id"]
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    play_out({0: host}, table_id, random.Random(table_id))
    new_id = host.post(f"/api/tables/{table_id}/rematch").json()["id"]
    assert host.table(new_id)["private"] is True
    stranger = server.client().signup(f"y-{secrets.token_hex(5)}")
    # A private table, to a stranger, is none at all (tests/server/attacks/test_privacy.py).
    assert stranger.post(f"/api/tables/{new_id}/join").status_code == 404


def test_two_players_asking_at_once_make_one_rematch(server: Server):
    table_id, host, guest = finished_game(server, [None, None])
    answers = at_once(
        [lambda: host.post(f"/api/tables/{table_id}/rematch")] * 1
        + [lambda: guest.post(f"/api/tables/{table_id}/rematch")]
    )
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    seats = host.table(answers[0].json()["id"])["seats"]
    assert sorted(s["person"] for s in seats) == sorted([host.name, guest.name])


def test_a_rematch_is_only_for_a_finished_game(server: Server):
    host = server.client().signup(f"n-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, "random"]}
    table_id = host.post("/api/tables", json=body).json()["id"]
    refused = host.post(f"/api/tables/{table_id}/rematch")
    assert refused.status_code == 409 and "follows a finished game" in refused.text


def test_the_offer_reaches_the_old_tables_sockets_on_the_other_process(
    pair: tuple[Server, Server],
):
    a, b = pair
    table_id, host, guest = finished_game(a, [None, None])
    on_b = b.client()
    on_b.http.cookies = guest.http.cookies
    with socket_to(b, on_b, table_id) as socket:
        assert json.loads(socket.recv(timeout=15))["kind"] == "sync"
        new_id = host.post(f"/api/tables/{table_id}/rematch").json()["id"]
        heard = json.loads(socket.recv(timeout=15))
        assert heard["kind"] == "sync" and heard["status"] == "finished"
    assert on_b.get(f"/api/tables/{table_id}").json()["rematch"] == new_id
