"""Figures for the capacity plan (docs/deploy.md): the database's side of a move, what a
process pays for news of tables it does not hold, and how often a population of tables moves.

    python -m bench.server_capacity writes --database-url URL [--seconds 20] [--batch 1]
                                           [--tables 1000]
    python -m bench.server_capacity news [--held 1000,10000,100000] [--redis-url URL]
    python -m bench.server_capacity population [--tables 10000] [--minutes 60] [--live 0.3]

`writes`. URL: a fresh database (the schema is made by the server's migrations), e.g.
`postgresql+psycopg2://postgres@127.0.0.1:5432/meadow_writes`; without it, SQLite in a
temporary directory. `--tables` running tables of two seats are set up, then for `--seconds`
one connection writes lines of their move logs with the server's own statements
(`meadow.server.movelog.write_lines`: the guarded update of the table's row, the log line,
the seat's clock), `--batch` lines of different tables to a transaction, as the group
writer does (1: a move alone, as on a quiet site; up to 64 under load). Actions are short
strings, as the games' notations are (5-13 characters on average). Reports transactions
(commits) and lines per second, and on PostgreSQL the WAL written per line
(`pg_current_wal_lsn` before and after: other databases of the same server writing meanwhile
would be counted too) and the move log's size per row (`pg_relation_size` of the table and
of its indexes, after a VACUUM ANALYZE).

`news`. A process hears the news of the tables it holds or hosts, each table on a Redis
channel of its own. This times, in one process, the server's own handling of one message
(`cluster._news_of`, then `Tables.follow` for a table not held, the case that costs least
and shows whether the lookup grows with the map) with `--held` tables in the process's map
(stand-ins with an id: `follow` only reads that). Redis and redis-py's own reading of the
message are not included; with `--redis-url` they are timed apart (20,000 messages
published on a channel of this run's own, then read), and so is Redis's side: a PUBLISH on
a table's channel that no process hears (the usual case with the proxy's table affinity:
the table's only holder is the process that moved), in Redis's own CPU (INFO's
used_cpu_user and used_cpu_sys, so a Redis busy with others meanwhile counts them too);
`--held` channels subscribed by one connection (Redis's memory per channel, and its CPU
per SUBSCRIBE of 1,000 channels); and the once-a-minute recount at `--held` running tables:
the claim script over every running table's number (run twice: first on an empty hash,
then again, as every later recount), and HKEYS of the hosts hash.

`population`. A model of real play, every number in it an assumption (`LIVE_THINK`,
`TURN_DELAY_H`, `PER_SITTING`, `--live`) but the decisions per game of two players, measured
by `python -m bench.engine --seconds 1` (2026-11-24). `--tables` tables are open at every
moment, a share `--live` of them live, the rest turn-based, the four games alike. At a live
table each decision takes a thinking time drawn from a log-normal distribution (median
`LIVE_THINK` of the game, sigma 1: a long tail of slow moves). At a turn-based table the
player to move comes back after an exponential delay (mean `TURN_DELAY_H` hours) and makes
`PER_SITTING` decisions of the game then, a few seconds apart. Each table starts at a random
point of its game; a table whose game ends is replaced by a new one (a set-up). Simulated
over `--minutes`: moves per table per minute for each game and mode, set-ups per second,
the busiest second against the mean, and the moves a table holds in memory on average.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import os
import platform
import random
import shutil
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import Engine, text

from meadow.server import cluster
from meadow.server.movelog import Line, write_lines
from meadow.server.tables import Tables
from meadow.store import Database, Seat, Table, User

ACTIONS = ("place 3 c4 b", "take 2", "tile 14 r2", "buy 3")


def set_up(db: Database, count: int) -> list[int]:
    with db.write() as s:
        host = User(name="writer", password_hash="x")
        s.add(host)
        s.flush()
        tables = []
        for number in range(count):
            table = Table(
                game="topiary",
                options={},
                players=2,
                seed=str(number),
                mode="live",
                status="running",
                invite=f"writes-{number}",
                host_id=host.id,
            )
            table.seats.extend([Seat(number=0, user_id=host.id), Seat(number=1)])
            s.add(table)
            tables.append(table)
        s.commit()
        return [table.id for table in tables]


def lines_of(tables: list[int], batch: int) -> itertools.cycle[list[int]]:
    """Batches of `batch` different tables, round and round."""
    assert batch <= len(tables)
    return itertools.cycle(
        [tables[i : i + batch] for i in range(0, len(tables) - batch + 1, batch)]
    )


def measure_writes(args: argparse.Namespace) -> dict[str, float]:
    folder = None if args.database_url else Path(tempfile.mkdtemp(prefix="meadow-writes-"))
    url = args.database_url or f"sqlite:///{folder / 'w.db'}"
    db = Database(url)
    db.migrate()
    engine = db.write_engine
    postgres = engine.dialect.name == "postgresql"
    try:
        tables = set_up(db, args.tables)
        made = dict.fromkeys(tables, 0)
        batches = lines_of(tables, args.batch)
        wal = lsn_now(engine) if postgres else None
        commits = lines = 0
        cpu = time.process_time()
        started = time.perf_counter()
        stop = started + args.seconds
        with engine.connect() as connection:
            while time.perf_counter() < stop:
                batch = []
                now = datetime.now(UTC)
                for table_id in sorted(next(batches)):
                    made[table_id] += 1
                    number = made[table_id]
                    values = {
                        "p_table": table_id,
                        "p_before": number - 1,
                        "p_number": number,
                        "p_seat": number % 2,
                        "p_action": ACTIONS[number % len(ACTIONS)],
                        "p_note": None,
                        "p_now": now,
                        "p_used": number * 1000,
                        "p_status": "running",
                    }
                    batch.append(Line(table_id, values))
                with connection.begin():
                    write_lines(connection, batch)
                commits += 1
                lines += len(batch)
        elapsed = time.perf_counter() - started
        cpu = time.process_time() - cpu
        figures = {
            "commits": commits / elapsed,
            "lines": lines / elapsed,
            "total": lines,
            "cpu": cpu / elapsed,
        }
        if postgres:
            assert wal is not None
            with engine.connect() as connection:
                figures["wal"] = (
                    connection.execute(
                        text("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), :lsn)"), {"lsn": wal}
                    ).scalar_one()
                    / lines
                )
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
                c.execute(text("VACUUM ANALYZE moves"))
                heap, indexes, rows = c.execute(
                    text(
                        "SELECT pg_relation_size('moves'), pg_indexes_size('moves'), "
                        "count(*) FROM moves"
                    )
                ).one()
            figures["heap"] = heap / rows
            figures["indexes"] = indexes / rows
        return figures
    finally:
        db.dispose()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def lsn_now(engine: Engine) -> str:
    with engine.connect() as connection:
        return str(connection.execute(text("SELECT pg_current_wal_lsn()")).scalar_one())


def writes(args: argparse.Namespace) -> None:
    figures = measure_writes(args)
    store = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"Python {platform.python_version()}, {store}, one connection, {args.batch} line(s) "
        f"per commit, {args.seconds:g} s, {int(figures['total']):,} lines"
    )
    print()
    print(f"commits/s: {figures['commits']:,.0f}")
    print(f"lines (moves)/s: {figures['lines']:,.0f}")
    print(f"this process's CPU: {figures['cpu']:.0%} of one core")
    if "wal" in figures:
        print(f"WAL per line: {figures['wal']:,.0f} bytes")
        print(
            f"move log per row: {figures['heap']:.0f} bytes of table, "
            f"{figures['indexes']:.0f} bytes of indexes"
        )


def news(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="meadow-news-"))
    db = Database(f"sqlite:///{folder / 'n.db'}")
    db.migrate()
    # A process of a cluster: the news is of a table it neither holds nor hosts.
    hub = Tables(db, bot_workers=1, cluster=SimpleNamespace(hosts=lambda table_id: False))  # type: ignore[arg-type]
    try:
        print(f"Python {platform.python_version()}, news of a table not held, per message")
        print()
        print("| tables held | µs per message | messages/s on one core |")
        print("|---:|---:|---:|")
        for held in args.held:
            hub.live.clear()
            for number in range(held):
                hub.live[number] = SimpleNamespace(id=number)  # type: ignore[assignment]
            message = f"{held + 1} line host:1:ab {time.time():.6f}".encode()
            count = max(200, 2_000_000 // held)
            started = time.perf_counter()
            for _ in range(count):
                table_id, kind, _sender, _sent = cluster._news_of(message)
                hub.follow(table_id, kind)
            each = (time.perf_counter() - started) / count
            print(f"| {held:,} | {each * 1e6:,.1f} | {1 / each:,.0f} |")
    finally:
        hub.live.clear()
        hub.close()
        db.dispose()
        shutil.rmtree(folder, ignore_errors=True)
    if args.redis_url:
        on_redis(args)


def on_redis(args: argparse.Namespace) -> None:
    """redis-py's reading of one news message, and the once-a-minute recount's Redis side
    (the claim script over every running table, then HKEYS of the hosts hash), on keys of
    this run's own (deleted after)."""
    import redis

    client = redis.Redis.from_url(args.redis_url)
    prefix = f"meadow-capacity-{os.getpid()}"
    channel, hosts = f"{prefix}:news", f"{prefix}:hosts"
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    count = 20_000
    try:
        while pubsub.get_message(timeout=1.0) is not None:
            pass  # the subscription's own answer
        pipe = client.pipeline(transaction=False)
        for number in range(count):
            pipe.publish(channel, f"{number} line host:1:ab {time.time():.6f}")
        pipe.execute()
        got, started = 0, time.process_time()
        while got < count:
            if pubsub.get_message(timeout=1.0) is None:
                break
            got += 1
        each = (time.process_time() - started) / max(1, got)
        print()
        print(f"redis-py reading a news message: {each * 1e6:.1f} µs of CPU ({got:,} read)")
        unheard_publishes(client, prefix)
        channels_heard(client, prefix, args.held)
        print()
        print("| running tables | claim script (first) | claim script (again) | HKEYS |")
        print("|---:|---:|---:|---:|")
        claim = client.register_script(cluster._CLAIM)
        for held in args.held:
            client.delete(hosts)
            ids = [str(n) for n in range(held)]
            times = []
            for _ in range(2):
                started = time.perf_counter()
                claim(keys=[hosts], args=["me", *ids])
                times.append(time.perf_counter() - started)
            started = time.perf_counter()
            client.hkeys(hosts)
            times.append(time.perf_counter() - started)
            print(f"| {held:,} | " + " | ".join(f"{t * 1e3:,.0f} ms" for t in times) + " |")
    finally:
        pubsub.close()
        client.delete(hosts)
        client.close()


def redis_cpu(client: object) -> float:
    """Seconds of CPU the Redis server has used so far."""
    cpu = client.info("cpu")  # type: ignore[attr-defined]
    return float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])


def unheard_publishes(client: object, prefix: str, count: int = 100_000) -> None:
    """A move's news on its table's channel, which no process hears: Redis's CPU each
    (pipelined 100 at a time, as a busy process's publishing thread would not be, so that
    the client's round trips do not hide Redis's own cost), and a round trip each."""
    message = f"1 line host:1:ab {time.time():.6f}"
    before = redis_cpu(client)
    for start in range(0, count, 100):
        pipe = client.pipeline(transaction=False)  # type: ignore[attr-defined]
        for number in range(start, start + 100):
            pipe.publish(f"{prefix}:table:{number}", message)
        pipe.execute()
    each = (redis_cpu(client) - before) / count
    trips = 2000
    started = time.perf_counter()
    for number in range(trips):
        client.publish(f"{prefix}:table:{number}", message)  # type: ignore[attr-defined]
    trip = (time.perf_counter() - started) / trips
    print(
        f"PUBLISH on a table's channel nobody hears: {each * 1e6:.1f} µs of Redis's CPU "
        f"({count:,} pipelined); {trip * 1e6:.0f} µs a round trip from here"
    )


def channels_heard(client: object, prefix: str, counts: list[int]) -> None:
    """Redis's memory and CPU for the channels of the tables a process holds."""
    print()
    print("| channels heard (one connection) | Redis memory each | Redis CPU per 1,000 |")
    print("|---:|---:|---:|")
    for count in counts:
        pubsub = client.pubsub()  # type: ignore[attr-defined]
        memory = int(client.info("memory")["used_memory"])  # type: ignore[attr-defined]
        cpu = redis_cpu(client)
        for start in range(0, count, 1000):
            pubsub.subscribe(
                *[f"{prefix}:table:{n}" for n in range(start, min(count, start + 1000))]
            )
        heard = 0
        while heard < count and pubsub.get_message(timeout=5.0) is not None:
            heard += 1  # each channel's confirmation, read so that all are counted in
        used = redis_cpu(client) - cpu
        grown = int(client.info("memory")["used_memory"]) - memory  # type: ignore[attr-defined]
        pubsub.close()
        print(f"| {count:,} | {grown / count:,.0f} bytes | {used / count * 1e6:,.0f} ms |")


# Decisions per game of two players, random play (`python -m bench.engine --seconds 1`,
# 2026-11-24, this repository). Measured.
DECISIONS = {"topiary": 45.9, "harmonies": 89.4, "renature": 93.3, "mystic_vale": 306.1}
# Assumptions, not measurements: the median thinking time of a decision at a live table
# (seconds; Mystic Vale's decisions are many and small, 3.5 legal actions on average), ...
LIVE_THINK = {"topiary": 8.0, "harmonies": 6.0, "renature": 8.0, "mystic_vale": 4.0}
# ... the mean time before the player to move at a turn-based table comes back (hours) ...
TURN_DELAY_H = 3.0
# ... and how many decisions they make then (about one turn of the game), 5 s apart.
PER_SITTING = {"topiary": 1, "harmonies": 4, "renature": 2, "mystic_vale": 6}
SITTING_GAP_S = 5.0
WARM_S = 1800.0


def population(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    span = args.minutes * 60.0
    names = list(DECISIONS)
    # Per table: game, mode, decisions made, decisions left in this sitting (turn-based).
    queue: list[tuple[float, int]] = []
    tables: list[list] = []
    moves = Counter[tuple[str, str]]()
    setups = Counter[str]()
    per_second = Counter[int]()

    def next_delay(game: str, mode: str, state: list) -> float:
        if mode == "live":
            return rng.lognormvariate(0.0, 1.0) * LIVE_THINK[game]
        if state[3] > 0:
            return SITTING_GAP_S
        state[3] = PER_SITTING[game]
        return rng.expovariate(1.0) * TURN_DELAY_H * 3600

    for number in range(args.tables):
        game = names[number % len(names)]
        mode = "live" if rng.random() < args.live else "turn"
        made = int(rng.random() * DECISIONS[game])
        state = [game, mode, made, 0]
        tables.append(state)
        # The steady state, not a site that just opened: live tables play WARM_S before
        # the count begins; a turn-based table's wait has no memory, so it starts now.
        first = next_delay(game, mode, state)
        heapq.heappush(queue, (rng.random() * first - WARM_S if mode == "live" else first, number))
    while queue:
        moment, number = heapq.heappop(queue)
        if moment >= span:
            break
        state = tables[number]
        game, mode = state[0], state[1]
        state[2] += 1
        if mode == "turn":
            state[3] -= 1
        counted = moment >= 0
        if counted:
            moves[game, mode] += 1
            per_second[int(moment)] += 1
        if state[2] >= DECISIONS[game]:  # the game ends: a new table takes its place
            setups[mode] += counted
            state[2], state[3] = 0, 0
        heapq.heappush(queue, (moment + next_delay(game, mode, state), number))
    held_samples = [state[2] for state in tables]
    count = Counter((state[0], state[1]) for state in tables)
    print(
        f"Python {platform.python_version()}, {args.tables:,} tables ({args.live:.0%} live), "
        f"{args.minutes:g} simulated minutes, seed {args.seed}"
    )
    print()
    print("| game | mode | tables | moves per table per minute | game length |")
    print("|---|---|---:|---:|---:|")
    for game in names:
        for mode in ("live", "turn"):
            rate = moves[game, mode] / max(1, count[game, mode]) / args.minutes
            length = DECISIONS[game] / rate if rate else float("inf")
            shown = f"{length:.0f} min" if length < 600 else f"{length / 1440:.1f} days"
            print(f"| {game} | {mode} | {count[game, mode]:,} | {rate:.4f} | {shown} |")
    total = sum(moves.values())
    mean = total / span
    busiest = max(per_second.values())
    print()
    print(f"moves/s: {mean:,.1f} (busiest second {busiest:,}, {busiest / mean:.2f} x the mean)")
    print(f"moves/s per table: {mean / args.tables:.5f}")
    print(
        f"set-ups/s: {sum(setups.values()) / span:.2f} "
        f"(live {setups['live'] / span:.2f}, turn-based {setups['turn'] / span:.3f})"
    )
    held = {
        (g, m): [s[2] for s in tables if s[0] == g and s[1] == m] for g in names for m in ("live",)
    }
    print(
        "moves held per table (mean): "
        + ", ".join(f"{g} {sum(v) / max(1, len(v)):.0f}" for (g, _m), v in held.items())
        + f"; all tables {sum(held_samples) / len(held_samples):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parts = parser.add_subparsers(dest="part", required=True)
    w = parts.add_parser("writes", help="commits and bytes per move")
    w.add_argument("--database-url", help="a fresh database; SQLite if none")
    w.add_argument("--seconds", type=float, default=20.0)
    w.add_argument("--batch", type=int, default=1, help="lines per commit")
    w.add_argument("--tables", type=int, default=1000)
    n = parts.add_parser("news", help="the cost of news of a table not held")
    n.add_argument("--held", default="1000,10000,100000", help="comma-separated")
    n.add_argument("--redis-url", help="also time redis-py's reading and the recount")
    p = parts.add_parser("population", help="moves per table per minute in a model")
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--minutes", type=float, default=60.0)
    p.add_argument("--live", type=float, default=0.3, help="the share of live tables")
    p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.part == "writes":
        writes(args)
    elif args.part == "news":
        args.held = [int(h) for h in args.held.split(",") if h]
        news(args)
    else:
        population(args)


if __name__ == "__main__":
    main()
