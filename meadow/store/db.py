"""Connecting to the store and bringing its schema up to date (Alembic, applied at start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


class Database:
    """One database: an engine, a session factory and the migrations."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        connect_args: dict[str, Any] = {"check_same_thread": False} if self.sqlite else {}
        # A ping per checkout guards against a server that dropped the connection; a file
        # database never does.
        self.engine: Engine = create_engine(
            url, connect_args=connect_args, pool_pre_ping=not self.sqlite
        )
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.session = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        """Apply every migration not yet applied (a new database gets the whole schema)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def open(self) -> DbSession:
        return self.session()

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL: readers never block the writer; FULL sync: a commit is on disk when it returns,
    # so an acknowledged move survives a crash.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
