"""`meadow migrate`: bring the database's schema up to this version of Meadow before any
server starts (a container's entry point, an upgrade), waiting for the database if asked."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import typer

from meadow.cli.app import app, console
from meadow.cli.common import check_writable_folder
from meadow.cli.serve import settings, where
from meadow.core.errors import MeadowError


@app.command()
def migrate(
    wait: float = typer.Option(
        0, min=0, help="Seconds to wait for the database to answer (a container starting)."
    ),
    data_dir: Path = typer.Option(
        None, help="Data directory (default ./meadow-data; ignored with MEADOW_DATABASE_URL)."
    ),
) -> None:
    """Apply the migrations the database lacks (Alembic), as `meadow serve` does at start.
    Several at once on one PostgreSQL database are safe: one migrates, the others wait."""
    from sqlalchemy import text
    from sqlalchemy.exc import DatabaseError, OperationalError

    from meadow.store import Database
    from meadow.store.db import migrations_head

    config = settings(**({"data_dir": data_dir} if data_dir is not None else {}))
    say = _teller(config.log_format)
    shown = where(config)
    if not config.database_url:
        check_writable_folder(config.data_dir, "--data-dir" if data_dir else "MEADOW_DATA_DIR")
    db = Database(config.database())
    deadline = time.monotonic() + wait
    told = False
    try:
        while True:
            try:
                with db.engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
                break
            except OperationalError as exc:
                if time.monotonic() >= deadline:
                    reason = str(exc.orig).strip().splitlines()[0] if exc.orig else "no answer"
                    raise MeadowError(f"{shown} does not answer: {reason}") from None
                if not told:
                    say(f"waiting up to {wait:.0f} s for {shown}")
                    told = True
                time.sleep(1)
        db.migrate()
    except DatabaseError as exc:
        # It answered, but what answered is no database (a file of another kind): the
        # person's mistake, said in a line, not a bug.
        if isinstance(exc, OperationalError):
            raise
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        raise MeadowError(f"{shown}: not a database Meadow can use: {reason}") from None
    finally:
        db.dispose()
    say(f"{shown}: schema at {migrations_head()}")


def _teller(log_format: str) -> Callable[[str], None]:
    """How to say what is happening: a line for a person, or a line of the server's JSON
    log (a container's log, where `meadow serve` follows)."""
    if log_format != "json":
        return console.print
    import logging.config

    from meadow.server import logs

    logging.config.dictConfig(logs.config("json"))
    return logging.getLogger("meadow.migrate").info
