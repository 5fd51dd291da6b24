"""`meadow train`: a game's evaluation and policy learned by self-play (`meadow.rl.train`)."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from meadow import games
from meadow.cli.app import app, console
from meadow.cli.common import check_writable_folder, game_options, progress
from meadow.core.errors import MeadowError

if TYPE_CHECKING:
    from meadow.rl.train import Plan


@app.command("train")
def train(
    game_id: str = typer.Argument(
        ..., metavar="GAME", help="topiary, harmonies, renature or mystic_vale."
    ),
    players: int = typer.Option(
        2, "--players", "-p", help="Seats (the learned evaluation is for 2)."
    ),
    option: list[str] | None = typer.Option(
        None, "--option", "-o", help="A game option, key=value (repeatable)."
    ),
    rounds: int = typer.Option(4, "--rounds", help="Rounds of self-play, fitting and measuring."),
    games_per_round: int = typer.Option(100, "--games", help="Self-play games a round."),
    epochs: int = typer.Option(6, "--epochs", help="Passes over all games so far, each round."),
    careless: float = typer.Option(
        0.1, "--careless", help="Share of the teacher's decisions played at random."
    ),
    targets: str = typer.Option(
        "end",
        "--targets",
        help="What the evaluation learns: end (the final lead) or round (what a round "
        "played on from each of a decision's best-looking moves adds).",
    ),
    seed: int = typer.Option(1, "--seed", help="The same seed plays the same games."),
    jobs: int = typer.Option(2, "--jobs", "-j", help="Worker processes for the games."),
    against: str = typer.Option(
        "random,greedy",
        "--against",
        help="The policy's opponents in the learning curve (comma-separated bots).",
    ),
    curve_games: int = typer.Option(
        20, "--curve-games", help="Games per opponent and round for the curve."
    ),
    out: Path = typer.Option(
        Path("meadow-models"),
        "--out",
        help="Where the model, its games and its curve go; a server plays it with "
        "MEADOW_MODELS=OUT.",
    ),
) -> None:
    """Learn GAME's evaluation and a policy by self-play, on the CPU, and write the model to
    OUT (resumable: run the same command again to go on where it stopped). A host whose game
    data differs from the packaged data (printed cards, a real board) retrains this way and
    sets MEADOW_MODELS=OUT for the server. Needs PyTorch: pip install 'meadow-tabletop\\[train]'."""
    try:
        import torch  # noqa: F401
    except ImportError:
        raise MeadowError(
            "meadow train needs PyTorch's CPU build: pip install 'meadow-tabletop[train]' "
            "(pip install torch==2.13.0 on the project's machine)"
        ) from None
    from meadow.rl.players import make_player
    from meadow.rl.selfplay import TARGETS
    from meadow.rl.train import Plan, Trainer, check_plan

    game = games.get(game_id)
    options = game_options(game, players, option).model_dump(mode="json")
    opponents = tuple(name.strip() for name in against.split(",") if name.strip())
    for name in opponents:
        make_player(name)  # an unknown bot is one line now, not after the first round
    plan = Plan(
        game=game.id,
        players=players,
        options=options,
        rounds=rounds,
        games=games_per_round,
        epochs=epochs,
        careless=careless,
        targets=targets,
        seed=seed,
        jobs=jobs,
        against=opponents,
        curve_games=curve_games,
    )
    check_plan(plan)
    out.mkdir(parents=True, exist_ok=True)
    check_writable_folder(out, "--out")
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        with _bar(plan) as advance:
            curve = Trainer(plan, out, advance).run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    table = Table(title=f"{game.title}: learning curve ({out})")
    error_name = TARGETS[targets][0]
    headings = ("round", "games", "min", f"{error_name} error", "hand-written", "policy agrees")
    for heading in headings:
        table.add_column(heading, justify="right")
    for opponent in opponents:
        table.add_column(f"policy vs {opponent}", justify="right")
    table.add_column("greedy+learned vs greedy", justify="right")
    for point in curve:
        table.add_row(
            str(point.round),
            str(point.games),
            f"{point.seconds / 60:.1f}",
            f"{point.value_error:.1f}",
            f"{point.hand_error:.1f}",
            f"{point.policy_agreement:.0%}",
            *(f"{point.win_share[o]:.0%}" for o in opponents),
            f"{point.evaluation_share:.0%}",
        )
    console.print(table)
    name = f"{game.id}-{players}p"
    console.print(f"model: {out / name}.json (+ .npz); curve: {out / name}-curve.png")


def _stop(signum: int, frame: object) -> None:
    """A run told to stop ends as Ctrl-C ends it: its worker processes stopped with it, and
    the rounds already played kept for the next run to go on from."""
    raise SystemExit(128 + signum)


@contextmanager
def _bar(plan: Plan) -> Iterator[Callable[[str], None]]:
    """A progress bar over the whole run: every self-play game, epoch and measured game."""
    per_round = plan.games + plan.epochs + plan.curve_games // 2 * 2 * (len(plan.against) + 1)
    with progress("training", plan.rounds * per_round, "steps") as advance:
        yield lambda _what: advance()
