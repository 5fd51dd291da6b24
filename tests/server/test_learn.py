"""Learn to play, at the server: a guided first game on its fixed deal, the guide bot playing
its written moves, the learner's written moves served to its page; left and taken up again."""

from __future__ import annotations

import secrets
import time

import pytest

from meadow import games
from meadow.core.guided import LEARNER, guided
from tests.server.conftest import Client, Server


def follow_the_script(me: Client, table_id: int, written: dict[str, str], most: int) -> dict:
    """Play the learner's written moves as the page says, up to `most` of them."""
    played = 0
    for _ in range(20_000):
        state = me.table(table_id)["game_state"]
        if state["over"] or played >= most:
            return state
        if state["to_move"] != LEARNER or not state["legal"]:
            time.sleep(0.01)
            continue
        number = state["move"] + 1
        move = written[str(number)]
        assert move in state["legal"], f"move {number}: {move} is not legal here"
        reply = me.post(f"/api/tables/{table_id}/moves", json={"move": number, "action": move})
        assert reply.status_code == 200, reply.text
        played += 1
    raise AssertionError("the guided game did not end")


@pytest.mark.parametrize("game_id", games.ids())
def test_a_guided_game_follows_its_script_to_the_written_end(server: Server, game_id: str):
    me = server.client().signup(f"learner-{secrets.token_hex(3)}")
    started = me.post(f"/api/learn/{game_id}")
    assert started.status_code == 201, started.text
    table_id = started.json()["id"]
    table = me.table(table_id)
    assert table["private"] and table["hints"] and table["seats"][1]["bot"] == "guide"
    written = me.get(f"/api/learn/{game_id}").json()
    assert written["notes"]["1"][0] == "learn.start"
    final = follow_the_script(me, table_id, written["moves"], 10_000)
    script = guided(game_id)
    record = me.get(f"/api/tables/{table_id}/record").json()
    assert record["actions"] == list(script.moves)  # the guide played every written move
    assert final["result"]["ranking"][0] == [LEARNER]  # a first game that ends well


def test_a_guided_game_left_is_taken_up_again(server: Server):
    me = server.client().signup(f"returner-{secrets.token_hex(3)}")
    first = me.post("/api/learn/topiary").json()
    written = me.get("/api/learn/topiary").json()["moves"]
    follow_the_script(me, first["id"], written, 3)
    again = me.post("/api/learn/topiary").json()
    assert again == {"id": first["id"], "resumed": True}
    assert me.post("/api/learn/no-such-game").status_code == 404
    assert server.client().post("/api/learn/topiary").status_code == 401
