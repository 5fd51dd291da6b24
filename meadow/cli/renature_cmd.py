"""`meadow renature ...`: tools for Renature's board files."""

from __future__ import annotations

from pathlib import Path

import typer

from meadow.cli.app import app, console
from meadow.core.errors import MeadowError
from meadow.games.renature import board as board_module
from meadow.games.renature import components

renature = typer.Typer(help="Renature tools: check a board file.", no_args_is_help=True)
app.add_typer(renature, name="renature")


@renature.command("check-board")
def check_board(
    path: Path = typer.Argument(
        ..., metavar="FILE", help="A board file (`meadow docs renature-boards`)."
    ),
) -> None:
    """Check a board file and print it as a text map."""
    board = board_module.load(path)
    tokens = None
    if board.kind == "base":
        tokens = [{"main": t.main} for t in components.area_tokens()]
    problems = board_module.count_problems(board, tokens)
    console.print(board_module.render(board), markup=False)
    areas = board.areas()
    sizes = ", ".join(f"{a}:{len(cells)}" for a, cells in areas.items())
    clouds = ", ".join(f"{board.name_of(x)}:{n}" for x, n in sorted(board.clouds.items()))
    console.print(
        f"{board.name} ({board.kind}{', stand-in' if board.standin else ''})", markup=False
    )
    console.print(f"{len(areas)} areas: {sizes}", markup=False)
    console.print(
        f"{len(board.brook_cells())} brook spaces, at most "
        f"{board_module.max_dominoes(board)} dominoes at once; clouds {clouds or 'none'}",
        markup=False,
    )
    if problems:
        raise MeadowError(f"{path}: " + "; ".join(problems))
    console.print("[green]the board is playable and its counts add up[/green]")
