"""The `meadow` command's Typer app and its two consoles, which every command module adds
to and prints on (`meadow.cli` registers the commands and runs the app)."""

from __future__ import annotations

import typer
from rich.console import Console

app = typer.Typer(
    name="meadow",
    help="Meadow: play, simulate and replay Renature, Mystic Vale, Topiary and Harmonies.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)
