"""Server load: many live tables of scripted players on loopback, durable move log on.

    python -m bench.server_load [--tables 50] [--seconds 20] [--game topiary]
                                [--database-url URL] [--via socket|http]
                                [--processes N --redis-url URL]

Starts `meadow serve` in its own process (SQLite in a temporary directory unless a database
URL is given), signs up two players per table and seats them; each player listens on the
table's WebSocket and, whenever a message offers it moves, submits the first one with the
next move number: on the same socket (`--via socket`, the default) or as an HTTP request. A
finished table is replaced by a new one. Reports moves acknowledged per second, the server's
CPU time per move (from /proc), moves per second per core of server CPU, and the time from
submit to acknowledgement (p50, p95, p99). Setting a table up (three requests, two sockets)
is measured alone first, so that the report also splits the CPU between set-ups and moves.

With `--processes N` (N > 1, PostgreSQL and Redis needed) N servers share the database and
Redis; each table's two players talk to different processes, so every move also travels
through Redis to reach the other player. The CPU figure is then the sum over the servers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Player:
    def __init__(self, base: str, name: str) -> None:
        # Below uvicorn's 5 s keep-alive: a connection the server is closing is never reused.
        self.http = httpx.AsyncClient(
            base_url=base, timeout=30, limits=httpx.Limits(keepalive_expiry=2)
        )
        self.name = name
        self.csrf = ""

    async def sign_up(self) -> None:
        reply = await self.http.post(
            "/api/accounts/signup", json={"name": self.name, "password": "load-test-pw"}
        )
        reply.raise_for_status()
        self.csrf = reply.json()["csrf"]

    async def post(self, path: str, body: dict | None = None) -> httpx.Response:
        return await self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


async def set_up_table(host: Player, guest: Player, game: str) -> int:
    created = await host.post("/api/tables", {"game": game, "players": 2, "seats": [None, None]})
    table_id = created.json()["id"]
    await guest.post(f"/api/tables/{table_id}/join")
    await host.post(f"/api/tables/{table_id}/start")
    return table_id


async def play_tables(
    ports: list[int],
    players: list[Player],
    game: str,
    stop: float,
    latencies: list[float],
    via: str,
) -> tuple[int, int]:
    """Two players at one table after another until `stop`; returns moves acknowledged
    and tables set up."""
    host, guest = players
    acked = tables = 0
    while time.monotonic() < stop:
        table_id = await set_up_table(host, guest, game)
        tables += 1
        done = asyncio.Event()
        counts = await asyncio.gather(
            *(
                seat_loop(p, port, table_id, stop, latencies, done, via)
                for p, port in zip(players, ports, strict=True)
            )
        )
        acked += sum(counts)
    return acked, tables


async def set_up_only(ports: list[int], players: list[Player], game: str) -> None:
    """What a table costs before its first move: the three requests, and each player's
    socket opened (its first sync received) and closed."""
    host, guest = players
    table_id = await set_up_table(host, guest, game)
    for player, port in zip(players, ports, strict=True):
        url = f"ws://127.0.0.1:{port}/api/tables/{table_id}/ws"
        async with websockets.connect(url, additional_headers={"Cookie": player.cookie}) as ws:
            await ws.recv()


async def seat_loop(
    player: Player,
    port: int,
    table_id: int,
    stop: float,
    latencies: list[float],
    done: asyncio.Event,
    via: str,
) -> int:
    acked = 0
    started = 0.0
    url = f"ws://127.0.0.1:{port}/api/tables/{table_id}/ws"
    async with websockets.connect(url, additional_headers={"Cookie": player.cookie}) as ws:
        while time.monotonic() < stop and not done.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=1))
            except TimeoutError:
                continue
            if message.get("over"):
                done.set()
                break
            if message.get("kind") == "ack":
                latencies.append(time.perf_counter() - started)
                acked += 1
                continue
            if not message.get("legal"):
                continue
            body = {"move": message["move"] + 1, "action": message["legal"][0]}
            started = time.perf_counter()
            if via == "socket":
                await ws.send(json.dumps({"kind": "move", **body}))
                continue
            reply = await player.post(f"/api/tables/{table_id}/moves", body)
            if reply.status_code == 200:
                latencies.append(time.perf_counter() - started)
                acked += 1
                if reply.json().get("over"):
                    done.set()
    return acked


def start_servers(args: argparse.Namespace) -> tuple[list[subprocess.Popen], list[int]]:
    data = tempfile.mkdtemp(prefix="meadow-load-")
    env = dict(os.environ, MEADOW_DATA_DIR=data)
    if args.database_url:
        env["MEADOW_DATABASE_URL"] = args.database_url
    if args.processes > 1:
        env["MEADOW_REDIS_URL"] = args.redis_url
        env["MEADOW_CLUSTER_NAME"] = f"meadow-load-{os.getpid()}"
    ports = [free_port() for _ in range(args.processes)]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "meadow", "serve", "--port", str(port)],
            env=env,
            stdout=open(Path(data) / f"server-{port}.log", "wb"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )
        for port in ports
    ]
    for port in ports:
        for _ in range(100):
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
    return servers, ports


async def run(args: argparse.Namespace) -> None:
    if args.processes > 1 and not args.database_url:
        raise SystemExit("several processes share one database: give --database-url")
    servers, ports = start_servers(args)
    try:
        stamp = int(time.time())
        # Player i talks to process i mod N: a table's two players to different processes.
        players = [
            Player(f"http://127.0.0.1:{ports[i % len(ports)]}", f"load{stamp % 100000}-{i}")
            for i in range(2 * args.tables)
        ]
        await asyncio.gather(*(p.sign_up() for p in players))
        pairs = [
            (
                [ports[(2 * t) % len(ports)], ports[(2 * t + 1) % len(ports)]],
                players[2 * t : 2 * t + 2],
            )
            for t in range(args.tables)
        ]
        # First the cost of setting a table up alone, to tell it from the cost of moves.
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        await asyncio.gather(*(set_up_only(p, pair, args.game) for p, pair in pairs))
        set_up_cpu = (sum(cpu_seconds(server.pid) for server in servers) - cpu_before) / len(pairs)
        latencies: list[float] = []
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        own_before = time.process_time()
        started = time.monotonic()
        stop = started + args.seconds
        counts = await asyncio.gather(
            *(play_tables(p, pair, args.game, stop, latencies, args.via) for p, pair in pairs)
        )
        elapsed = time.monotonic() - started
        cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
        own = time.process_time() - own_before
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()
    moves = sum(acked for acked, _tables in counts)
    tables = sum(tables for _acked, tables in counts)
    move_cpu = cpu - tables * set_up_cpu
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    store = "PostgreSQL" if args.database_url else "SQLite (WAL, synchronous=FULL)"
    print(
        f"Python {platform.python_version()}, {args.tables} tables of {args.game}, "
        f"{args.seconds:g} s, {store}, moves via {args.via}, {args.processes} process(es)"
    )
    print(
        f"server CPU {cpu / elapsed:.2f} cores, load generator {own / elapsed:.2f} cores "
        f"(of {os.cpu_count()})"
    )
    print()
    print(
        "| moves acknowledged | moves/s | server CPU per move | moves/s per server core "
        "| p50 | p95 | p99 |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    print(
        f"| {moves:,} | {moves / elapsed:,.0f} | {cpu / moves * 1000:.2f} ms | "
        f"{moves / cpu:,.0f} | {pct(0.5):.1f} ms | {pct(0.95):.1f} ms | {pct(0.99):.1f} ms |"
    )
    print()
    print(
        f"Of that: {tables:,} tables set up ({moves / max(tables, 1):.0f} moves each), "
        f"{set_up_cpu * 1000:.1f} ms of server CPU each (measured alone first: three requests "
        f"and two sockets opened); the moves alone {move_cpu / moves * 1000:.2f} ms of "
        f"server CPU each, {moves / move_cpu:,.0f} moves/s per server core."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="topiary")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--via", choices=("socket", "http"), default="socket")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
