"""Chat floods and spoofing (issue 43, 4).

Found from outside: the chat limit was per person only, and six fresh guests wrote 60 lines
into one table in half a second; and a line could hold a right-to-left override, zero-width
spaces, line separators and piles of combining marks, which the page showed, so that a line
could pass for another person's. Now a table and an address have limits of their own, and a
line is stored and shown without what disguises it. On a real server, SQLite and PostgreSQL."""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import create_engine, text

from tests.server.conftest import Client, Server
from tests.server.test_chat import table_of_two
from tests.server.test_safety import socket_to

# The defaults (meadow/server/settings.py).
PER_PERSON, PER_TABLE, PER_ADDRESS = 10, 30, 20


def running_table(server: Server) -> int:
    """A started two-seat table, open to anyone who watches."""
    return table_of_two(server)[0]


def guest(server: Server, address: str | None = None) -> Client:
    """A fresh guest, from `address` if given (else an address of its own)."""
    client = server.client()
    if address is not None:
        client.http.headers["X-Forwarded-For"] = address
    made = client.post("/api/accounts/guest")
    assert made.status_code == 201, made.text
    client.csrf = made.json()["csrf"]
    return client


def flood(people: list[Client], table_id: int, lines_each: int) -> list[Any]:
    """Every person writes `lines_each` lines at the table, in turn; the answers in order."""
    path = f"/api/tables/{table_id}/chat"
    return [
        person.post(path, json={"text": f"flood {n}"})
        for n in range(lines_each)
        for person in people
    ]


def stored(server: Server, table_id: int) -> list[dict[str, Any]]:
    reply = server.client().get(f"/api/tables/{table_id}/chat")
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_guests_from_one_address_are_stopped_at_the_limit_of_the_address(server: Server):
    table_id = running_table(server)
    address = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    answers = flood([guest(server, address) for _ in range(3)], table_id, PER_PERSON)
    assert [a.status_code for a in answers] == [201] * PER_ADDRESS + [429] * 10
    refused = answers[-1].json()["error"]
    assert refused.startswith(f"too many chat messages from your address: at most {PER_ADDRESS}")
    assert int(answers[-1].headers["Retry-After"]) >= 1
    assert len(stored(server, table_id)) == PER_ADDRESS  # a refused line is not stored
    # Someone elsewhere still talks at the table.
    assert guest(server).post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == (
        201
    )


def test_people_from_many_addresses_are_stopped_at_the_limit_of_the_table(server: Server):
    table_id, *seats = table_of_two(server)
    elsewhere = running_table(server)
    people = [guest(server) for _ in range(4)]
    answers = flood(people, table_id, PER_PERSON)
    assert [a.status_code for a in answers] == [201] * PER_TABLE + [429] * 10
    refused = answers[-1].json()["error"]
    assert refused.startswith(
        f"too many chat messages at this table from those watching it: at most {PER_TABLE}"
    )
    assert len(stored(server, table_id)) == PER_TABLE
    # The watchers' flood never silences the people playing.
    for seat in seats:
        assert seat.post(f"/api/tables/{table_id}/chat", json={"text": "gg"}).status_code == 201
    # The lines the table refused used up nothing of the people's own: the last person,
    # whose turn came 7 times before the table was full, writes 3 more elsewhere, then
    # their own limit stops them.
    path = f"/api/tables/{elsewhere}/chat"
    other = [people[-1].post(path, json={"text": f"hi {n}"}) for n in range(4)]
    assert [a.status_code for a in other] == [201, 201, 201, 429]
    assert "too many chat messages: at most 10" in other[-1].json()["error"]


def test_the_limit_of_a_table_holds_for_two_processes_together(pair: tuple[Server, Server]):
    """The counts are kept in Redis: two processes allow what one does, not twice as much."""
    a, b = pair
    table_id = running_table(a)
    people = [guest(a), guest(b), guest(a), guest(b)]
    answers = flood(people, table_id, PER_PERSON)
    assert [x.status_code for x in answers] == [201] * PER_TABLE + [429] * 10
    assert len(stored(b, table_id)) == PER_TABLE


def test_a_line_is_stored_and_shown_without_what_disguises_it(server: Server):
    table_id = running_table(server)
    speaker = guest(server)
    written = (
        "gg\u200b wp\u202e!\u2066 ann\u2069: I resign"
        + "\u2028zx\u0334\u0335\u0336\u0337\u0338z, Grüße"
    )
    kept = "gg wp! ann: I resign zx\u0334\u0335z, Grüße"
    with socket_to(server, None, table_id) as watching:
        assert json.loads(watching.recv(timeout=15))["kind"] == "sync"
        said = speaker.post(f"/api/tables/{table_id}/chat", json={"text": written})
        assert said.status_code == 201, said.text
        assert said.json()["text"] == kept
        while (heard := json.loads(watching.recv(timeout=15)))["kind"] != "chat":
            pass
        assert heard["text"] == kept
    assert [line["text"] for line in stored(server, table_id)] == [kept]
    with socket_to(server, None, table_id) as later:
        sync = json.loads(later.recv(timeout=15))
        assert [line["text"] for line in sync["chat"]] == [kept]
    assert [line["text"] for line in speaker.table(table_id)["game_state"]["chat"]] == [kept]


def test_a_line_stored_before_the_cleaning_is_shown_cleaned(server: Server):
    table_id = running_table(server)
    said = guest(server).post(f"/api/tables/{table_id}/chat", json={"text": "gg"}).json()
    url = server.database_url or f"sqlite:///{server.data_dir / 'meadow.sqlite3'}"
    engine = create_engine(url)
    with engine.begin() as connection:  # as an older server stored it
        connection.execute(
            text("UPDATE chat SET text = :text WHERE id = :id"),
            {"text": "ann\u202e: gg\u200b\u2028wp", "id": said["id"]},
        )
    engine.dispose()
    assert [line["text"] for line in stored(server, table_id)] == ["ann: gg wp"]


def test_a_line_of_format_characters_only_is_refused_as_blank(server: Server):
    table_id = running_table(server)
    speaker = guest(server)
    blank = speaker.post(
        f"/api/tables/{table_id}/chat", json={"text": "\u202e\u200b\u2060\ufeff\u2028\u2066"}
    )
    assert blank.status_code == 400
    assert "needs some text" in blank.json()["error"]
    assert stored(server, table_id) == []
