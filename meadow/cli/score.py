"""`meadow score`: the score calculator for a board from a cardboard game."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from meadow import games
from meadow.cli.app import app
from meadow.core.data import parse_json
from meadow.core.errors import MeadowError


@app.command()
def score(
    game_id: str = typer.Argument(..., metavar="GAME", help="A game with a calculator."),
    board_path: Path = typer.Argument(..., metavar="BOARD.json", help="The board to score."),
) -> None:
    """Score one board and print the breakdown as JSON (`meadow docs harmonies-calculator`)."""
    game = games.get(game_id)
    try:
        raw = board_path.read_bytes()
    except OSError as exc:
        raise MeadowError(f"cannot read {board_path}: {exc.strerror}") from None
    data = parse_json(str(board_path), raw)
    typer.echo(json.dumps(game.score_board(data), indent=2))
