"""Upkeep: what would otherwise pile up in the store for ever. Sessions past their end,
guest accounts nobody uses, and open tables nobody joins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, exists, select, update
from sqlalchemy.orm import Session as DbSession

from meadow.server.settings import Settings
from meadow.store import Database, Seat, Session, Table, User


def purge(db: Database, settings: Settings, now: datetime | None = None) -> dict[str, int]:
    """Delete expired sessions and guest accounts idle for more than `settings.guest_days`
    that hold no seat (and host no table); mark open tables untouched for more than
    `settings.open_table_hours` abandoned. One transaction; returns how many of each
    (`sessions`, `guests`, `tables`)."""
    now = now or datetime.now(UTC)
    with db.write() as s:
        done = {
            "sessions": _expired_sessions(s, now),
            "guests": _idle_guests(s, now - timedelta(days=settings.guest_days)),
            "tables": _abandoned_tables(s, now - timedelta(hours=settings.open_table_hours)),
        }
        s.commit()
    return done


def _expired_sessions(s: DbSession, now: datetime) -> int:
    gone = s.execute(
        delete(Session).where(Session.expires_at < now),
        execution_options={"synchronize_session": False},
    )
    return gone.rowcount


def _idle_guests(s: DbSession, since: datetime) -> int:
    """Guests made before `since` who signed in no later: a guest signs in once, when the
    account is made. A seat, even at a finished table, keeps the account (its record names
    it); so does a table it hosts."""
    idle = select(User.id).where(
        User.password_hash.is_(None),
        User.deleted_at.is_(None),  # a deleted account's row keeps its chat lines named
        User.created_at < since,
        ~exists().where(Seat.user_id == User.id),
        ~exists().where(Table.host_id == User.id),
        ~exists().where(Session.user_id == User.id, Session.created_at >= since),
    )
    # Their sessions and ratings go with them (ON DELETE CASCADE).
    gone = s.execute(
        delete(User).where(User.id.in_(idle)), execution_options={"synchronize_session": False}
    )
    return gone.rowcount


def _abandoned_tables(s: DbSession, since: datetime) -> int:
    marked = s.execute(
        update(Table)
        .where(Table.status == "open", Table.updated_at < since)
        .values(status="abandoned"),
        execution_options={"synchronize_session": False},
    )
    return marked.rowcount
