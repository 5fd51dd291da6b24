"""Meadow's durable store: accounts, tables and the append-only move log (SQLAlchemy; SQLite
by default, PostgreSQL for many nodes), with its schema under Alembic migrations."""

from meadow.store.db import Database
from meadow.store.models import (
    Base,
    ChatMessage,
    Move,
    Mute,
    Rating,
    Seat,
    Session,
    Table,
    User,
)

__all__ = [
    "Base",
    "ChatMessage",
    "Database",
    "Move",
    "Mute",
    "Rating",
    "Seat",
    "Session",
    "Table",
    "User",
]
