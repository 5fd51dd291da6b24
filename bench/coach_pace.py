"""Do analyses slow the bots at live tables? A bot's reply time with and without two running.

    python -m bench.coach_pace [--moves 40] [--bot hard] [--game harmonies]

A real `meadow serve` (SQLite in a temporary directory, 2 bot workers, 2 analysis workers
at the default CPU share and nice 19). A person plays `--game` against `--bot`, one random
legal move whenever it is their turn; what is timed is from the person's move being accepted
to the bot's reply being on the table (polled every 10 ms), for `--moves` replies. Then two
finished Renature games (played by a person against `random`) are sent to the coach, and
while both analyses run, the same is timed at a fresh table. Printed: median, p95 and max of
each, and the ratio of the p95s.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


class Person:
    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        name = f"pace-{secrets.token_hex(4)}"
        reply = self.http.post("/api/accounts/signup", json={"name": name, "password": "pace pace"})
        reply.raise_for_status()
        self.csrf = reply.json()["csrf"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def state(self, table_id: int) -> dict[str, Any]:
        return self.http.get(f"/api/tables/{table_id}").json()["game_state"]

    def table(self, game: str, bot: str) -> int:
        body = {"game": game, "players": 2, "seats": [None, bot]}
        table_id = self.post("/api/tables", body).json()["id"]
        self.post(f"/api/tables/{table_id}/start").raise_for_status()
        return table_id


def replies(person: Person, game: str, bot: str, count: int, rng: random.Random) -> list[float]:
    """Seconds from each of the person's accepted moves to the bot's reply."""
    timed: list[float] = []
    table_id = person.table(game, bot)
    while len(timed) < count:
        state = person.state(table_id)
        if state["over"]:
            table_id = person.table(game, bot)
            continue
        if state["to_move"] != 0:
            time.sleep(0.01)
            continue
        move = {"move": state["move"] + 1, "action": rng.choice(state["legal"])}
        person.post(f"/api/tables/{table_id}/moves", move).raise_for_status()
        sent = time.perf_counter()
        after = person.state(table_id)
        if after["over"] or after["to_move"] == 0:
            continue  # still the person's turn (a turn of several decisions): nothing to time
        while not (after["over"] or after["to_move"] == 0):
            time.sleep(0.01)
            after = person.state(table_id)
        timed.append(time.perf_counter() - sent)
    return timed


def finished(person: Person, rng: random.Random) -> int:
    table_id = person.table("renature", "random")
    while True:
        state = person.state(table_id)
        if state["over"]:
            return table_id
        if state["to_move"] != 0 or not state["legal"]:
            time.sleep(0.01)
            continue
        move = {"move": state["move"] + 1, "action": rng.choice(state["legal"])}
        person.post(f"/api/tables/{table_id}/moves", move)


def figures(name: str, seconds: list[float]) -> tuple[str, float]:
    ordered = sorted(seconds)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    row = (
        f"| {name} | {len(ordered)} | {statistics.median(ordered):.2f} | {p95:.2f} | "
        f"{ordered[-1]:.2f} |"
    )
    return row, p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--game", default="harmonies")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = Path(tempfile.mkdtemp(prefix="meadow-pace-"))
    env = dict(os.environ, MEADOW_DATA_DIR=str(data), MEADOW_BOT_WORKERS="2")
    env["MEADOW_ANALYSIS_WORKERS"] = "2"
    server = subprocess.Popen(
        [sys.executable, "-m", "meadow", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        rng = random.Random(1)
        person = Person(base)
        print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores")
        print(
            f"# python -m bench.coach_pace --moves {args.moves} --bot {args.bot} --game {args.game}"
        )
        print("| bot replies | replies | median s | p95 s | max s |")
        print("|---|---:|---:|---:|---:|")
        quiet_row, quiet = figures("alone", replies(person, args.game, args.bot, args.moves, rng))
        print(quiet_row, flush=True)
        games = [finished(person, rng) for _ in range(2)]
        for table_id in games:
            person.post(f"/api/tables/{table_id}/analysis").raise_for_status()
        busy = replies(person, args.game, args.bot, args.moves, rng)
        states = [person.http.get(f"/api/tables/{t}/analysis").json() for t in games]
        still = sum(s["status"] == "running" for s in states)
        busy_row, loaded = figures("while two analyses run", busy)
        print(busy_row)
        print(
            f"# p95 with analyses / alone: {loaded / quiet:.2f}; still running at the end: {still}"
        )
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
