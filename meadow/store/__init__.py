"""Meadow's durable store: accounts, tables and the append-only move log (SQLAlchemy; SQLite
by default, PostgreSQL for many nodes), with its schema under Alembic migrations."""

from meadow.store.db import Database
from meadow.store.models import (
    AuditEntry,
    Base,
    ChatMessage,
    GameAnalysis,
    Move,
    Mute,
    Rating,
    Seat,
    Session,
    Table,
    Token,
    User,
)

__all__ = [
    "AuditEntry",
    "Base",
    "ChatMessage",
    "Database",
    "GameAnalysis",
    "Move",
    "Mute",
    "Rating",
    "Seat",
    "Session",
    "Table",
    "Token",
    "User",
]
