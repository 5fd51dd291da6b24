"""The server's own cost of a move, without the web: `Tables.play` on many tables at once.

    python -m bench.server_moves [--tables 50] [--seconds 10] [--game topiary]

One process, SQLite in a temporary directory with the durable move log on (the same group
writer as `meadow serve`), the event loop on uvloop as in the server. Each table has two
listeners, one per seat, as two sockets would; a coroutine per table plays the first legal
move of whoever is to move, as the mover's listener, and empties both listeners' queues.
Tables are set up before the clock starts. What is measured is everything the server does
for a move but read a frame and write one: checking and applying it, the log line and its
commit, each seat's news built and encoded. Set beside `bench.server_load` (the same moves
through uvicorn, Starlette and real sockets), it tells how a move's CPU divides between
Meadow's code and the web stack under it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import platform
import tempfile
import time
from pathlib import Path

import uvloop

from meadow import games
from meadow.server.live import Listener
from meadow.server.tables import Tables
from meadow.store import Database, User


def set_up(hub: Tables, host: User, guest: User, game: str, count: int) -> list[int]:
    tables = []
    for _ in range(count):
        table_id = hub.create(host, game, 2, {}, [None, None], "live")
        hub.join(table_id, guest)
        hub.start(table_id, host)
        tables.append(table_id)
    return tables


async def play(hub: Tables, tables: list[int], stop: float) -> int:
    """Play `tables` one after another until `stop`; returns the moves played."""
    moves = 0
    while tables and time.monotonic() < stop:
        live = hub.get(tables.pop())
        seats = [Listener(user) for user, _bot in live.seats]
        for listener in seats:
            hub.subscribe(live, listener)
        while live.state is not None and not live.state.is_over and time.monotonic() < stop:
            seat = live.state.to_move
            assert seat is not None
            action = str(live.state.legal_actions()[0])
            await hub.play(live, seat, live.moves_made + 1, action, seats[seat])
            for listener in seats:
                while not listener.queue.empty():
                    listener.queue.get_nowait()
            moves += 1
        for listener in seats:
            hub.unsubscribe(live, listener)
    return moves


async def run(args: argparse.Namespace) -> None:
    games.get(args.game)  # an unknown game stops here, with its reason
    db = Database(f"sqlite:///{Path(tempfile.mkdtemp(prefix='meadow-moves-')) / 'm.db'}")
    db.migrate()
    hub = Tables(db)
    try:
        with db.write() as s:
            host = User(name="host", password_hash="x")
            guest = User(name="guest", password_hash="x")
            s.add_all([host, guest])
            s.commit()
        # Enough for the run at about 10,000 moves a second, Topiary's 42 moves a game.
        per_table = int(args.seconds * 10_000 / 42 / args.tables) + 2
        ready = [set_up(hub, host, guest, args.game, per_table) for _ in range(args.tables)]
        gc.freeze()  # as the server does once it has started (meadow/server/main.py)
        gc.set_threshold(20_000, 20, 20)
        cpu, started = time.process_time(), time.monotonic()
        stop = started + args.seconds
        counts = await asyncio.gather(*(play(hub, tables, stop) for tables in ready))
        cpu, elapsed = time.process_time() - cpu, time.monotonic() - started
    finally:
        hub.close()
        db.dispose()
    moves = sum(counts)
    print(
        f"Python {platform.python_version()}, {args.tables} tables of {args.game}, "
        f"{args.seconds:g} s, SQLite (WAL, synchronous=FULL), no sockets"
    )
    print()
    print("| moves | moves/s | CPU per move | moves/s per core |")
    print("|---:|---:|---:|---:|")
    print(
        f"| {moves:,} | {moves / elapsed:,.0f} | {cpu / moves * 1e6:.0f} µs | {moves / cpu:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--game", default="topiary")
    uvloop.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
