"""Memory per open table and per open socket in one server process.

    python -m bench.server_footprint [--tables 1000] [--moves 20] [--games topiary,...]
    python -m bench.server_footprint --sockets 500

Tables (the default): each game in a fresh process of its own (memory a game's tables freed
would otherwise be reused by the next game's, and hide them), one after another. There,
with the server's own code (`Tables`, SQLite in a temporary directory, the durable move log
on), five tables are set up and played first (the game's modules and caches loaded), then
`--tables` tables of two players are created, joined and started, as the lobby does; then
`--moves` moves (the first legal one, all tables at once) are played at each. The process's
resident memory (VmRSS from /proc/self/status) is read after a garbage collection before
the tables, after their start and after the moves; the report gives the growth per table.

Sockets (`--sockets N`): starts `meadow serve` in its own process (SQLite), sets up one
running table of two players, opens a few sockets on it as visitors (not signed in) to warm
up, reads the server's resident memory, opens N more, waits for the server to settle, and
reads it again: the growth per socket. Kernel buffers of the sockets are not in that figure.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop
import websockets

from bench.server_moves import set_up
from meadow import games
from meadow.server.live import Listener
from meadow.server.tables import Tables
from meadow.store import Database, User

GAMES = ("topiary", "harmonies", "renature", "mystic_vale")


def resident_kb(pid: int | str = "self") -> int:
    """Resident memory of a process (VmRSS), in KB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc")


def settled_kb() -> int:
    gc.collect()
    return resident_kb()


async def play(hub: Tables, table_id: int, moves: int) -> int:
    """Play up to `moves` first legal moves at a table; returns how many were played."""
    live = hub.get(table_id)
    seats = [Listener(user) for user, _bot in live.seats]
    played = 0
    while played < moves and live.state is not None and not live.state.is_over:
        seat = live.state.to_move
        assert seat is not None
        action = str(live.state.legal_actions()[0])
        await hub.play(live, seat, live.moves_made + 1, action, seats[seat])
        played += 1
    return played


def measure_tables(args: argparse.Namespace) -> list[dict[str, float]]:
    """Each game in a process of its own (`--one`)."""
    rows = []
    for game in args.games:
        command = [sys.executable, "-m", "bench.server_footprint", "--one", "--games", game]
        command += ["--tables", str(args.tables), "--moves", str(args.moves)]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout.splitlines()[-1]))
    return rows


async def measure_game(args: argparse.Namespace) -> list[dict[str, float]]:
    folder = Path(tempfile.mkdtemp(prefix="meadow-footprint-"))
    db = Database(f"sqlite:///{folder / 'f.db'}")
    db.migrate()
    hub = Tables(db)
    rows = []
    try:
        with db.write() as s:
            host = User(name="host", password_hash="x")
            guest = User(name="guest", password_hash="x")
            s.add_all([host, guest])
            s.commit()
        for game in args.games:  # warm-up: modules, caches, the pools' first connections
            games.get(game)
            for table_id in set_up(hub, host, guest, game, 5):
                await play(hub, table_id, args.moves)
        for game in args.games:
            before = settled_kb()
            tables = set_up(hub, host, guest, game, args.tables)
            started = settled_kb()
            played = await asyncio.gather(*(play(hub, t, args.moves) for t in tables))
            after = settled_kb()
            rows.append(
                {
                    "game": game,
                    "started": (started - before) / args.tables,
                    "moves": sum(played) / args.tables,
                    "after": (after - before) / args.tables,
                    "total_mb": after / 1024,
                }
            )
    finally:
        hub.close()
        db.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    return rows


def report_tables(args: argparse.Namespace, rows: list[dict[str, float]]) -> None:
    print(
        f"Python {platform.python_version()}, {args.tables} tables of 2 players per game, "
        f"a process per game, SQLite; resident memory (VmRSS) after gc.collect()"
    )
    print()
    print(
        "| game | KB per table, started | moves per table | KB per table, after them "
        "| KB per move | process at the end |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        per_move = (row["after"] - row["started"]) / row["moves"] if row["moves"] else 0.0
        print(
            f"| {row['game']} | {row['started']:.1f} | {row['moves']:.0f} | {row['after']:.1f} "
            f"| {per_move:.2f} | {row['total_mb']:.1f} MB |"
        )


async def measure_sockets(count: int) -> tuple[float, int, int]:
    """Returns KB per socket, the server's KB before the sockets and after them."""
    from bench.server_load import Player, Route, set_up_table, start_servers

    options = argparse.Namespace(database_url=None, processes=1, redis_url=None)
    servers, ports = start_servers(options)
    server, port = servers[0], ports[0]
    environ = Path(f"/proc/{server.pid}/environ").read_bytes().split(b"\0")
    data = next(e[16:].decode() for e in environ if e.startswith(b"MEADOW_DATA_DIR="))
    base = f"http://127.0.0.1:{port}"
    sockets: list[websockets.ClientConnection] = []
    try:
        host, guest = Player(base, "footprint-host"), Player(base, "footprint-guest")
        await host.sign_up()
        await guest.sign_up()
        table_id = await set_up_table([host, guest], "topiary", Route(ports, "none"), [port, port])
        url = f"ws://127.0.0.1:{port}/api/tables/{table_id}/ws"

        async def open_one() -> None:
            ws = await websockets.connect(url, max_size=None)
            await ws.recv()  # the sync: the server's work for this socket is done
            sockets.append(ws)

        for _ in range(20):
            await open_one()
        await asyncio.sleep(1)
        before = resident_kb(server.pid)
        for _ in range(count):
            await open_one()
        await asyncio.sleep(2)
        after = resident_kb(server.pid)
        await host.http.aclose()
        await guest.http.aclose()
    finally:
        await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        for process in servers:
            process.terminate()
            process.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)
    return (after - before) / count, before, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables per game")
    parser.add_argument("--moves", type=int, default=20, help="moves played at each table")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated")
    parser.add_argument("--sockets", type=int, default=0, help="measure sockets instead")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.games = [g for g in args.games.split(",") if g]
    started = time.perf_counter()
    if args.one:  # a child of `measure_tables`: its row, as JSON, on the last line
        print(json.dumps(uvloop.run(measure_game(args))[0]))
        return
    if args.sockets:
        per, before, after = uvloop.run(measure_sockets(args.sockets))
        print(
            f"Python {sys.version.split()[0]}, one `meadow serve` (SQLite), "
            f"{args.sockets} visitors' sockets on one running table"
        )
        print()
        print(
            f"server: {before / 1024:.1f} MB before, {after / 1024:.1f} MB after: "
            f"{per:.1f} KB per socket"
        )
    else:
        report_tables(args, measure_tables(args))
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
