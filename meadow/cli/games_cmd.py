"""`meadow games`: the registered games, their player counts and options."""

from __future__ import annotations

from meadow import games
from meadow.cli.app import app, console


@app.command("games")
def list_games() -> None:
    """List the games, their player counts and their options."""
    for game in games.all():
        info = game.describe()
        players = info["players"]
        console.print(
            f"[bold]{info['title']}[/bold] ({info['id']}), {players[0]}-{players[-1]} players"
        )
        for option in info["options"]:
            choices = option["choices"]
            values = " | ".join(str(v) for v in choices) if choices else option["type"]
            console.print(
                f"  [bold]{option['name']}[/bold] = {option['default']}  ({values})\n"
                f"      {option['description']}"
            )
        console.print()
