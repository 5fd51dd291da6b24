"""Attacks through a seat's bot: budgets that would hold a bot worker for ever. The server
seats only what its host allows, and no think outlasts the host's bound."""

from __future__ import annotations

import secrets
import time

import pytest
from sqlalchemy import update

from meadow.bots.levels import LEVELS, offered
from meadow.store import Database, Seat
from tests.server.conftest import Client, Server


@pytest.mark.parametrize(
    "bot",
    [
        "mcts:1e9s",
        "mcts:infs",
        "mcts:nans",
        "mcts:99999999999",
        "mcts:0",
        "mcts:-5",
        "mcts:0s",
        "mcts:100:rollout=99999999",
        "policy:os:system",
        "policy:../../tmp/evil.py:x",
        "mcts:" + "9" * 5000,
        "",
    ],
)
def test_a_table_seating_a_bot_beyond_the_hosts_bounds_is_refused(server: Server, bot: str):
    host = server.client().signup(f"b-{secrets.token_hex(5)}")
    for body in (
        {"game": "topiary", "players": 2, "seats": [None, bot]},
        {"game": "topiary", "players": 2, "seats": [None, "easy"], "takeover_bot": bot},
    ):
        reply = host.post("/api/tables", json=body)
        assert 400 <= reply.status_code < 500, reply.text
        assert reply.json()["error"]
    assert host.get("/api/tables/mine").json() == []


def test_the_levels_and_bounded_budgets_are_seated(server: Server):
    host = server.client().signup(f"b-{secrets.token_hex(5)}")
    for bot in (*offered("topiary"), "random", "greedy", "mcts:2000", "mcts:3s"):
        body = {"game": "topiary", "players": 2, "seats": [None, bot]}
        reply = host.post("/api/tables", json=body)
        assert reply.status_code == 201, (bot, reply.text)
        # A host may hold only a few open tables at once: start each.
        assert host.post(f"/api/tables/{reply.json()['id']}/start").status_code == 204


def test_a_level_the_game_does_not_offer_is_refused_by_name(server: Server):
    """Topiary offers no expert (it would play no better than hard): a table asking for it,
    as a seat or as the bot that takes over a seat, is refused with the levels it has."""
    missing = [level for level in LEVELS if level not in offered("topiary")]
    assert missing == ["expert"]
    host = server.client().signup(f"b-{secrets.token_hex(5)}")
    for body in (
        {"game": "topiary", "players": 2, "seats": [None, "expert"]},
        {"game": "topiary", "players": 2, "seats": [None, "easy"], "takeover_bot": "expert"},
    ):
        reply = host.post("/api/tables", json=body)
        assert reply.status_code == 400, reply.text
        assert "no expert level" in reply.json()["error"]
        assert ", ".join(offered("topiary")) in reply.json()["error"]
    assert host.get("/api/tables/mine").json() == []
    body = {"game": "harmonies", "players": 2, "seats": [None, "expert"]}
    assert host.post("/api/tables", json=body).status_code == 201


def test_a_stored_endless_budget_still_thinks_within_the_bound(server: Server):
    """A table stored before its budget was refused (or written by hand) must not hold a
    bot worker for ever: the bot answers once the bound (3 s by default) runs out."""
    host = server.client().signup(f"b-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": ["random", None]}
    table_id = host.post("/api/tables", json=body).json()["id"]
    store(server, table_id, seat=0, bot="mcts:99999999999")
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    assert host.table(table_id)["seats"][0]["bot"] == "mcts:99999999999"
    assert wait_for_moves(host, table_id, 1, seconds=30) >= 1


def store(server: Server, table_id: int, seat: int, bot: str) -> None:
    """Write a seat's bot straight into the server's database, as no request may."""
    db = Database(server.database_url or f"sqlite:///{server.data_dir / 'meadow.sqlite3'}")
    try:
        with db.write() as s:
            s.execute(
                update(Seat).where(Seat.table_id == table_id, Seat.number == seat).values(bot=bot)
            )
            s.commit()
    finally:
        db.dispose()


def wait_for_moves(client: Client, table_id: int, moves: int, seconds: float) -> int:
    deadline = time.monotonic() + seconds
    made = 0
    while time.monotonic() < deadline:
        made = client.table(table_id)["moves_made"]
        if made >= moves:
            break
        time.sleep(0.2)
    return made
