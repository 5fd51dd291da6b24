"""Upkeep against the store itself (SQLite and PostgreSQL): rows made old on purpose, then
one purge."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import nullcontext
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from meadow.server.settings import Settings
from meadow.server.upkeep import purge
from meadow.store import Database, Seat, Session, Table, User
from tests.server.conftest import fresh_postgres

NOW = datetime.now(UTC)
LONG_AGO = NOW - timedelta(days=30)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    sqlite = f"sqlite:///{tmp_path / 'upkeep.sqlite3'}"
    with fresh_postgres() if request.param == "postgresql" else nullcontext(sqlite) as url:
        found = Database(url)
        found.migrate()
        yield found
        found.dispose()


def person(name: str, *, guest: bool, made: datetime) -> User:
    return User(name=name, password_hash=None if guest else "x", created_at=made)


def table(host: User, status: str, touched: datetime, seats: list[User | None]) -> Table:
    return Table(
        game="topiary",
        options={},
        players=len(seats),
        seed="1",
        mode="live",
        status=status,
        invite=secrets.token_hex(8),
        host_id=host.id,
        updated_at=touched,
        seats=[
            Seat(number=n, user_id=user.id if user else None, bot=None if user else "random")
            for n, user in enumerate(seats)
        ],
    )


def session(user: User, token: str, made: datetime, ends: datetime) -> Session:
    return Session(token_hash=token, user=user, csrf="c", created_at=made, expires_at=ends)


def test_purge_removes_expired_sessions_idle_guests_and_old_open_tables(db: Database):
    with db.write() as s:
        idle = person("guest-idle0000", guest=True, made=LONG_AGO)
        seated = person("guest-seated00", guest=True, made=LONG_AGO)
        hosting = person("guest-hosting0", guest=True, made=LONG_AGO)
        fresh = person("guest-fresh000", guest=True, made=NOW - timedelta(days=1))
        member = person("old-member", guest=False, made=LONG_AGO)
        s.add_all([idle, seated, hosting, fresh, member])
        s.flush()
        s.add_all(
            [
                session(idle, "idle-guest-session", LONG_AGO, NOW + timedelta(days=1)),
                session(member, "expired", LONG_AGO, NOW - timedelta(seconds=1)),
                session(member, "current", LONG_AGO, NOW + timedelta(days=1)),
                table(member, "finished", LONG_AGO, [member, seated]),
                table(hosting, "running", LONG_AGO, [None, None]),
                table(member, "open", LONG_AGO, [member, None]),
                table(member, "open", NOW, [member, None]),
            ]
        )
        s.commit()
    settings = Settings(guest_days=7, open_table_hours=24)

    assert purge(db, settings, now=NOW) == {"sessions": 1, "guests": 1, "tables": 1}

    with db.open() as s:
        names = set(s.scalars(select(User.name)))
        assert names == {"guest-seated00", "guest-hosting0", "guest-fresh000", "old-member"}
        assert set(s.scalars(select(Session.token_hash))) == {"current"}
        statuses = sorted(s.scalars(select(Table.status)))
        assert statuses == ["abandoned", "finished", "open", "running"]
    assert purge(db, settings, now=NOW) == {"sessions": 0, "guests": 0, "tables": 0}


def test_a_guest_who_signed_in_lately_is_kept(db: Database):
    with db.write() as s:
        back = person("guest-back0000", guest=True, made=LONG_AGO)
        s.add_all([back, session(back, "lately", NOW - timedelta(days=2), NOW + timedelta(1))])
        s.commit()
    assert purge(db, Settings(guest_days=7), now=NOW)["guests"] == 0
