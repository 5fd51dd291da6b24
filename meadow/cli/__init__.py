"""The `meadow` command line (Typer + Rich). Every error a person can cause is shown as one
readable line; a traceback means a bug and is shown only with MEADOW_DEBUG=1."""

from __future__ import annotations

import os
import sys

from rich.text import Text

from meadow.cli.app import app, errors
from meadow.core.errors import MeadowError


def _register() -> None:
    from meadow.cli import (  # noqa: F401 - they add commands
        admin,
        analyse_cmd,
        backup_cmd,
        export_cmd,
        games_cmd,
        migrate_cmd,
        mystic_vale_cmd,
        play,
        renature_cmd,
        replay,
        score,
        serve,
        simulate,
        tournament,
        train_cmd,
    )


def main(argv: list[str] | None = None) -> None:
    """Run the command line; `argv` defaults to `sys.argv[1:]` (tests pass their own)."""
    from meadow.core.data import deprecation_note

    note = deprecation_note()
    if note:
        errors.print(Text("note: ", style="yellow") + Text(note))
    try:
        _register()  # imports the games: a broken data file read at import is still one line
        app(args=argv, prog_name="meadow")
    except MeadowError as exc:
        errors.print(Text("error: ", style="red") + Text(str(exc)))
        sys.exit(2)
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)
    except Exception as exc:
        if os.environ.get("MEADOW_DEBUG"):
            raise
        errors.print(
            Text("internal error: ", style="red")
            + Text(f"{type(exc).__name__}: {exc}\n")
            + Text("This is a bug in Meadow; run again with MEADOW_DEBUG=1 for details.")
        )
        sys.exit(70)
