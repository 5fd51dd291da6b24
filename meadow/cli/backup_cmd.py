"""`meadow backup`, `meadow restore` and `meadow check-store`: a server's database copied
while it runs, put back, and checked. They find the database as `meadow serve` does: SQLite
in the data directory, or MEADOW_DATABASE_URL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.progress import Progress

from meadow.cli.app import app, console, errors
from meadow.cli.serve import settings

# The backup module (SQLAlchemy and Alembic with it) is imported in the commands, not here:
# `meadow --help` and `meadow games` load none of the server's stack.
if TYPE_CHECKING:
    from meadow.server.backup import Inventory, Store, Tick

DATA_DIR = typer.Option(
    None, help="Data directory (default ./meadow-data; ignored with MEADOW_DATABASE_URL)."
)


def store_of(data_dir: Path | None) -> Store:
    """The database `meadow serve --data-dir DATA_DIR` would use."""
    from meadow.server.backup import Store

    return Store.of(settings(**({"data_dir": data_dir} if data_dir is not None else {})))


@app.command()
def backup(
    file: Path = typer.Argument(..., metavar="FILE", help="Where to write the backup."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Copy the server's database to FILE, safely while it runs: SQLite's online backup of
    the data directory's database, or pg_dump's custom format for MEADOW_DATABASE_URL."""
    from meadow.server.backup import backup_postgres, backup_sqlite

    store = store_of(data_dir)
    if store.file is not None:
        found, size = backup_sqlite(store, file)
        console.print(f"{store.shown} backed up to {file} ({size}): {found.summary()}")
    else:
        revision, size = backup_postgres(store, file)
        console.print(f"{store.shown} backed up to {file} ({size}, pg_dump): schema {revision}")


@app.command()
def restore(
    file: Path = typer.Argument(..., metavar="FILE", help="A backup made by `meadow backup`."),
    data_dir: Path = DATA_DIR,
    force: bool = typer.Option(
        False, "--force", help="Replace the database there (stop every server on it first)."
    ),
) -> None:
    """Put a backup in place as the server's database, migrate it to this Meadow's schema
    and check it: every table's move log must replay."""
    from meadow.server.backup import restore_postgres, restore_sqlite

    store = store_of(data_dir)
    with _ticking("checking the tables") as tick:
        if store.file is not None:
            before, found = restore_sqlite(store, file, force, tick)
        else:
            before, found = restore_postgres(store, file, force, tick)
    migrated = f", migrated from schema {before}" if before != found.revision else ""
    console.print(f"{file} restored into {store.shown}{migrated}: {found.summary()}")
    _report(found)


@app.command("check-store")
def check_store(data_dir: Path = DATA_DIR) -> None:
    """Check the server's database without changing it: its schema, its counts, and that
    every table's move log replays."""
    from meadow.server.backup import DataError, check, connected

    store = store_of(data_dir)
    if store.file is not None and not store.file.is_file():
        raise DataError(f"there is no database at {store.file}")
    with connected(store.reader(), store.shown) as connection, _ticking("checking") as tick:
        found = check(connection, store.shown, tick=tick)
    console.print(f"{store.shown}: {found.summary()}")
    _report(found)


def _report(found: Inventory) -> None:
    """Every table's log replays, or which do not (and a non-zero exit)."""
    from meadow.server.backup import MOST_PROBLEMS_SHOWN

    if not found.problems:
        console.print("every table's move log replays")
        return
    for problem in found.problems[:MOST_PROBLEMS_SHOWN]:
        errors.print(problem, markup=False)
    more = len(found.problems) - MOST_PROBLEMS_SHOWN
    if more > 0:
        errors.print(f"and {more} more")
    errors.print(f"{len(found.problems)} tables' move logs do not replay")
    raise typer.Exit(1)


@contextmanager
def _ticking(what: str) -> Iterator[Tick]:
    """A progress bar on a terminal; nothing where the output is read by a program."""
    with Progress(console=errors, transient=True, disable=not errors.is_terminal) as progress:
        task = progress.add_task(what, total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield tick
