"""`meadow replay`: step through a saved game record."""

from __future__ import annotations

from pathlib import Path

import typer

from meadow import games
from meadow.cli.app import app, console
from meadow.cli.play import _show_result
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.record import GameRecord


@app.command()
def replay(
    record_path: Path = typer.Argument(..., metavar="RECORD.json", help="A saved game record."),
    seat: int | None = typer.Option(None, help="Show the game as this seat saw it."),
    step: bool = typer.Option(True, help="Wait for Enter after each move (--no-step: print all)."),
) -> None:
    """Replay a record move by move: Enter for the next move, 'b' back, 'q' to stop."""
    record = GameRecord.load(record_path)
    game = games.get(record.game)
    states: list[State] = [record.initial_state()]
    texts: list[str] = []
    for _, action, events, state in record.steps():
        states.append(state.clone())
        lines = [f"move {len(states) - 1}: {action}"]
        lines += [f"  {game.event_text(e.for_seat(seat))}" for e in events]
        texts.append("\n".join(lines))
    if seat is not None and not 0 <= seat < record.players:
        raise MeadowError(f"--seat {seat}: this record has seats 0..{record.players - 1}")

    console.print(f"[bold]{game.title}[/bold], {record.players} players, {len(texts)} moves")
    index = 0
    console.print(game.render_text(states[0].view(seat)), markup=False)
    while index < len(texts):
        if step:
            reply = _prompt()
            if reply == "q":
                return
            if reply == "b":
                index = max(index - 1, 0)
                console.print(f"[dim]back to move {index}[/dim]")
                console.print(game.render_text(states[index].view(seat)), markup=False)
                continue
        console.print(texts[index], markup=False)
        index += 1
        console.print(game.render_text(states[index].view(seat)), markup=False)
    final = states[-1]
    if final.is_over:
        _show_result(final.result(), -1 if seat is None else seat)
    else:
        console.print("the record ends here; the game was left unfinished")


def _prompt() -> str:
    try:
        return console.input("[dim]Enter: next, b: back, q: quit[/dim] ").strip().lower()
    except EOFError:
        return "q"
