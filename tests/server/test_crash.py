"""SIGKILL the server in the middle of a burst of moves: every acknowledged move survives
the restart, and the games carry on."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx

from tests.server.conftest import Client, Server
from tests.server.test_safety import engine_state, new_table, play_first_moves


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


def bot_workers(pid: int) -> list[int]:
    """The processes `pid` started to think for bots."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_acknowledged_moves_survive_a_sigkill_and_play_goes_on(server: Server):
    tables = [new_table(server, "harmonies") for _ in range(3)]
    with_bot, person, _ = new_table(server, "topiary", bot="random")
    while person.table(with_bot)["game_state"]["to_move"] == 0:
        play_first_moves(with_bot, {0: person}, 1)  # to the bot's turn: its worker starts
    acked: dict[int, list] = {table_id: [] for table_id, _, _ in tables}
    stop = threading.Event()
    workers = [
        threading.Thread(target=burst, args=(server, t, {0: a, 1: b}, acked[t], stop))
        for t, a, b in tables
    ]
    for worker in workers:
        worker.start()
    time.sleep(1.5)
    workers_before = bot_workers(server.process.pid)
    server.kill()
    stop.set()
    for worker in workers:
        worker.join(timeout=30)
    assert all(acked.values()), "every table had moves acknowledged before the kill"
    # The bot workers of the killed server do not outlive it.
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers_before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert workers_before and not any(alive(pid) for pid in workers_before)

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
