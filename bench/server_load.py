"""Server load: many live tables of scripted players on loopback, durable move log on.

    python -m bench.server_load [--tables 50] [--seconds 20] [--game topiary]
                                [--database-url URL] [--via socket|http] [--ahead N]
                                [--processes N --redis-url URL]
                                [--affinity none|table|first] [--open N] [--think MS]

Starts `meadow serve` in its own process (SQLite in a temporary directory unless a database
URL is given) and signs up two players per table. Before the clock starts, each pair of
players sets up as many tables as the run is expected to need (create, join, start: three
requests) and opens both sockets on each; the server's CPU for that is measured and reported
per table. Then each pair plays its tables one after the other: each player, whenever a
message offers it moves, submits the first one with the next move number, on the same
socket (`--via socket`, the default) or as an HTTP request. A pair that runs out of tables
sets up more during the run (`--ahead 1`: every table after the first, as a busy lobby
would); the report then also gives the moves' CPU without those set-ups.

Reports moves acknowledged per second, the server's CPU time per move (from /proc), moves
per second per core of server CPU, and the time from sending a move to its acknowledgement
(p50, p95, p99), each move timed from its own send, and the bytes a socket received a move
(every message during the run, over both players' sockets and the moves). A move sent on
the socket is answered by its own news marked `ack` (or, where that news went out first, by
an `ack` message).

With `--processes N` (N > 1, PostgreSQL and Redis needed) N servers share the database and
Redis. `--affinity` says which process a table's players talk to: `none` (the default), each
to a different one, so every move also travels through Redis to reach the other player;
`table`, both to process `table id mod N`, as nginx's `hash $meadow_table consistent` routes
a table's requests and socket (docs/deploy.md), the process that starts the table hosting
it; `first`, every table to the first process, so the others only listen to the news
(their CPU per move is that of a process that only listens). Tables are created through the
host's own process (`POST /api/tables` names no table), joined and started through the
table's. The CPU figure is the sum over the servers; each server's share is shown too.

`--think MS`: each player waits MS milliseconds before each move, as a person thinks. Without
it every table always has a move on its way, so the server is saturated and the latency is
mostly the queue (with T tables the mean is about T over the moves per second); with it, the
load is what T tables of players who think MS milliseconds offer, and the latency is that of
a server at that load.

`--open N` sets up N more tables before anything else, started and left running with no
socket open (as turn-based games waiting for a move): the servers then hold that many open
tables while the others are played.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson
import uvloop
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


class Route:
    """Which process a table's seat talks to (`--affinity`)."""

    def __init__(self, ports: list[int], affinity: str) -> None:
        self.ports = ports
        self.affinity = affinity

    def port(self, table_id: int, seat_ports: list[int], seat: int) -> int:
        if self.affinity == "table":
            return self.ports[table_id % len(self.ports)]
        if self.affinity == "first":
            return self.ports[0]
        return seat_ports[seat]

    def url(self, table_id: int, seat_ports: list[int], seat: int, path: str) -> str:
        return f"http://127.0.0.1:{self.port(table_id, seat_ports, seat)}{path}"


async def set_up_table(
    players: list[Player], game: str, route: Route, seat_ports: list[int]
) -> int:
    host, guest = players
    created = await host.post("/api/tables", {"game": game, "players": 2, "seats": [None, None]})
    table_id = created.json()["id"]
    joined = await guest.post(route.url(table_id, seat_ports, 1, f"/api/tables/{table_id}/join"))
    joined.raise_for_status()
    started = await host.post(route.url(table_id, seat_ports, 0, f"/api/tables/{table_id}/start"))
    started.raise_for_status()
    return table_id


class Ready:
    """A table set up and started, both players' sockets open, their first message read."""

    def __init__(self, table_id: int, sockets: list, first: list[str]) -> None:
        self.table_id = table_id
        self.sockets = sockets
        self.first = first

    async def close(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.sockets))


async def prepare(ports: list[int], players: list[Player], game: str, route: Route) -> Ready:
    """Set a table up (three requests) and open both players' sockets on it."""
    table_id = await set_up_table(players, game, route, ports)
    sockets = [
        await websockets.connect(
            f"ws://127.0.0.1:{route.port(table_id, ports, seat)}/api/tables/{table_id}/ws",
            additional_headers={"Cookie": player.cookie},
        )
        for seat, player in enumerate(players)
    ]
    first = [await ws.recv() for ws in sockets]  # the sync: the server's work is done
    return Ready(table_id, sockets, first)


async def open_more(
    pairs: list[tuple[list[int], list[Player]]], game: str, route: Route, count: int
) -> None:
    """`count` tables set up and started over the pairs of players, no socket opened."""

    async def some(ports: list[int], players: list[Player], many: int) -> None:
        for _ in range(many):
            await set_up_table(players, game, route, ports)

    share, extra = divmod(count, len(pairs))
    await asyncio.gather(*(some(p, pair, share + (k < extra)) for k, (p, pair) in enumerate(pairs)))


async def prepare_many(
    ports: list[int], players: list[Player], game: str, count: int, route: Route
) -> list[Ready]:
    return [await prepare(ports, players, game, route) for _ in range(count)]


@dataclass
class Wire:
    """What the players' sockets received during the run (every message, whole)."""

    bytes: int = 0


async def play_tables(
    ports: list[int],
    players: list[Player],
    game: str,
    ready: list[Ready],
    stop: float,
    latencies: list[float],
    wire: Wire,
    via: str,
    route: Route,
    think: float,
) -> tuple[int, int, int]:
    """Two players at one table after another until `stop`: the tables of `ready` first,
    then tables set up as they are needed. Returns moves acknowledged, tables played and
    tables set up while playing."""
    acked = played = set_up = 0
    while time.monotonic() < stop:
        if ready:
            table = ready.pop(0)
        else:
            table = await prepare(ports, players, game, route)
            set_up += 1
        played += 1
        done = asyncio.Event()
        counts = await asyncio.gather(
            *(
                seat_loop(p, ws, first, url, stop, latencies, wire, done, via, think)
                for p, ws, first, url in zip(
                    players,
                    table.sockets,
                    table.first,
                    [
                        route.url(
                            table.table_id, ports, seat, f"/api/tables/{table.table_id}/moves"
                        )
                        for seat in range(len(players))
                    ],
                    strict=True,
                )
            )
        )
        await table.close()
        acked += sum(counts)
    return acked, played, set_up


async def seat_loop(
    player: Player,
    ws: websockets.ClientConnection,
    first: str,
    moves_url: str,
    stop: float,
    latencies: list[float],
    wire: Wire,
    done: asyncio.Event,
    via: str,
    think: float,
) -> int:
    acked = 0
    # By move number: a seat whose turn goes on sends its next move on the news of its
    # last one, before that one's ack arrives.
    sent: dict[int, float] = {}
    text: str | bytes | None = first
    while time.monotonic() < stop and not done.is_set():
        if text is None:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1)
            except TimeoutError:
                continue
            wire.bytes += len(text)
        message, text = orjson.loads(text), None
        if message.get("kind") == "ack":  # an answer apart from the move's news
            latencies.append(time.perf_counter() - sent.pop(message["move"]))
            acked += 1
            continue
        if message.get("ack"):  # the move's news is its answer
            latencies.append(time.perf_counter() - sent.pop(message["number"]))
            acked += 1
        if message.get("over"):
            done.set()
            break
        if not message.get("legal"):
            continue
        body = {"move": message["move"] + 1, "action": message["legal"][0]}
        if think:
            await asyncio.sleep(think)
        started = time.perf_counter()
        if via == "socket":
            sent[body["move"]] = started
            await ws.send(orjson.dumps({"kind": "move", **body}).decode())
            continue
        reply = await player.post(moves_url, body)
        if reply.status_code == 200:
            latencies.append(time.perf_counter() - started)
            acked += 1
            if reply.json().get("over"):
                done.set()
    return acked


def start_servers(args: argparse.Namespace) -> tuple[list[subprocess.Popen], list[int]]:
    data = tempfile.mkdtemp(prefix="meadow-load-")
    env = dict(os.environ, MEADOW_DATA_DIR=data)
    # Every player signs up, and every table is made, from this one address, all at once:
    # the limits per address (and the hashing queue) are for people, not for this.
    env.update(
        MEADOW_SIGNUPS_PER_ADDRESS_PER_HOUR="100000",
        MEADOW_TABLES_PER_ADDRESS_PER_HOUR="1000000",
        MEADOW_PASSWORD_HASHING_QUEUE="100000",
        # Every socket comes from this address too (server_footprint opens 1,000), and a
        # player holds the sockets of every table set up for it before the clock starts.
        MEADOW_SOCKETS_PER_ADDRESS="1000000",
        MEADOW_SOCKETS_PER_PERSON="1000000",
    )
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
    route = Route(ports, args.affinity)
    try:
        stamp = int(time.time())
        # Player i talks to process i mod N: a table's two players to different processes.
        players = [
            Player(f"http://127.0.0.1:{ports[i % len(ports)]}", f"load{stamp % 100000}-{i}")
            for i in range(2 * args.tables)
        ]
        # A few sign-ups at a time: each hashes a password (argon2, some 50 ms of a core),
        # and hundreds at once would wait past the client's timeout on a busy machine.
        hashing = asyncio.Semaphore(8)

        async def sign_up(player: Player) -> None:
            async with hashing:
                await player.sign_up()

        await asyncio.gather(*(sign_up(p) for p in players))
        pairs = [
            (
                [ports[(2 * t) % len(ports)], ports[(2 * t + 1) % len(ports)]],
                players[2 * t : 2 * t + 2],
            )
            for t in range(args.tables)
        ]
        if args.open:
            await open_more(pairs, args.game, route, args.open)
            print(f"{args.open:,} more tables open, no socket", file=sys.stderr, flush=True)
        # The tables are set up before the clock starts (as many as the run is expected to
        # need: about 80 games a second in all, 3,400 moves of Topiary), so that the run
        # measures moves; their cost is measured here, apart.
        ahead = args.ahead
        if ahead is None and args.think:  # a table's game lasts some 41 moves of `--think`
            ahead = math.ceil(args.seconds / (41 * args.think / 1000)) + 2
        elif ahead is None:
            ahead = math.ceil(args.seconds * 80 / args.tables) + 2
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        ready = await asyncio.gather(
            *(prepare_many(p, pair, args.game, max(ahead, 1), route) for p, pair in pairs)
        )
        prepared = sum(len(r) for r in ready)
        set_up_cpu = (sum(cpu_seconds(server.pid) for server in servers) - cpu_before) / prepared
        print(
            f"{prepared} tables set up; playing for {args.seconds:g} s", file=sys.stderr, flush=True
        )
        latencies: list[float] = []
        wire = Wire()
        each_before = [cpu_seconds(server.pid) for server in servers]
        cpu_before = sum(each_before)
        own_before = time.process_time()
        started = time.monotonic()
        stop = started + args.seconds
        counts = await asyncio.gather(
            *(
                play_tables(
                    p,
                    pair,
                    args.game,
                    r,
                    stop,
                    latencies,
                    wire,
                    args.via,
                    route,
                    args.think / 1000,
                )
                for (p, pair), r in zip(pairs, ready, strict=True)
            )
        )
        elapsed = time.monotonic() - started
        each = [cpu_seconds(s.pid) - b for s, b in zip(servers, each_before, strict=True)]
        cpu = sum(each)
        own = time.process_time() - own_before
        await asyncio.gather(*(table.close() for r in ready for table in r))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()
    moves = sum(acked for acked, _played, _set_up in counts)
    played = sum(played for _acked, played, _set_up in counts)
    set_up = sum(set_up for _acked, _played, set_up in counts)
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    store = "PostgreSQL" if args.database_url else "SQLite (WAL, synchronous=FULL)"
    print(
        f"Python {platform.python_version()}, {args.tables} tables of {args.game}, "
        f"{args.seconds:g} s, {store}, moves via {args.via}, {args.processes} process(es)"
        + (f", affinity {args.affinity}" if args.processes > 1 else "")
        + (f", {args.think:g} ms to think before each move" if args.think else "")
    )
    print(
        f"server CPU {cpu / elapsed:.2f} cores, load generator {own / elapsed:.2f} cores "
        f"(of {os.cpu_count()})"
    )
    print()
    print(
        "| moves acknowledged | moves/s | server CPU per move | moves/s per server core "
        "| p50 | p95 | p99 | bytes a move a socket |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    # Both players' sockets get every move's news (the first message of each socket, the
    # whole view, was received before the clock started).
    print(
        f"| {moves:,} | {moves / elapsed:,.0f} | {cpu / moves * 1000:.2f} ms | "
        f"{moves / cpu:,.0f} | {pct(0.5):.1f} ms | {pct(0.95):.1f} ms | {pct(0.99):.1f} ms | "
        f"{wire.bytes / (2 * moves):,.0f} |"
    )
    if len(each) > 1:
        shares = ", ".join(
            f"{port}: {seconds / elapsed:.2f} cores, {seconds / moves * 1000:.2f} ms per move"
            for port, seconds in zip(ports, each, strict=True)
        )
        print()
        print(f"Each server's CPU (per move of the whole run): {shares}.")
    print()
    if args.open:
        print(f"{args.open:,} more tables were running on the servers throughout (no socket).")
    print(
        f"{played:,} tables played ({moves / max(played, 1):.0f} moves each). Setting a table "
        f"up (three requests, two sockets opened and synced) cost {set_up_cpu * 1000:.1f} ms "
        f"of server CPU, measured on the {prepared:,} set up before the run."
    )
    if set_up:
        move_cpu = cpu - set_up * set_up_cpu
        print(
            f"{set_up:,} tables were set up during the run; without them the moves cost "
            f"{move_cpu / moves * 1000:.2f} ms of server CPU each, "
            f"{moves / move_cpu:,.0f} moves/s per server core."
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--game", default="topiary")
    parser.add_argument("--database-url", default=None)
    parser.add_argument(
        "--ahead",
        type=int,
        default=None,
        help="tables each pair of players sets up before the run (default: enough for it; "
        "1: every later table is set up during the run, as a lobby would)",
    )
    parser.add_argument("--via", choices=("socket", "http"), default="socket")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="milliseconds each player waits before each move (0: none, the server saturated)",
    )
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--open", type=int, default=0, help="more tables left running, no socket (see above)"
    )
    parser.add_argument(
        "--affinity",
        choices=("none", "table", "first"),
        default="none",
        help="which process a table's players talk to (see above)",
    )
    # The load generator shares the machine with the server: it keeps its own work small.
    uvloop.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
