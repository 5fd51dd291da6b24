"""A finished game's replay over the API, step by step."""

from __future__ import annotations

import random

from tests.server.conftest import Server
from tests.server.test_play import play_out


def test_a_replay_step_names_the_tokens_its_board_shows(server: Server):
    """Issue 43, item 6, found from outside: `GET /api/tables/{id}/replay/6` of a finished
    Harmonies game gave a refill's `tokens: []` ("Space 2 stays empty: the pouch is empty")
    beside a full space on the central board it drew."""
    me = server.client().signup("replay-watcher")
    created = me.post(
        "/api/tables", json={"game": "harmonies", "players": 2, "seats": [None, "random"]}
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert me.post(f"/api/tables/{table_id}/start").status_code == 204
    final = play_out({0: me}, table_id, random.Random(43))

    # The whole log at once (the replay page shows it up to its step): each line is what the
    # step of the same number says, seat and events.
    log = me.get(f"/api/tables/{table_id}/replay").json()["moves"]
    assert [line["number"] for line in log] == list(range(1, final["move"] + 1))

    refills, wrong = 0, []
    for number in range(1, final["move"] + 1):
        step = me.get(f"/api/tables/{table_id}/replay/{number}").json()
        assert (log[number - 1]["seat"], log[number - 1]["events"]) == (
            step["seat"],
            step["events"],
        )
        central = step["view"]["central"]
        for event in (e for e in step["events"] if e["kind"] == "refill"):
            refills += 1
            if event["tokens"] != central[event["space"] - 1]:
                wrong.append(f"step {number}: {event}, board {central}")
    assert refills > 0, "the game had no refill to check"
    assert not wrong, f"{len(wrong)} of {refills} refills disagree with the board: {wrong[:3]}"


def test_the_replay_log_is_for_finished_games_only(server: Server):
    me = server.client().signup("early-watcher")
    created = me.post(
        "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
    )
    table_id = created.json()["id"]
    assert me.post(f"/api/tables/{table_id}/start").status_code == 204
    refused = me.get(f"/api/tables/{table_id}/replay")
    assert refused.status_code == 409, refused.text
    assert "finished" in refused.json()["error"]
