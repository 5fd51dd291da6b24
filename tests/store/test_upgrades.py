"""An upgrade keeps what the database held: every account, session, table, seat, move, chat
line and mute of a database made by an older version is there after `Database.migrate`
(which every server start runs), on SQLite and PostgreSQL. On SQLite a migration that
rebuilt a table (Alembic's batch mode) with foreign keys on used to delete every row that
referred to it: 0010 emptied the seats and moves of a database upgraded from 0009."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from meadow.store import Database
from tests.server.conftest import fresh_postgres

KEPT = ["users", "sessions", "tables", "seats", "moves"]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        db = Database(f"sqlite:///{tmp_path / 'meadow.sqlite3'}")
        yield db
        db.dispose()
        return
    with fresh_postgres() as url:
        db = Database(url)
        yield db
        db.dispose()


def fill(db: Database) -> None:
    """An account signed in, at a running table with a move (the schema of 0009)."""
    now = {"now": datetime.now(UTC)}
    with db.write_engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, email, created_at, "
                "notify) VALUES (1, 'ada', 'ada', 'x', 'ada@example.org', :now, true)"
            ),
            now,
        )
        c.execute(
            text(
                "INSERT INTO sessions (token, user_id, csrf, created_at, expires_at) "
                "VALUES ('t', 1, 'c', :now, :now)"
            ),
            now,
        )
        c.execute(
            text(
                "INSERT INTO tables (id, game, options, players, seed, mode, status, invite, "
                "host_id, moves_made, grace_seconds, takeover_bot, private, turn_since, "
                "created_at, updated_at) VALUES (1, 'topiary', '{}', 2, '1', 'live', "
                "'running', 'i', 1, 1, 30, 'easy', false, :now, :now, :now)"
            ),
            now,
        )
        c.execute(
            text("INSERT INTO seats (table_id, number, user_id, used_ms) VALUES (1, 0, 1, 0)")
        )
        c.execute(
            text(
                "INSERT INTO moves (table_id, number, seat, action, created_at) "
                "VALUES (1, 1, 0, 'visit O-N0', :now)"
            ),
            now,
        )


def counts(db: Database, tables: list[str]) -> dict[str, int]:
    with db.engine.connect() as c:
        return {t: c.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in tables}


def test_an_upgrade_from_0009_keeps_every_row(store: Database) -> None:
    store.migrate("0009")
    fill(store)
    store.migrate()
    assert counts(store, KEPT) == dict.fromkeys(KEPT, 1)


def test_an_upgrade_from_0010_keeps_chat_and_mutes_and_unconfirms_addresses(
    store: Database,
) -> None:
    store.migrate("0009")
    fill(store)
    store.migrate("0010")
    with store.write_engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO chat (table_id, user_id, seat, move, text, created_at) "
                "VALUES (1, 1, 0, 1, 'hello', :now)"
            ),
            {"now": datetime.now(UTC)},
        )
        c.execute(text("INSERT INTO mutes (user_id, muted_id) VALUES (1, 1)"))
    store.migrate()
    assert counts(store, [*KEPT, "chat", "mutes"]) == dict.fromkeys([*KEPT, "chat", "mutes"], 1)
    with store.engine.connect() as c:
        row = c.execute(
            text("SELECT email, email_confirmed, is_admin, banned_at, deleted_at FROM users")
        ).one()
    # An address stored before needs its link followed before anything is sent to it.
    assert tuple(row) == ("ada@example.org", False, False, None, None)
