"""Helpers shared by the commands: option parsing, opponent choice, and the paths a command will
write, checked before any work starts."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from meadow.core.errors import MeadowError
from meadow.core.game import Game
from meadow.core.options import GameOptions, parse_option_pairs


def game_options(game: Game, players: int, pairs: list[str] | None) -> GameOptions:
    """Options from repeated `--option key=value` flags, validated for this game."""
    return game.options(players, parse_option_pairs(pairs or []))


def check_writable_file(path: Path, what: str) -> None:
    """Refuse now, not after the work, a file that cannot be written. The file is opened for
    appending (an existing one is left as it is) and removed again if this made it; trying is
    the only check that holds for every reason (permissions, root, a read-only disk)."""
    if path.is_dir():
        raise MeadowError(f"{what} {path}: is a folder; give a file name")
    existed = path.exists()
    try:
        with path.open("a"):
            pass
    except OSError as exc:
        raise MeadowError(f"{what} {path}: cannot write there: {exc.strerror}") from None
    if not existed:
        path.unlink(missing_ok=True)


def check_writable_folder(folder: Path, what: str) -> None:
    """Refuse now a folder that cannot be made or written in. Nothing is created: the nearest
    folder that exists is tried with a temporary file."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise MeadowError(f"{what} {folder}: {existing} is a file, not a folder")
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise MeadowError(f"{what} {folder}: cannot write in {existing}: {exc.strerror}") from None


PROGRESS_SECONDS = 10.0  # between progress lines when the output is not a terminal


@contextmanager
def progress(label: str, total: int, unit: str = "games") -> Iterator[Callable[[], None]]:
    """Progress of a long job, as a callable to call once per item done: a bar on a terminal;
    otherwise (a file, a pipe, a CI log) a line on standard error every PROGRESS_SECONDS, so
    that a job minutes long is not silent."""
    from rich.progress import Progress

    from meadow.cli.app import console, errors

    if console.is_terminal:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task(label, total=total)
            yield lambda: bar.advance(task)
        return
    started = last = time.monotonic()
    done = 0

    def advance() -> None:
        nonlocal done, last
        done += 1
        now = time.monotonic()
        if now - last >= PROGRESS_SECONDS and done < total:
            last = now
            errors.print(
                f"{label}: {done}/{total} {unit} ({done / total:.0%}), {now - started:.0f} s",
                markup=False,
                highlight=False,
            )

    yield advance
