"""The `meadow` command's Typer app and its two consoles, which every command module adds
to and prints on (`meadow.cli` runs the app).

A command's module is imported only when that command runs or shows its own help: the
modules import the games (and pydantic), some of them the server's stack, and `meadow
--help` or `meadow --version` should pay for none of it. The listing of `meadow --help`
shows each command's summary from the table below."""

from __future__ import annotations

import importlib
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperCommand, TyperGroup

# Each command: the module that adds it, and the summary `meadow --help` lists for it, in
# that order (tests/cli/test_imports.py holds each summary to the start of the command's own
# help, so the two cannot drift apart).
COMMANDS: dict[str, tuple[str, str]] = {
    "games": ("meadow.cli.games_cmd", "List the games, their player counts and their options."),
    "play": ("meadow.cli.play", "Play a game in the terminal against computer opponents"),
    "replay": ("meadow.cli.replay", "Replay a record move by move"),
    "analyse": ("meadow.cli.analyse_cmd", "Judge every decision of a record"),
    "simulate": ("meadow.cli.simulate", "Play N games of uniformly random moves"),
    "tournament": ("meadow.cli.tournament", "Play bots against each other with seats rotated"),
    "score": ("meadow.cli.score", "Score one board and print the breakdown as JSON"),
    "train": ("meadow.cli.train_cmd", "Learn GAME's evaluation and a policy by self-play"),
    "serve": ("meadow.cli.serve", "Serve Meadow"),
    "migrate": ("meadow.cli.migrate_cmd", "Apply the migrations the database lacks"),
    "backup": ("meadow.cli.backup_cmd", "Copy the server's database to FILE"),
    "restore": ("meadow.cli.backup_cmd", "Put a backup in place as the server's database"),
    "check-store": ("meadow.cli.backup_cmd", "Check the server's database without changing it"),
    "admin": ("meadow.cli.admin", "Moderate the site"),
    "export": ("meadow.cli.export_cmd", "Export the server's data."),
    "mystic-vale": ("meadow.cli.mystic_vale_cmd", "Mystic Vale tools"),
    "renature": ("meadow.cli.renature_cmd", "Renature tools"),
    "docs": ("meadow.cli.docs_cmd", "Print a document of Meadow's"),
}
DISTRIBUTION = "meadow-tabletop"  # the package index's name: "meadow" there is another project


class LazyGroup(TyperGroup):
    """The top-level group: a command's module is imported when the command runs or shows its
    own help; the listing of `meadow --help` shows the table's summaries instead."""

    listing = False  # while the help lists the commands

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in COMMANDS:
            module, summary = COMMANDS[cmd_name]
            if self.listing:
                return TyperCommand(name=cmd_name, help=summary)
            if cmd_name not in self.commands:
                importlib.import_module(module)
                self.commands.update(typer.main.get_group(app).commands)
        return super().get_command(ctx, cmd_name)


app = typer.Typer(
    name="meadow",
    help="Meadow: play, simulate and replay Renature, Mystic Vale, Topiary and Harmonies.",
    cls=LazyGroup,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)


def show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version(DISTRIBUTION)
        except PackageNotFoundError:  # run from a source tree that was never installed
            from meadow import __version__ as number
        console.print(f"meadow {number}")
        raise typer.Exit()


@app.callback()
def top(
    version: bool = typer.Option(
        False, "--version", callback=show_version, is_eager=True, help="Print the version."
    ),
) -> None:
    pass
