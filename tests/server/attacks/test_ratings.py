"""Attacks on ratings: many games ending at the same moment on two processes, all rated on
the same bot levels' rows. Every game must count, none overwritten by another."""

from __future__ import annotations

import secrets
import threading
import time

from sqlalchemy import select

from meadow import games
from meadow.core.game import State
from meadow.core.rng import Rng
from meadow.server.ratings import rate
from meadow.store import Database, Rating
from tests.server.conftest import Client, Server, fresh_postgres


def start_bot_games(host: Client, tables: int) -> list[int]:
    """`tables` Topiary games of two bots each (random against greedy), started one after
    another (a host may have only a few open tables at once)."""
    started = []
    for _ in range(tables):
        body = {"game": "topiary", "players": 2, "seats": ["random", "greedy"]}
        created = host.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        assert host.post(f"/api/tables/{table_id}/start").status_code == 204
        started.append(table_id)
    return started


def wait_until_finished(client: Client, tables: list[int], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    waiting = list(tables)
    while waiting and time.monotonic() < deadline:
        waiting = [t for t in waiting if client.table(t)["status"] != "finished"]
        time.sleep(0.3)
    assert not waiting, f"tables {waiting} did not finish within {seconds} s"


def games_rated(client: Client) -> dict[str, int]:
    bots = client.get("/api/ratings/topiary").json()["bots"]
    return {row["bot"]: row["games"] for row in bots}


def test_games_ending_together_on_two_processes_are_all_rated(pair: tuple[Server, Server]):
    a, b = pair
    hosts = [server.client().signup(f"r-{secrets.token_hex(5)}") for server in (a, b)]
    before = games_rated(hosts[0])
    tables = []
    for host in hosts:  # each process sets up (and hosts the bots of) its own tables
        tables += start_bot_games(host, 8)
    wait_until_finished(hosts[0], tables)
    after = games_rated(hosts[0])
    for bot in ("random", "greedy"):
        assert after.get(bot, 0) - before.get(bot, 0) == len(tables), (bot, before, after)


def test_two_transactions_rating_at_once_both_count_on_postgresql():
    """The race itself, made certain: a second process rates a game while the first one's
    transaction is still open. It must wait and read the first one's result, not overwrite
    it with its own."""
    with fresh_postgres() as url:
        db = Database(url)
        db.migrate()
        try:
            final = finished_topiary()
            seats: list[tuple[int | None, str | None]] = [(None, "random"), (None, "greedy")]
            first_rated, second_done = threading.Event(), threading.Event()

            def first() -> None:
                with db.write_engine.begin() as connection:
                    rate(connection, "topiary", seats, final)
                    first_rated.set()
                    second_done.wait(1.0)  # hold the transaction open while the other tries

            def second() -> None:
                first_rated.wait(10)
                with db.write_engine.begin() as connection:
                    rate(connection, "topiary", seats, final)
                second_done.set()

            threads = [threading.Thread(target=f) for f in (first, second)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            with db.open() as s:
                games = dict(s.execute(select(Rating.bot, Rating.games)).all())
            assert games == {"random": 2, "greedy": 2}
        finally:
            db.dispose()


def finished_topiary() -> State:
    state = games.get("topiary").setup(2, {}, 7)
    rng = Rng(7)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(rng.choice(legal))
    return state
