"""Connecting to the store and bringing its schema up to date (Alembic, applied at start)."""

from __future__ import annotations

import logging
import threading
import traceback
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"
log = logging.getLogger("meadow.store")
# How the warning of `_warn_of_a_second_connection` begins (the server tests look for it).
SECOND_CONNECTION = "a thread took a second database connection while holding one"


class Database:
    """One database: an engine, a session factory and the migrations."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        connect_args: dict[str, Any] = {"check_same_thread": False} if self.sqlite else {}
        # A ping per checkout guards against a server that dropped the connection; a file
        # database never does.
        # Requests run in a pool of 40 threads: enough connections that they rarely queue.
        # No statement's parameters in an error's message: a failed insert would otherwise
        # write a password hash, a session's key or a CSRF token into the log.
        self.engine: Engine = create_engine(
            url,
            connect_args=connect_args,
            pool_pre_ping=not self.sqlite,
            pool_size=20,
            max_overflow=20,
            hide_parameters=True,
        )
        # Writes go through their own engine: on SQLite it takes the write lock when a
        # transaction begins, so writers queue (busy_timeout) instead of failing.
        self.write_engine: Engine = self.engine
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "begin", _begin_deferred)
            self.write_engine = create_engine(
                url, connect_args=connect_args, pool_size=20, max_overflow=20, hide_parameters=True
            )
            event.listen(self.write_engine, "connect", _sqlite_pragmas)
            event.listen(self.write_engine, "begin", _begin_immediate)
        for engine in {self.engine, self.write_engine}:
            _warn_of_a_second_connection(engine)
        self.session = sessionmaker(self.engine, expire_on_commit=False)
        self.write_session = sessionmaker(self.write_engine, expire_on_commit=False)

    def migrate(self, revision: str = "head") -> None:
        """Apply every migration not yet applied (a new database gets the whole schema), up
        to `revision` (the tests make databases of older versions)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.write_engine.connect() as connection:
            # SQLite changes a table (Alembic's batch mode) by copying it into a new one and
            # dropping the old: with foreign keys on, the drop deletes every row that refers
            # to it (ON DELETE CASCADE: migration 0010 emptied seats and moves that way). So
            # they are off while the schema changes, as SQLite's documentation prescribes
            # (outside the transaction: a PRAGMA inside one does nothing), and checked
            # before the commit.
            raw = connection.connection.driver_connection if self.sqlite else None
            if raw is not None:
                raw.execute("PRAGMA foreign_keys=OFF")
            try:
                with connection.begin():
                    if connection.dialect.name == "postgresql":
                        # Several servers starting at once on one database: one migrates,
                        # the others wait for its commit and then find nothing left to do.
                        # (SQLite's writer transaction already takes the database's lock.)
                        connection.exec_driver_sql(
                            f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"
                        )
                    config.attributes["connection"] = connection
                    command.upgrade(config, revision)
                    if raw is not None:
                        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                        if broken:
                            raise RuntimeError(f"the migrations broke references: {broken[:5]}")
            finally:
                if raw is not None:
                    raw.execute("PRAGMA foreign_keys=ON")

    def schema_problem(self) -> str | None:
        """Why this database is not ready for this code, in a few words, or None: it does
        not answer (raises), or its schema is not at the migrations' head."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as connection:
            found = MigrationContext.configure(connection).get_current_heads()
        head = migrations_head()
        if tuple(found) != (head,):
            return f"the schema is at {', '.join(found) or 'nothing'}, this code's at {head}"
        return None

    def site_id(self) -> str:
        """This database's own name, made when its schema was first created."""
        return self.site_fact("id")

    def site_fact(self, key: str) -> str:
        """One of the facts the migrations made for this site (`store.models.Site`)."""
        from meadow.store.models import Site

        with self.open() as s:
            found = s.get(Site, key)
            assert found is not None, f"the migrations make the site's {key}"
            return found.value

    def open(self) -> DbSession:
        """A session for reading (never blocks, never blocks a writer)."""
        return self.session()

    def write(self) -> DbSession:
        """A session for a transaction that writes (and may read first)."""
        return self.write_session()

    def dispose(self) -> None:
        self.engine.dispose()
        self.write_engine.dispose()


@cache
def migrations_head() -> str:
    """The newest migration this code has."""
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None, "the migrations have one head"
    return head


MIGRATION_LOCK = 0x4D454144  # "MEAD": the advisory lock key that serialises migrations


def _warn_of_a_second_connection(engine: Engine) -> None:
    """Log a thread that takes a second connection of one pool while it holds one.

    Every worker thread doing so at once would wait for ever on the others' connections,
    as a burst of requests did once (tests/server/attacks/test_bursts.py). On PostgreSQL
    reading and writing share one pool, so a route must hand its reading session's
    connection back before it writes through the tables."""
    holders: dict[int, int] = {}  # connection record -> thread
    lock = threading.Lock()

    def checkout(_dbapi: Any, record: Any, _proxy: Any) -> None:
        thread = threading.get_ident()
        with lock:
            second = thread in holders.values()
            holders[id(record)] = thread
        if second:
            log.warning(
                "%s (a burst can deadlock the pool):\n%s",
                SECOND_CONNECTION,
                "".join(traceback.format_list(_meadow_frames())),
            )

    def checkin(_dbapi: Any, record: Any) -> None:
        with lock:
            holders.pop(id(record), None)

    event.listen(engine, "checkout", checkout)
    event.listen(engine, "checkin", checkin)


def _meadow_frames() -> list[traceback.FrameSummary]:
    """The calls of Meadow's own code that led here (not the libraries' nor this module's)."""
    package = str(Path(__file__).parents[1])
    return [
        frame
        for frame in traceback.extract_stack()
        if frame.filename.startswith(package) and frame.filename != __file__
    ]


def _begin_deferred(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN")  # a snapshot for reading: WAL readers never wait


def _begin_immediate(connection: Any) -> None:
    # A deferred transaction that reads, then writes, can fail at once with "database is
    # locked" when another writer got in between (no busy wait helps); taking the write lock
    # at the start makes writers queue for busy_timeout instead.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    connection.isolation_level = None  # transactions start with SQLAlchemy's "begin" event
    # WAL: readers never block the writer; FULL sync: a commit is on disk when it returns,
    # so an acknowledged move survives a crash.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")  # writers queue; a burst must not fail
    cursor.close()
