"""`meadow play`: a person plays in the terminal against computer opponents."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from rich.table import Table

from meadow import games
from meadow.bots import observe
from meadow.bots.levels import check_offered
from meadow.cli.app import app, console
from meadow.cli.common import check_writable_file, game_options
from meadow.core.actions import Action, Event
from meadow.core.errors import MeadowError
from meadow.core.game import Game, State
from meadow.core.record import GameRecord
from meadow.core.result import Result
from meadow.core.rng import Rng, new_seed
from meadow.rl.players import make_player


def _help(example: Action) -> str:
    """What can be typed, with an action of this game as the example (each game's notation
    differs)."""
    return (
        f"Type the number of an action or the action itself (e.g. '{example}').\n"
        "Other commands: 'help', 'board' (draw again), 'save FILE' (save the record), 'quit'."
    )


@app.command()
def play(
    game_id: str = typer.Argument(..., metavar="GAME", help="A game id, see `meadow games`."),
    players: int = typer.Option(2, "--players", "-p", help="Number of seats."),
    seat: int = typer.Option(0, help="Your seat (0 moves first)."),
    seed: int | None = typer.Option(None, help="Seed for a repeatable game."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Game option key=value."),
    save: Path | None = typer.Option(None, help="Save the game record here when it ends."),
    bot: str = typer.Option(
        "easy",
        "--bot",
        "-b",
        help="The opponents: a level (beginner, easy, medium, hard, expert) or a bot: random, "
        "greedy, mcts:<n>, mcts:<s>s, turn:<width>:<s>s, reply:<width>:<s>s, "
        "policy:module:function.",
    ),
) -> None:
    """Play a game in the terminal against computer opponents (they see only their seats)."""
    game = games.get(game_id)
    options = game_options(game, players, option)
    if not 0 <= seat < players:
        raise MeadowError(f"--seat {seat}: seats are 0..{players - 1}")
    opponent = make_player(bot, trust_imports=True)  # the person at this terminal chose it
    check_offered(bot.strip(), game.id)
    check_budget(bot.strip())
    if save is not None:
        check_writable_file(save, "--save")
    record, state = GameRecord.start(
        game, players, options.model_dump(), new_seed() if seed is None else seed
    )
    opponents = Rng(new_seed())
    help_text = _help(state.legal_actions()[0])
    who = (
        "1 player: you play alone"
        if players == 1
        else f"{players} players; you are seat {seat}, against {opponent.name}"
    )
    console.print(f"[bold]{game.title}[/bold], {who}. {help_text}")
    try:
        while not state.is_over:
            if state.to_move == seat:
                action = _ask(game, state, seat, record, help_text)
                if action is None:
                    _finish_early(record, save)
                    return
            else:
                action = opponent.choose(observe(state, state.to_move), opponents)
            events = state.apply(action)
            record.add(action)
            _show_events(game, events, seat)
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM, at the prompt or while a bot thinks: the record is kept as
        # `quit` keeps it, then the command line says "interrupted". A move is recorded
        # only once applied, so the record replays whenever it came.
        _finish_early(record, save)
        raise
    console.print(game.render_text(state.view(seat)), markup=False)
    _show_result(state.result(), seat)
    if save is not None:
        _save_at_end(record, save, "")


def check_budget(spec: str) -> None:
    """Refuse a think longer than any server may allow (MEADOW_BOT_MAX_SECONDS at most, and
    its iterations likewise): a slip (mcts:3000s for mcts:3000) would leave the person
    waiting for an hour a move."""
    from meadow.server.settings import BOT_MOST_ITERATIONS, BOT_MOST_SECONDS

    kind, _, rest = spec.partition(":")
    for part in rest.split(":"):
        if part.endswith("s") and _number(part[:-1]) > BOT_MOST_SECONDS:
            raise MeadowError(
                f"--bot {spec}: a computer thinks {BOT_MOST_SECONDS:g} s a move at most "
                "(the most MEADOW_BOT_MAX_SECONDS allows a server)"
            )
    iterations = rest.split(":")[0]
    if kind == "mcts" and iterations.isdigit() and int(iterations) > BOT_MOST_ITERATIONS:
        raise MeadowError(
            f"--bot {spec}: a computer searches {BOT_MOST_ITERATIONS:,} iterations a move "
            "at most (the most MEADOW_BOT_MAX_ITERATIONS allows a server)"
        )


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0  # not a budget: make_player has judged it


def _ask(game: Game, state: State, seat: int, record: GameRecord, help_text: str) -> Action | None:
    """Prompt until the person gives a legal action; `None` if they quit."""
    actions = state.legal_actions()
    console.print()
    console.print(game.render_text(state.view(seat)), markup=False)
    _list_actions(actions)
    while True:
        try:
            reply = console.input("[bold]your move>[/bold] ").strip()
        except EOFError:
            return None
        if not reply:
            continue
        word, _, rest = reply.partition(" ")
        if word in ("quit", "exit", "q"):
            return None
        if word in ("help", "?"):
            console.print(help_text, markup=False)
            continue
        if word == "board":
            console.print(game.render_text(state.view(seat)), markup=False)
            _list_actions(actions)
            continue
        if word == "save":
            _save(record, rest)
            continue
        action = _read_action(state, actions, reply)
        if action is not None:
            return action


def _read_action(state: State, actions: list[Action], reply: str) -> Action | None:
    if reply.isdigit():
        number = int(reply)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        console.print(f"{number} is not on the list; choose 1..{len(actions)}", style="red")
        return None
    try:
        action = state.parse_action(reply)
    except MeadowError as exc:
        console.print(str(exc), style="red", markup=False)
        return None
    if action not in actions:
        probe = state.clone()
        try:
            probe.apply(action)
        except MeadowError as exc:
            console.print(str(exc), style="red", markup=False)
            return None
    return action


def _list_actions(actions: list[Action]) -> None:
    width = len(str(len(actions)))
    items = [f"{i:>{width}}. {a}" for i, a in enumerate(actions, 1)]
    table = Table.grid(padding=(0, 3))
    columns = 4 if len(items) > 12 else 1
    for _ in range(columns):
        table.add_column()
    rows = (len(items) + columns - 1) // columns
    for r in range(rows):
        table.add_row(
            *(items[r + k * rows] if r + k * rows < len(items) else "" for k in range(columns))
        )
    console.print(table)


def _show_events(game: Game, events: list[Event], seat: int) -> None:
    for event in events:
        console.print(f"  {game.event_text(event.for_seat(seat))}", style="dim", markup=False)


def _show_result(result: Result, seat: int) -> None:
    categories = list(result.breakdown[0])
    table = Table(title="Final scores")
    table.add_column("place", justify="right")
    table.add_column("seat")
    for category in categories:
        table.add_column(category, justify="right")
    table.add_column("total", justify="right")
    for group in result.ranking:
        for s in group:
            name = f"{s} (you)" if s == seat else str(s)
            row = [str(result.breakdown[s][k]) for k in categories]
            table.add_row(str(result.place(s)), name, *row, str(result.scores[s]))
    console.print(table)
    for key, value in result.extra.items():
        console.print(f"{key}: {value}")
    if result.tiebreak:
        console.print(f"ties are broken by: {', '.join(result.tiebreak)}")


def _save(record: GameRecord, path_text: str) -> None:
    if not path_text.strip():
        console.print("[red]save needs a file name: save game.json[/red]")
        return
    try:
        record.save(Path(path_text.strip()))
    except OSError as exc:
        console.print(
            f"cannot save to {path_text.strip()}: {exc.strerror}", style="red", markup=False
        )
        return
    console.print(f"record saved to {path_text.strip()}")


def _finish_early(record: GameRecord, save: Path | None) -> None:
    console.print("game left unfinished.")
    if save is not None:
        _save_at_end(record, save, " (it replays up to here)")


def _save_at_end(record: GameRecord, save: Path, note: str) -> None:
    """Save to `save`, checked at the start; should it fail now (the disk filled, the folder
    went), the record is kept in a temporary file and the person is told where."""
    try:
        record.save(save)
    except OSError as exc:
        with tempfile.NamedTemporaryFile(
            "w", prefix=f"meadow-{record.game}-", suffix=".json", delete=False
        ) as kept:
            kept_path = Path(kept.name)
        record.save(kept_path)
        raise MeadowError(
            f"cannot save to {save}: {exc.strerror}; the record is kept in {kept_path}"
        ) from None
    console.print(f"record saved to {save}{note}")
