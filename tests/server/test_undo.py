"""Undo: within your own turn, back over moves that revealed nothing and used no chance,
never over another seat's move; an undo is a line of the append-only log and survives a
restart."""

from __future__ import annotations

import json

from tests.server.conftest import Server
from tests.server.test_safety import engine_state, new_table, socket_to


def play(client, table_id: int, action: str | None = None) -> dict:
    state = client.table(table_id)["game_state"]
    choice = action or state["legal"][0]
    reply = client.post(
        f"/api/tables/{table_id}/moves", json={"move": state["move"] + 1, "action": choice}
    )
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_placing_a_token_can_be_taken_back_but_not_by_the_other_seat(server: Server):
    table_id, host, other = new_table(server, "harmonies")
    take = next(a for a in host.table(table_id)["game_state"]["legal"] if a.startswith("take"))
    play(host, table_id, take)
    before = host.table(table_id)["game_state"]
    placed = play(host, table_id, next(a for a in before["legal"] if a.startswith("place")))
    assert not any(e["reveals"] for e in placed["events"])

    refused = other.post(f"/api/tables/{table_id}/undo", json={"move": 3})
    assert refused.status_code == 403 and "your own turn" in refused.json()["error"]
    stale = host.post(f"/api/tables/{table_id}/undo", json={"move": 2})
    assert stale.status_code == 409

    undone = host.post(f"/api/tables/{table_id}/undo", json={"move": 3})
    assert undone.status_code == 200, undone.text
    assert undone.json()["kind"] == "undo" and undone.json()["undoes"] == 2
    after = host.table(table_id)["game_state"]
    assert after["view"] == before["view"] and after["legal"] == before["legal"]
    assert after["move"] == 3  # the undo is a numbered line of the log
    with socket_to(server, host, table_id) as ws:
        log = json.loads(ws.recv(timeout=10))["moves"]
    assert [line.get("undoes") for line in log] == [None, None, 2]
    assert log[1]["action"] == placed["action"]
    assert engine_state(server, table_id).actions == [take, placed["action"], "#undo"]

    server.kill()
    server.start()
    assert host.table(table_id)["game_state"]["view"] == before["view"]
    play(host, table_id)  # and play goes on from there


def test_a_move_that_revealed_something_stands(server: Server):
    table_id, host, _ = new_table(server, "renature")
    placed = play(
        host,
        table_id,
        next(a for a in host.table(table_id)["game_state"]["legal"] if a.startswith("D")),
    )
    assert any(e["reveals"] for e in placed["events"])
    assert host.table(table_id)["game_state"]["to_move"] == 0  # a plant may follow
    refused = host.post(f"/api/tables/{table_id}/undo", json={"move": 2})
    assert refused.status_code == 403
    assert "revealed something or used chance" in refused.json()["error"]
