"""`meadow export games`: every finished game's record, one JSON object a line, for players'
statistics and for research."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import orjson
import typer
from rich.progress import Progress

from meadow import games
from meadow.cli.app import app, console, errors
from meadow.cli.backup_cmd import DATA_DIR, store_of
from meadow.core.errors import MeadowError

export = typer.Typer(help="Export the server's data.", no_args_is_help=True)
app.add_typer(export, name="export")


@export.command("games")
def export_games(
    file: Path = typer.Argument(..., metavar="FILE.jsonl", help="Where to write the games."),
    game: str | None = typer.Option(None, help="Only this game (see `meadow games`)."),
    since: datetime | None = typer.Option(
        None,
        formats=["%Y-%m-%d"],
        metavar="YYYY-MM-DD",
        help="Only games that ended on this day (UTC) or later.",
    ),
    data_dir: Path = DATA_DIR,
    force: bool = typer.Option(False, "--force", help="Replace FILE if it exists."),
) -> None:
    """Write every finished game to FILE.jsonl, one JSON object a line: the game's record
    as the replay download has it (format, game, players, options, seed, actions: the moves
    that stand, undone ones left out), with its table, its seats (person, bot, rating),
    when it ended, its scores and its ranking."""
    # Imported here, not at the top: commands that read no database do not load its stack.
    from meadow.server.backup import (
        MOST_PROBLEMS_SHOWN,
        DataError,
        beside,
        connected,
        migrations,
        put_in_place,
        revision_of,
    )
    from meadow.server.export import Skipped, finished_games

    # An export is often run again: a file of the last run (or any file) is kept unless said.
    if file.exists() and not force:
        raise MeadowError(f"{file} exists; give another name, or --force to replace it")
    store = store_of(data_dir)
    game_id = games.get(game).id if game is not None else None
    if store.file is not None and not store.file.is_file():
        raise DataError(f"there is no database at {store.file}")
    # A path that cannot be written: one line before any work. The export holds no secret.
    temporary = beside(file, "partial", private=False)
    skipped: list[Skipped] = []
    written = 0
    try:
        with connected(store.reader(), store.shown) as connection:
            revision = revision_of(connection, store.shown)
            head = migrations().get_current_head()
            if revision != head:
                raise DataError(
                    f"{store.shown} has schema {revision}, this Meadow's is {head}: start "
                    "`meadow serve` on it once (it migrates at start), then export"
                )
            start = since.replace(tzinfo=UTC) if since is not None else None
            total, lines = finished_games(connection, game_id, start)
            with (
                Progress(console=errors, transient=True, disable=not errors.is_terminal) as bar,
                open(temporary, "wb") as out,
            ):
                task = bar.add_task("exporting games", total=total)
                for line in lines:
                    if isinstance(line, Skipped):
                        skipped.append(line)
                    else:
                        out.write(orjson.dumps(line) + b"\n")
                        written += 1
                    bar.advance(task)
        put_in_place(temporary, file)
    finally:
        temporary.unlink(missing_ok=True)
    console.print(f"{written} finished games written to {file}")
    if skipped:
        for left in skipped[:MOST_PROBLEMS_SHOWN]:
            errors.print(f"table {left.table} left out: {left.reason}", markup=False)
        errors.print(f"{len(skipped)} games left out (`meadow check-store` lists every problem)")
        raise typer.Exit(1)
