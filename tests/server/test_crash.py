"""SIGKILL the server in the middle of a burst of moves: every acknowledged move survives
the restart, and the games carry on."""

from __future__ import annotations

import threading
import time

import httpx

from tests.server.conftest import Client, Server
from tests.server.test_safety import engine_state, new_table


def burst(
    server: Server, table_id: int, seats: dict[int, Client], acked: list, stop: threading.Event
) -> None:
    """Play random-free (first legal) moves as fast as the server takes them."""
    try:
        while not stop.is_set():
            state = seats[0].table(table_id)["game_state"]
            if state.get("over"):
                return
            mover = seats[state["to_move"]]
            mine = mover.table(table_id)["game_state"]
            body = {"move": mine["move"] + 1, "action": mine["legal"][0]}
            reply = mover.post(f"/api/tables/{table_id}/moves", json=body)
            if reply.status_code == 200:
                acked.append((body["move"], body["action"]))
    except httpx.HTTPError:
        return  # the server is gone


def test_acknowledged_moves_survive_a_sigkill_and_play_goes_on(server: Server):
    tables = [new_table(server, "harmonies") for _ in range(3)]
    acked: dict[int, list] = {table_id: [] for table_id, _, _ in tables}
    stop = threading.Event()
    workers = [
        threading.Thread(target=burst, args=(server, t, {0: a, 1: b}, acked[t], stop))
        for t, a, b in tables
    ]
    for worker in workers:
        worker.start()
    time.sleep(1.5)
    server.kill()
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    assert all(acked.values()), "every table had moves acknowledged before the kill"

    server.start()
    for table_id, host, other in tables:
        truth = engine_state(server, table_id)
        for number, action in acked[table_id]:
            assert truth.actions[number - 1] == action
        info = host.table(table_id)
        assert info["moves_made"] == len(truth.actions) >= len(acked[table_id])
        mover = host if info["game_state"]["to_move"] == 0 else other
        mine = mover.table(table_id)["game_state"]
        reply = mover.post(
            f"/api/tables/{table_id}/moves",
            json={"move": mine["move"] + 1, "action": mine["legal"][0]},
        )
        assert reply.status_code == 200, reply.text
