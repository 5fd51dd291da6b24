"""Backups of a server's database, restores from them, and the check that follows a restore.

SQLite: SQLite's online backup API copies the database in one step, inside one read
transaction, so the copy is the database as of one commit however many moves are being made
(in WAL mode a reader never holds up the writers). PostgreSQL: pg_dump's custom format and
pg_restore, which do the same with a snapshot; Meadow runs them and checks what they made.

Every file is written beside its destination under a temporary name, checked, and renamed
into place: a file at the destination is always whole.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Connection,
    Engine,
    Integer,
    String,
    column,
    create_engine,
    func,
    inspect,
    select,
    table,
    text,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from meadow.core.errors import MeadowError
from meadow.server.export import table_record
from meadow.server.settings import Settings
from meadow.store.db import MIGRATIONS, Database

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"  # the first bytes of pg_dump's custom format
# Tables every Meadow database has had since its first migration.
MEADOW_TABLES = {"alembic_version", "users", "sessions", "tables", "seats", "moves"}
MOST_PROBLEMS_SHOWN = 10


class DataError(MeadowError):
    """A backup, restore, check or export that cannot be done as asked (one line)."""


# -- where the database is ----------------------------------------------------------------


@dataclass(frozen=True)
class Store:
    """The database `meadow serve` would use with the same settings."""

    url: str
    file: Path | None  # SQLite's file; None: PostgreSQL

    @classmethod
    def of(cls, settings: Settings) -> Store:
        if not settings.database_url:
            return cls(sqlite_url(settings.sqlite_file()), settings.sqlite_file())
        try:
            url = make_url(settings.database_url)
        except ArgumentError:
            raise DataError("MEADOW_DATABASE_URL is not a database URL") from None
        if url.get_backend_name() == "sqlite":
            if not url.database or url.database == ":memory:":
                raise DataError("MEADOW_DATABASE_URL names no SQLite file")
            return cls(settings.database_url, Path(url.database))
        if url.get_backend_name() != "postgresql":
            raise DataError(
                f"MEADOW_DATABASE_URL is {url.get_backend_name()}: Meadow backs up SQLite "
                "and PostgreSQL"
            )
        return cls(settings.database_url, None)

    def reader(self) -> str | Engine:
        """What `connected` reads it with: SQLite read-only (never a file made by reading)."""
        return self.url if self.file is None else sqlite_reader(self.file)

    @property
    def shown(self) -> str:
        """Where it is, for a person to read (never with the password)."""
        if self.file is not None:
            return str(self.file)
        return make_url(self.url).render_as_string(hide_password=True)


# -- what a database holds ----------------------------------------------------------------


def migrations() -> ScriptDirectory:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


@dataclass
class Inventory:
    """What a check found in a database."""

    revision: str
    head: str
    people: int = 0
    tables: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        statuses = ", ".join(f"{n} {status}" for status, n in sorted(self.tables.items()))
        schema = f"schema {self.revision}"
        if self.revision != self.head:
            schema += f" (this Meadow's is {self.head}: `meadow serve` migrates it at start)"
        tables = sum(self.tables.values())
        return (
            f"{schema}; {self.people} people, {tables} tables"
            + (f" ({statuses})" if statuses else "")
            + f", {self.moves} moves"
        )


# Named apart from the models: a check reads databases of every revision, and these columns
# have been there since the first.
_TABLES = table(
    "tables",
    column("id", Integer),
    column("game", String),
    column("options", JSON),
    column("players", Integer),
    column("seed", String),
    column("status", String),
    column("moves_made", Integer),
)
_MOVES = table("moves", column("table_id", Integer), column("number", Integer), column("action"))


def revision_of(connection: Connection, where: str) -> str:
    """The database's schema revision, after making sure it is a Meadow database.

    Raises:
        DataError: it is not one, or a newer Meadow made it.
    """
    names = set(inspect(connection).get_table_names())
    missing = MEADOW_TABLES - names
    if missing:
        raise DataError(f"{where} is not a Meadow database (no table {', '.join(sorted(missing))})")
    found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if len(found) != 1:
        raise DataError(f"{where} is not a Meadow database (no single Alembic revision)")
    revision = found[0]
    if not _known(revision):
        raise DataError(
            f"{where} has schema revision {revision}, which this Meadow does not know "
            "(a newer Meadow made it)"
        )
    return revision


def _known(revision: str) -> bool:
    return any(script.revision == revision for script in migrations().walk_revisions())


Tick = Callable[[int, int], None]  # (tables checked, tables in all), after each table


def check(
    connection: Connection, where: str, replay: bool = True, tick: Tick | None = None
) -> Inventory:
    """The schema revision, the counts, and (if `replay`) that every table's move log
    replays: numbered 1..n as its row says, every line applying in turn, a finished game
    over and a running one not. Reads only.

    Raises:
        DataError: it is not a Meadow database, or a newer Meadow made it.
    """
    found = Inventory(revision_of(connection, where), migrations().get_current_head() or "")
    found.people = connection.execute(text("SELECT count(*) FROM users")).scalar_one()
    found.moves = connection.execute(select(func.count()).select_from(_MOVES)).scalar_one()
    tables = {row.id: row for row in connection.execute(select(_TABLES))}
    found.tables = Counter(row.status for row in tables.values())
    if replay:
        found.problems = _replay_problems(connection, tables, tick)
    return found


def _replay_problems(
    connection: Connection, tables: dict[int, Any], tick: Tick | None
) -> list[str]:
    problems = []
    # Streamed (a server-side cursor on PostgreSQL), not read whole into memory.
    lines = connection.execution_options(yield_per=5000).execute(
        select(_MOVES).order_by(_MOVES.c.table_id, _MOVES.c.number)
    )
    # Both in table order: each table's log is read as the table is checked, never all
    # the logs at once.
    logs = groupby(lines, key=lambda line: line.table_id)
    waiting = next(logs, None)
    for done, table_id in enumerate(sorted(tables), start=1):
        log: list[tuple[int, str]] = []
        while waiting is not None and waiting[0] <= table_id:
            if waiting[0] == table_id:
                log = [(line.number, line.action) for line in waiting[1]]
            waiting = next(logs, None)
        problem = _replay_problem(tables[table_id], log)
        if problem:
            problems.append(f"table {table_id}: {problem}")
        if tick:
            tick(done, len(tables))
    return problems


def _replay_problem(row: Any, log: list[tuple[int, str]]) -> str | None:
    if [number for number, _ in log] != list(range(1, len(log) + 1)):
        return "its log's move numbers are not 1, 2, 3, ..."
    if len(log) != row.moves_made:
        return f"its row counts {row.moves_made} moves, its log has {len(log)}"
    if row.status not in ("running", "finished") and not log:
        return None
    try:
        actions = [action for _, action in log]
        state = table_record(row.game, row.players, row.options, row.seed, actions).replay()
    except MeadowError as exc:
        return f"its log does not replay: {exc}"
    if row.status == "finished" and not state.is_over:
        return "it is finished, but its moves do not end the game"
    if row.status == "running" and state.is_over:
        return "it is running, but its moves end the game"
    return None


@contextmanager
def connected(url: str | Engine, where: str) -> Iterator[Connection]:
    """A connection for reading; a database that cannot be reached is one line."""
    engine = create_engine(url) if isinstance(url, str) else url
    try:
        with engine.connect() as connection:
            yield connection
    except DBAPIError as exc:
        raise DataError(f"cannot read {where}: {_first_line(str(exc.orig))}") from None
    finally:
        engine.dispose()


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of an SQLite file, whatever its path holds (?, #, %)."""
    return URL.create("sqlite", database=str(path.resolve())).render_as_string()


def sqlite_reader(path: Path) -> Engine:
    """An engine that opens an SQLite file read-only, and never makes one."""
    return create_engine("sqlite://", creator=lambda: _read_only(path))


def _read_only(path: Path, timeout: float = 5) -> sqlite3.Connection:
    # A URI, so that mode=ro applies; as_uri escapes what a path may hold (?, #, %).
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)


def _first_line(message: str) -> str:
    return next((line.strip() for line in message.splitlines() if line.strip()), message)


# -- files ----------------------------------------------------------------------------------


def beside(target: Path, purpose: str, private: bool = True) -> Path:
    """An empty temporary file in the target's directory (renamed into place when whole): a
    path that cannot be written is found before any work. Private: readable by its owner
    alone (a database holds password hashes and e-mail addresses); otherwise as the umask
    makes any new file.

    Raises:
        DataError: naming the path and the reason.
    """
    if target.is_dir():
        raise DataError(f"cannot write {target}: it is a directory")
    try:
        handle, name = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=f".{purpose}"
        )
    except OSError as exc:
        raise DataError(f"cannot write {target}: {exc.strerror or exc}") from None
    os.close(handle)
    if not private:
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(name, 0o666 & ~umask)
    return Path(name)


def put_in_place(temporary: Path, target: Path) -> None:
    """Rename a whole file to its destination, durably."""
    with open(temporary, "rb") as written:
        os.fsync(written.fileno())
    os.replace(temporary, target)
    directory = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _magic(path: Path) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read(16)
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path} is a directory, not a backup") from None
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None


def _size(path: Path) -> str:
    size = path.stat().st_size
    return f"{size / 1e6:.1f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"


# -- SQLite ---------------------------------------------------------------------------------


def backup_sqlite(store: Store, target: Path) -> tuple[Inventory, str]:
    """A consistent copy of the store's SQLite database (a server may be using it) at
    `target`. Returns what the copy holds and its size.

    Raises:
        DataError: no database there, the target cannot be written, or the copy is not
            sound (the target is then left as it was).
    """
    assert store.file is not None
    if not store.file.is_file():
        raise DataError(f"there is no database at {store.file}")
    if target.exists() and target.resolve() == store.file.resolve():
        raise DataError(f"{target} is the database itself; back it up to another file")
    temporary = beside(target, "partial")
    try:
        _sqlite_copy(store.file, temporary, where=str(store.file))
        found = _sound_sqlite(temporary, str(store.file), replay=False)
        put_in_place(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return found, _size(target)


def _sqlite_copy(source: Path, target: Path, where: str) -> None:
    """SQLite's online backup, in one step: one read transaction, so one commit's state. The
    copy is left in rollback-journal mode: one self-contained file."""
    try:
        # Read-only: a backup never writes the database it copies.
        reading = _read_only(source, timeout=30)
        try:
            writing = sqlite3.connect(target)
            try:
                reading.backup(writing)
                writing.execute("PRAGMA journal_mode=DELETE")
            finally:
                writing.close()
        finally:
            reading.close()
    except sqlite3.DatabaseError as exc:
        raise DataError(f"cannot copy {where}: {exc}") from None


def _sound_sqlite(path: Path, where: str, replay: bool) -> Inventory:
    """SQLite's integrity check, then Meadow's (`check`; the logs replayed only if asked)."""
    try:
        with closing(sqlite3.connect(path)) as reading:
            verdict = [row[0] for row in reading.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        raise DataError(f"{where} is not a sound SQLite database: {exc}") from None
    if verdict != ["ok"]:
        raise DataError(f"{where} fails SQLite's integrity check: {verdict[0]}")
    with connected(sqlite_reader(path), where) as connection:
        return check(connection, where, replay=replay)


def sqlite_files(database: Path) -> list[Path]:
    """The database's file and the files SQLite keeps beside it."""
    return [database, *(database.with_name(database.name + end) for end in ("-wal", "-shm"))]


def restore_sqlite(
    store: Store,
    source: Path,
    force: bool,
    tick: Tick | None = None,
) -> tuple[str, Inventory]:
    """The backup at `source` as the store's database, migrated to this Meadow's schema and
    checked. Returns the backup's own revision and what the restored database holds.

    Raises:
        DataError: `source` is no Meadow backup, a database is there already (and not
            `force`), or the data directory cannot be written.
    """
    assert store.file is not None
    magic = _magic(source)
    if magic.startswith(PG_DUMP_MAGIC):
        raise DataError(
            f"{source} is a PostgreSQL backup (pg_dump); set MEADOW_DATABASE_URL to the "
            "PostgreSQL database to restore it into"
        )
    if not magic.startswith(SQLITE_MAGIC):
        raise DataError(f"{source} is not a Meadow backup (not an SQLite database)")
    with connected(sqlite_reader(source), str(source)) as connection:
        revision_of(connection, str(source))  # a Meadow database, before anything is made
    present = [path for path in sqlite_files(store.file) if path.exists()]
    if present and not force:
        raise DataError(
            f"{store.file} exists (a server may be using it); stop the server and add "
            "--force to replace it"
        )
    try:
        store.file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataError(f"cannot make {store.file.parent}: {exc.strerror or exc}") from None
    temporary = beside(store.file, "restoring")
    try:
        _sqlite_copy(source, temporary, where=str(source))
        before = _sound_sqlite(temporary, str(source), replay=False).revision
        if before != migrations().get_current_head():
            _migrate(sqlite_url(temporary), str(source))
        with connected(sqlite_reader(temporary), str(source)) as connection:
            found = check(connection, str(source), tick=tick)
        # The migration's WAL folded back: the restored database is one file.
        with closing(sqlite3.connect(temporary)) as settle:
            settle.execute("PRAGMA journal_mode=DELETE")
        for path in present:
            path.unlink()  # a stale -wal would otherwise be replayed into the new file
        put_in_place(temporary, store.file)
    finally:
        for path in sqlite_files(temporary):
            path.unlink(missing_ok=True)
    return before, found


def _migrate(url: str, where: str) -> None:
    database = Database(url)
    try:
        database.migrate()
    except DBAPIError as exc:
        raise DataError(f"cannot migrate {where}: {_first_line(str(exc.orig))}") from None
    finally:
        database.dispose()


# -- PostgreSQL -----------------------------------------------------------------------------


def _libpq(store: Store) -> tuple[str, dict[str, str]]:
    """The URL for PostgreSQL's own tools (no driver in it), and the password apart, in
    their environment: a password on a command line is in every `ps`."""
    url = make_url(store.url)
    env = {"PGPASSWORD": url.password} if url.password else {}
    plain = URL.create(
        "postgresql",
        username=url.username,
        host=url.host,
        port=url.port,
        database=url.database,
        query=url.query,
    ).render_as_string(hide_password=False)
    return plain, env


def _tool(name: str, documented: list[str], then: str = "") -> str:
    """The path of a PostgreSQL client tool, or one line with the command to run instead."""
    found = shutil.which(name)
    if found is None:
        raise DataError(
            f"{name} is not on PATH (PostgreSQL's client tools); install them, or run: "
            + shlex.join(documented)
            + then
        )
    return found


def _run(argv: list[str], env: dict[str, str], what: str) -> str:
    finished = subprocess.run(
        argv, env={**os.environ, **env}, capture_output=True, text=True, check=False
    )
    if finished.returncode != 0:
        lines = [line for line in finished.stderr.splitlines() if line.strip()]
        raise DataError(f"{what} failed: {lines[-1].strip() if lines else 'no reason given'}")
    return finished.stdout


def pg_dump_command(store: Store, target: Path) -> list[str]:
    return ["pg_dump", "--format=custom", f"--file={target}", f"--dbname={_libpq(store)[0]}"]


def pg_restore_command(store: Store, source: Path, force: bool) -> list[str]:
    clean = ["--clean", "--if-exists"] if force else []
    return [
        "pg_restore",
        "--no-owner",
        "--exit-on-error",
        "--single-transaction",
        *clean,
        f"--dbname={_libpq(store)[0]}",
        str(source),
    ]


def backup_postgres(store: Store, target: Path) -> tuple[str, str]:
    """pg_dump's custom format of the store's database at `target`, checked with
    pg_restore. Returns the schema revision in it and its size."""
    argv = pg_dump_command(store, target)
    tool = _tool("pg_dump", argv)
    lister = _tool("pg_restore", ["pg_restore", "--list", str(target)])
    temporary = beside(target, "partial")
    try:
        url, env = _libpq(store)
        _run([tool, "--format=custom", f"--file={temporary}", f"--dbname={url}"], env, "pg_dump")
        revision = _dumped_revision(lister, temporary, str(store.shown))
        put_in_place(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return revision, _size(target)


def _dumped_revision(pg_restore: str, archive: Path, where: str) -> str:
    """The Alembic revision in a pg_dump archive (read by pg_restore, not by hand)."""
    listing = _run([pg_restore, "--list", str(archive)], {}, "pg_restore --list")
    if not re.search(r"TABLE DATA \S+ alembic_version ", listing):
        raise DataError(f"{where} is not a Meadow database (no table alembic_version)")
    data = _run(
        [pg_restore, "--data-only", "--table=alembic_version", "--file=-", str(archive)],
        {},
        "pg_restore",
    )
    rows = re.search(r"^COPY \S+ \(version_num\) FROM stdin;\n(.*?)^\\\.$", data, re.M | re.S)
    revisions = rows.group(1).split() if rows else []
    if len(revisions) != 1:
        raise DataError(f"{where} is not a Meadow database (no single Alembic revision)")
    if not _known(revisions[0]):
        raise DataError(
            f"{where} has schema revision {revisions[0]}, which this Meadow does not know "
            "(a newer Meadow made it)"
        )
    return revisions[0]


def restore_postgres(
    store: Store,
    source: Path,
    force: bool,
    tick: Tick | None = None,
) -> tuple[str, Inventory]:
    """pg_restore of the archive at `source` into the store's database (empty, or replaced
    with `force`), then migrated to this Meadow's schema and checked. Returns the archive's
    own revision and what the database holds."""
    magic = _magic(source)
    if magic.startswith(SQLITE_MAGIC):
        raise DataError(
            f"{source} is an SQLite backup; restore it into a data directory (without "
            "MEADOW_DATABASE_URL)"
        )
    if not magic.startswith(PG_DUMP_MAGIC):
        raise DataError(f"{source} is not a Meadow backup (not a pg_dump custom archive)")
    argv = pg_restore_command(store, source, force)
    tool = _tool("pg_restore", argv, then=" (then `meadow check-store`)")
    before = _dumped_revision(tool, source, str(source))
    with connected(store.url, store.shown) as connection:
        held = inspect(connection).get_table_names()
    if held and not force:
        raise DataError(
            f"{store.shown} already holds tables (a server may be using it); restore into "
            "an empty database, or stop every server on it and add --force to replace them"
        )
    _run([tool, *argv[1:]], _libpq(store)[1], "pg_restore")
    _migrate(store.url, store.shown)
    with connected(store.url, store.shown) as connection:
        found = check(connection, store.shown, tick=tick)
    return before, found
