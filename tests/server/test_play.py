"""Whole games over the API, for every registered game, against a bot at the table."""

from __future__ import annotations

import json
import random
import time
from datetime import datetime, timedelta

import pytest

from meadow import games
from meadow.core.record import GameRecord
from meadow.server.ratings import updated
from tests.server.conftest import Client, Server


def play_out(people: dict[int, Client], table_id: int, rng: random.Random) -> dict:
    """Each person plays a random legal move whenever it is their turn, until the end."""
    watcher = next(iter(people.values()))
    for _ in range(20_000):
        state = watcher.table(table_id)["game_state"]
        if state.get("over"):
            return state
        seat = state["to_move"]
        if seat not in people:
            continue  # the bot is thinking
        mine = people[seat].table(table_id)["game_state"]
        if mine["move"] != state["move"] or not mine["legal"]:
            continue
        choice = rng.choice(mine["legal"])
        reply = people[seat].post(
            f"/api/tables/{table_id}/moves", json={"move": mine["move"] + 1, "action": choice}
        )
        assert reply.status_code == 200, reply.text
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_id", games.ids())
def test_a_whole_game_with_a_bot_then_its_record_replays(server: Server, game_id: str):
    game = games.get(game_id)
    players = 3 if 3 in game.player_counts else game.max_players
    host = server.client().signup(f"host-{game_id[:8]}")
    guest = server.client().signup(f"joiner-{game_id[:8]}")  # guest- is for guests
    seats = [None, None] + ["random"] * (players - 2)
    created = host.post("/api/tables", json={"game": game_id, "players": players, "seats": seats})
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert guest.post(f"/api/tables/{table_id}/join").json() == {"seat": 1}
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204

    final = play_out({0: host, 1: guest}, table_id, random.Random(game_id))

    record = GameRecord.from_json(host.get(f"/api/tables/{table_id}/record").json())
    replayed = record.replay()
    assert replayed.is_over
    assert list(replayed.result().scores) == final["result"]["scores"]
    assert len(record.actions) == final["move"]

    last = host.get(f"/api/tables/{table_id}/replay/{final['move']}").json()
    assert last["view"] == json.loads(json.dumps(replayed.view(None)))
    assert last["action"] == record.actions[-1]
    start = host.get(f"/api/tables/{table_id}/replay/0").json()
    assert start["view"] == json.loads(json.dumps(record.initial_state().view(None)))
    assert host.get(f"/api/tables/{table_id}/replay/{final['move'] + 1}").status_code == 404


def wait_for_turn(client: Client, table_id: int) -> dict:
    for _ in range(500):
        state = client.table(table_id)["game_state"]
        if state["legal"]:
            return state
        time.sleep(0.02)
    raise AssertionError("the bot never moved")


def test_your_turn_list_puts_the_longest_wait_first(server: Server):
    me = server.client().signup("waiting-person")
    ids = []
    for _ in range(2):
        created = me.post(
            "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
        )
        ids.append(created.json()["id"])
        me.post(f"/api/tables/{ids[-1]}/start")
    assert [t["id"] for t in me.get("/api/turns").json()] == ids
    state = wait_for_turn(me, ids[0])
    me.post(
        f"/api/tables/{ids[0]}/moves", json={"move": state["move"] + 1, "action": state["legal"][0]}
    )
    wait_for_turn(me, ids[0])
    assert [t["id"] for t in me.get("/api/turns").json()] == [ids[1], ids[0]]
    assert server.client().get("/api/turns").status_code == 401


def bot_rating(client: Client, game: str, bot: str) -> float:
    board = client.get(f"/api/ratings/{game}").json()
    return next((b["rating"] for b in board["bots"] if b["bot"] == bot), 1500.0)


def test_a_finished_game_rates_people_and_bots_apart(server: Server):
    """Elo after one game, from the ratings before it (the bot may have played before)."""
    me = server.client().signup("rated-person")
    bot_before = bot_rating(me, "topiary", "random")
    created = me.post(
        "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
    )
    table_id = created.json()["id"]
    me.post(f"/api/tables/{table_id}/start")
    final = play_out({0: me}, table_id, random.Random(5))
    expected = updated([1500.0, bot_before], final["result"]["ranking"])
    board = me.get("/api/ratings/topiary").json()
    person = next(p for p in board["people"] if p["name"] == "rated-person")
    assert person == {"name": "rated-person", "rating": expected[0], "games": 1}
    assert bot_rating(me, "topiary", "random") == round(expected[1], 1)
    assert expected[0] != 1500.0 or final["result"]["ranking"] == [[0, 1]]


def test_an_invitation_link_leads_to_the_table_and_seats_the_guest(server: Server):
    host = server.client().signup("inviting-host")
    created = host.post(
        "/api/tables", json={"game": "harmonies", "players": 2, "seats": [None, None]}
    )
    code = created.json()["invite"]
    friend = server.client().signup("invited-friend")
    assert friend.get(f"/api/invites/{code}").json()["id"] == created.json()["id"]
    assert friend.post(f"/api/invites/{code}/join").json() == {"seat": 1}
    assert friend.get("/api/invites/not-a-code").status_code == 404
    seats = host.table(created.json()["id"])["seats"]
    assert [s["person"] for s in seats] == ["inviting-host", "invited-friend"]


def test_times_carry_their_zone(server: Server):
    """A browser in another time zone must read the server's times as UTC."""
    me = server.client().signup(f"zoned-{server.port}")
    created = me.post("/api/tables", json={"game": "topiary", "players": 2, "seats": [None, None]})
    since = me.table(created.json()["id"])["clock"]["turn_since"]
    assert datetime.fromisoformat(since).utcoffset() == timedelta(0)
