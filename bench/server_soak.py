"""Memory soak: one guest plays whole games against a bot over HTTP, one after another, and
the server's memory is read after each.

    python -m bench.server_soak [--games 120] [--warm 20] [--game mystic_vale]
                                [--bot easy] [--database-url URL]

Starts `meadow serve` in its own process (SQLite in a temporary directory unless a database
URL is given). The guest creates a table with the bot in the other seat, starts it, and plays
a random legal move (seeded) whenever it is its turn (asking the table's page between moves,
as a browser that polls would), until the game ends (always its first move could loop
forever: in Mystic Vale, a push on every turn against a bot that passes); then it opens
the finished table's page and its replay, and starts the next. The server's resident
memory (VmRSS from /proc) is read after each game; the report gives it after the `--warm`
first games (caches filled, the interpreter's arenas grown) and at the end, and the growth
per game in between.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

import httpx

from bench.server_load import start_servers


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Guest:
    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        reply = self.http.post("/api/accounts/guest")
        reply.raise_for_status()
        self.csrf = reply.json()["csrf"]

    def post(self, path: str, body: dict | None = None) -> httpx.Response:
        reply = self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})
        if reply.status_code >= 400 and reply.status_code != 409:
            raise RuntimeError(f"{path}: {reply.status_code} {reply.text}")
        return reply

    def play_one(self, game: str, bot: str, rng: random.Random) -> int:
        """A whole game against the bot; returns the moves the guest made."""
        created = self.post("/api/tables", {"game": game, "players": 2, "seats": [None, bot]})
        table_id = created.json()["id"]
        self.post(f"/api/tables/{table_id}/start")
        made = 0
        while True:
            state = self.http.get(f"/api/tables/{table_id}").json()["game_state"]
            if state["over"]:
                break
            if not state.get("legal"):
                time.sleep(0.005)  # the bot's turn
                continue
            body = {"move": state["move"] + 1, "action": rng.choice(state["legal"])}
            if self.post(f"/api/tables/{table_id}/moves", body).status_code == 200:
                made += 1
        self.http.get(f"/api/tables/{table_id}").raise_for_status()  # the page, once over
        self.http.get(f"/api/tables/{table_id}/replay/1").raise_for_status()
        return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--warm", type=int, default=20)
    parser.add_argument("--game", default="mystic_vale")
    parser.add_argument("--bot", default="easy")
    parser.add_argument("--database-url")
    parser.add_argument("--seed", type=int, default=1, help="the guest's choices")
    args = parser.parse_args()
    args.processes, args.redis_url = 1, None
    servers, ports = start_servers(args)
    pid = servers[0].pid
    try:
        guest = Guest(f"http://127.0.0.1:{ports[0]}")
        print(f"{platform.processor() or platform.machine()}, Python {sys.version.split()[0]}")
        print(f"server at start: {resident_mb(pid):.1f} MB")
        sizes, moves, started, rng = [], 0, time.perf_counter(), random.Random(args.seed)
        for game in range(1, args.games + 1):
            moves += guest.play_one(args.game, args.bot, rng)
            sizes.append(resident_mb(pid))
            if game % 10 == 0:
                print(f"after {game} games: {sizes[-1]:.1f} MB", flush=True)
        warm = sizes[args.warm - 1]
        grown = sizes[-1] - warm
        later = args.games - args.warm
        print(
            f"{args.games} games of {args.game} against {args.bot} ({moves} moves by the "
            f"guest, {time.perf_counter() - started:.0f} s): {warm:.1f} MB after {args.warm}, "
            f"{sizes[-1]:.1f} MB after {args.games}: {grown:+.1f} MB over {later} games "
            f"({grown / later * 1024:+.0f} KB a game)"
        )
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
