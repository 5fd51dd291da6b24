"""The `meadow` command line (Typer + Rich). Every error a person can cause is shown as one
readable line; a traceback means a bug and is shown only with MEADOW_DEBUG=1."""

from __future__ import annotations

import importlib
import os
import signal
import sys
from types import FrameType

from rich.text import Text

from meadow.cli.app import COMMANDS, app, errors


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is, as Ctrl-C is: what catches an interruption to
    keep its work (`meadow play --save`) keeps it for both."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def _register() -> None:
    """Import every command's module (`main` imports only the one it runs)."""
    for module in dict.fromkeys(module for module, _ in COMMANDS.values()):
        importlib.import_module(module)


def main(argv: list[str] | None = None) -> None:
    """Run the command line; `argv` defaults to `sys.argv[1:]` (tests pass their own)."""
    # meadow.core loads pydantic: only a host that still sets the old name pays for the note.
    if os.environ.get("MEADOW_DATA"):
        from meadow.core.data import deprecation_note

        note = deprecation_note()
        if note:
            errors.print(Text("note: ", style="yellow") + Text(note))
    # Every command ends on SIGTERM as on Ctrl-C: one line, and what can be kept is kept
    # (Python's default would end the process at once, silently, a record unsaved).
    previous = signal.signal(signal.SIGTERM, _terminate) if _main_thread() else None
    try:
        # A command's module imports the games when it runs: a broken data file read at
        # import is still one line.
        app(args=argv, prog_name="meadow")
    except (KeyboardInterrupt, SystemExit) as exc:
        # Typer ends a command's KeyboardInterrupt itself, silently, with exit 130.
        interruption = _interruption(exc)
        if interruption is None or (isinstance(exc, SystemExit) and exc.code != 130):
            raise
        terminated = isinstance(interruption, Terminated)
        errors.print("terminated" if terminated else "interrupted")
        sys.exit(128 + (signal.SIGTERM if terminated else signal.SIGINT))
    except Exception as exc:
        # Imported here: meadow.core loads pydantic, which `meadow --help` need not.
        from meadow.core.errors import MeadowError

        if isinstance(exc, MeadowError):
            errors.print(Text("error: ", style="red") + Text(str(exc)))
            sys.exit(2)
        if os.environ.get("MEADOW_DEBUG"):
            raise
        errors.print(
            Text("internal error: ", style="red")
            + Text(f"{type(exc).__name__}: {exc}\n")
            + Text("This is a bug in Meadow; run again with MEADOW_DEBUG=1 for details.")
        )
        sys.exit(70)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interruption(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or SIGTERM that ended the command, if one did: `exc` itself, or what
    Typer's exit 130 was raised from."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, KeyboardInterrupt):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
