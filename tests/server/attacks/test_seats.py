"""Attacks on a table's seats: a start racing a leave, through one process and through two.
Seat changes and the start are decided by the database, so a game never runs with a seat
that nobody, person or bot, can play."""

from __future__ import annotations

import secrets
from functools import partial

from tests.server.conftest import Client, Server, at_once, signed_in


def race_start_and_leave(host: Client, leaver: Client, rounds: int) -> list[tuple[int, int]]:
    """`rounds` tables, each started by `host` while `leaver` leaves it at the same moment;
    returns the two answers' statuses per round, and checks every table after its race."""
    answers: list[tuple[int, int]] = []
    for _ in range(rounds):
        body = {"game": "topiary", "players": 2, "seats": [None, None]}
        table_id = host.post("/api/tables", json=body).json()["id"]
        assert leaver.post(f"/api/tables/{table_id}/join").status_code == 200
        start, leave = at_once(
            [
                partial(host.post, f"/api/tables/{table_id}/start"),
                partial(leaver.post, f"/api/tables/{table_id}/leave"),
            ]
        )
        replies = {"start": start, "leave": leave}
        answers.append((replies["start"].status_code, replies["leave"].status_code))
        assert all(reply.status_code < 500 for reply in replies.values()), replies
        table = host.table(table_id)
        if table["status"] == "running":
            nobody = [s["seat"] for s in table["seats"] if not s["person"] and not s["bot"]]
            assert nobody == [], f"table {table_id} runs with seats {nobody} that nobody plays"
        else:
            assert replies["start"].status_code == 409
        if table["status"] == "open":  # started after all, so the host may open the next
            assert leaver.post(f"/api/tables/{table_id}/join").status_code == 200
            assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    return answers


def test_a_start_racing_a_leave_never_runs_a_game_with_an_empty_seat(server: Server):
    host = server.client().signup(f"h-{secrets.token_hex(5)}")
    leaver = server.client().signup(f"l-{secrets.token_hex(5)}")
    answers = race_start_and_leave(host, leaver, 12)
    assert all(leave == 204 for _, leave in answers)  # a leave is always accepted


def test_a_start_racing_a_leave_through_two_processes_never_runs_an_empty_seat(
    pair: tuple[Server, Server],
):
    a, b = pair
    host = a.client().signup(f"h-{secrets.token_hex(5)}")
    leaver_here = a.client().signup(f"l-{secrets.token_hex(5)}")
    leaver = signed_in(b, leaver_here)
    answers = race_start_and_leave(host, leaver, 20)
    assert all(leave == 204 for _, leave in answers)
