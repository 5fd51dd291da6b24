"""`meadow tournament`: bots against each other, seats rotated, win rates with intervals."""

from __future__ import annotations

import json
import math
import multiprocessing
import signal
import tempfile
import traceback
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import TypeVar

import typer
from rich.table import Table

from meadow import games
from meadow.bots import Bot, observe
from meadow.bots.base import Observation
from meadow.bots.bounds import Overran, hard_bound
from meadow.bots.levels import check_offered
from meadow.cli.app import app, console
from meadow.cli.common import game_options, progress
from meadow.core.actions import Action
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.rng import Rng, new_seed
from meadow.rl.players import make_player

T = TypeVar("T")

# Seconds any one decision may take before its game is stopped: far past every level's
# budget (a level thinks 3 s at most), so only a think that does not end meets it.
BOUND = 60.0
# Plies past which a game is taken not to end: random play ends every game in well under
# a thousand (Mystic Vale with 4 players, the longest, in some 480).
MOST_PLIES = 3_000


@dataclass(frozen=True)
class Match:
    game_id: str
    players: int
    options: dict[str, object]
    specs: tuple[str, ...]
    seed: int
    index: int
    bound: float = BOUND


def seating(specs: tuple[str, ...], players: int, index: int) -> list[int]:
    """Which bot sits in each seat in game `index`: the bots rotate through the seats.

    >>> seating(("a", "b"), 2, 0), seating(("a", "b"), 2, 1)
    ([0, 1], [1, 0])
    """
    return [(seat + index) % len(specs) for seat in range(players)]


def play_match(match: Match) -> tuple[list[int], list[int], list[float]]:
    """(bot per seat, scores, win share per seat) of one game."""
    game = games.get(match.game_id)
    state = game.setup(match.players, match.options, match.seed)
    who = seating(match.specs, match.players, match.index)
    bots = [make_player(match.specs[b], trust_imports=True) for b in who]
    rng = Rng(match.seed).spawn()
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(decide(bots[seat], observe(state, seat), rng, match, state))
    result = state.result()
    shares = [1 / len(result.winners) if s in result.winners else 0.0 for s in range(match.players)]
    return who, list(result.scores), shares


def decide(bot: Bot, observation: Observation, rng: Rng, match: Match, state: State) -> Action:
    """The bot's choice. A think past `match.bound` seconds, or a game past `MOST_PLIES`, is
    a bug in a bot or a game: the game stops, and the position (and where the think was) is
    kept in a file for its fix.

    Raises:
        MeadowError: the game was stopped; the message names it and the file.
    """
    seat = observation.seat
    spec = match.specs[seating(match.specs, match.players, match.index)[seat]]
    if state.ply >= MOST_PLIES:
        raise _stopped(match, state, seat, spec, f"the game reached ply {MOST_PLIES}", [])
    try:
        with hard_bound(match.bound):
            return bot.choose(observation, rng)
    except Overran as stopped:
        why = f"{spec} in seat {seat} thought past {match.bound:g} s at ply {state.ply}"
        where = traceback.format_exception(stopped)
        raise _stopped(match, state, seat, spec, why, where) from None


def _stopped(
    match: Match, state: State, seat: int, spec: str, why: str, stopped_in: list[str]
) -> MeadowError:
    kept = Path(tempfile.gettempdir()) / (
        f"stopped-{match.game_id}-seed{match.seed}-game{match.index}-ply{state.ply}.json"
    )
    where = {"why": why, "match": match.__dict__, "seat": seat, "bot": spec, "ply": state.ply}
    where["stopped_in"] = stopped_in
    where["state"] = state.to_json()
    kept.write_text(json.dumps(where, indent=1, default=str), encoding="utf-8")
    return MeadowError(
        f"{why} of game {match.index} (seed {match.seed}), and the game was stopped; the "
        f"position is in {kept}"
    )


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate.

    >>> [round(x, 3) for x in wilson(75, 100)]
    [0.657, 0.825]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@app.command()
def tournament(
    game_id: str = typer.Argument(..., metavar="GAME", help="A game id, see `meadow games`."),
    bots: str = typer.Option(
        ..., help="Comma-separated bots: random, greedy, mcts:1s, policy:module:function, ..."
    ),
    n: int = typer.Option(100, "-n", min=1, help="Number of games."),
    players: int = typer.Option(2, "--players", "-p", help="Number of seats."),
    seed: int | None = typer.Option(None, help="First seed; game i uses seed + i."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Game option key=value."),
    jobs: int = typer.Option(1, help="Games played at once (one process each), 1 or more."),
) -> None:
    """Play bots against each other with seats rotated; print win rates and mean scores."""
    game = games.get(game_id)
    options = game_options(game, players, option).model_dump()
    specs = tuple(s.strip() for s in bots.split(",") if s.strip())
    if not specs:
        raise MeadowError("--bots names no bot")
    if len(specs) == 1:
        raise MeadowError(
            f"--bots {specs[0]}: a tournament needs two bots or more, comma-separated "
            f"(to play a bot against itself: --bots {specs[0]},{specs[0]})"
        )
    if jobs < 1:
        raise MeadowError(f"--jobs {jobs}: games played at once must be 1 or more")
    for spec in specs:
        make_player(spec, trust_imports=True)  # refuses unknown bots before any game starts
        check_offered(spec, game.id)
    first = new_seed() if seed is None else seed
    matches = [Match(game.id, players, options, specs, first + i, i) for i in range(n)]
    seats_played = [0] * len(specs)
    wins = [0.0] * len(specs)
    scores: list[list[int]] = [[] for _ in specs]
    with progress(f"{game.title}: {' vs '.join(specs)}", n) as advance:
        if jobs > 1:
            with multiprocessing.Pool(jobs, initializer=_worker) as pool:
                outcomes = list(_tracked(pool.imap_unordered(play_match, matches), advance))
        else:
            outcomes = list(_tracked(map(play_match, matches), advance))
    for who, game_scores, shares in outcomes:
        for seat, bot in enumerate(who):
            seats_played[bot] += 1
            wins[bot] += shares[seat]
            scores[bot].append(game_scores[seat])
    table = Table(title=f"{game.title}, {players} players, {n} games, seeds {first}..")
    for column in ("bot", "seats", "wins", "win rate", "95 % interval", "mean score"):
        table.add_column(column, justify="right")
    for b, spec in enumerate(specs):
        low, high = wilson(wins[b], seats_played[b])
        rate = wins[b] / seats_played[b] if seats_played[b] else 0.0
        table.add_row(
            f"{spec} (#{b + 1})",
            str(seats_played[b]),
            f"{wins[b]:g}",
            f"{rate:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{fmean(scores[b]):.1f}",
        )
    console.print(table)


def _worker() -> None:
    """In a pool's process: Ctrl-C at a terminal reaches every process of the group, and each
    worker printed its traceback; the parent alone answers it, and stops the pool. SIGTERM
    (how the pool stops its workers) ends a worker at once, not as the parent's handler
    inherited through fork would."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _tracked(results: Iterable[T], advance: Callable[[], None]) -> Iterator[T]:
    for result in results:
        advance()
        yield result
