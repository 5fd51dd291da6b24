"""`meadow simulate`: many random games, with score and win statistics."""

from __future__ import annotations

import time
from statistics import fmean

import typer
from rich.table import Table

from meadow import games
from meadow.cli.app import app, console
from meadow.cli.common import game_options, progress
from meadow.core.play import random_playout
from meadow.core.rng import Rng, new_seed


@app.command()
def simulate(
    game_id: str = typer.Argument(..., metavar="GAME", help="A game id, see `meadow games`."),
    n: int = typer.Option(100, "-n", min=1, help="Number of games."),
    players: int = typer.Option(2, "--players", "-p", help="Number of seats."),
    seed: int | None = typer.Option(None, help="First seed; game i uses seed + i."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Game option key=value."),
) -> None:
    """Play N games of uniformly random moves and print score statistics."""
    game = games.get(game_id)
    options = game_options(game, players, option)
    first = new_seed() if seed is None else seed
    scores: list[list[int]] = [[] for _ in range(players)]
    wins = [0.0] * players
    plies: list[int] = []
    started = time.perf_counter()
    with progress(f"{game.title}, {players} players", n) as advance:
        for i in range(n):
            state = game.setup(players, options, first + i)
            plies.append(random_playout(state, Rng(first + i).spawn()))
            result = state.result()
            for seat, score in enumerate(result.scores):
                scores[seat].append(score)
            for seat in result.winners:
                wins[seat] += 1 / len(result.winners)
            advance()
    elapsed = time.perf_counter() - started

    table = Table(title=f"{game.title}: {n} random games, {players} players, seeds {first}..")
    for column in ("seat", "mean score", "min", "max", "win share"):
        table.add_column(column, justify="right")
    for seat in range(players):
        table.add_row(
            str(seat),
            f"{fmean(scores[seat]):.2f}",
            str(min(scores[seat])),
            str(max(scores[seat])),
            f"{wins[seat] / n:.1%}",
        )
    console.print(table)
    everyone = [s for seat_scores in scores for s in seat_scores]
    console.print(
        f"all seats: mean {fmean(everyone):.2f}, min {min(everyone)}, max {max(everyone)}; "
        f"{fmean(plies):.1f} decisions per game; {n / elapsed:.1f} games/s"
    )
