"""The ladder of levels in one game: pairs of levels play, then one Elo fit over all.

Neighbouring levels play each other (`--pairs all`: every pair, a full round robin; `random`
joins with `--random`), `-n` 2-player games a pair: each deal twice, seats swapped. Ratings
come from one Bradley-Terry fit to every result at once (maximum likelihood; a tie counts half
a win each), `random` at 0 when it plays, else the weakest entrant; each pair also plays one
virtual drawn game, which keeps a rating finite when a level wins every game. The 95 %
intervals come from the fit's Fisher information. Thinking time is the mean wall time of
`choose` over decisions with more than one legal action.

    nice -n 10 .venv/bin/python -m bench.ladder topiary -n 60 --jobs 2 \\
        --record bench/results/ladder-topiary.jsonl --package

Neighbours are enough to place every level (the fit needs the pairs connected): the gap
between two levels is what the ladder is for, and at the real budgets (3 s a decision for
expert) a round robin costs twice the time. With `--record`, every finished game is
appended to a JSON-lines file at once and the games already there (same bots, same deal)
are not played again: a run cut short resumes where it stopped, a long ladder is played in
parts (`--levels hard,expert` today, the rest tomorrow), and the fit and the report cover
every recorded game of the pairs asked for.

`--as medium=mcts:50` plays a level with another bot (development runs at reduced budgets);
such a level is written to the package's ladder as not measured (`measured: false`), since
the lobby's level plays another bot. `--package` writes the ratings into
meadow/bots/ladder.json, which the lobby shows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import fmean
from typing import Any

from meadow import games
from meadow.bots import observe
from meadow.bots.levels import LADDER_FILE, LEVELS, offered, spec_for
from meadow.cli.tournament import Match, decide, seating, wilson
from meadow.core.errors import MeadowError
from meadow.core.rng import Rng
from meadow.rl.players import make_player

ELO = 400 / math.log(10)  # Elo points per unit of log-odds
Z = 1.96


@dataclass(frozen=True)
class Rating:
    elo: float
    low: float
    high: float


@dataclass
class Pairing:
    """The games of one pair of entrants, `a` and `b` (indices)."""

    a: int
    b: int
    games: int = 0
    wins: float = 0.0  # a's, ties counted half
    scores: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))


# -- the fit ------------------------------------------------------------------------------


def fit_elo(
    results: list[tuple[int, int, float]], entrants: int, anchor: int = 0, prior: float = 1.0
) -> list[Rating]:
    """Elo ratings (and 95 % intervals) of `entrants` from games (i, j, i's score: 1 win, 0.5
    tie, 0 loss), by maximum likelihood of the Bradley-Terry model, `anchor` at 0. Each pair
    that played adds `prior` virtual games scored half and half: a level that won every game
    gets a large, finite rating with a wide interval instead of infinity.

    >>> [round(r.elo) for r in fit_elo([(1, 0, 1.0)] * 76 + [(1, 0, 0.0)] * 24, 2, prior=0)]
    [0, 200]
    """
    games_between: dict[tuple[int, int], float] = {}
    won: dict[tuple[int, int], float] = {}  # the lower index's score
    for i, j, score in results:
        key, first = ((i, j), score) if i < j else ((j, i), 1.0 - score)
        games_between[key] = games_between.get(key, 0.0) + 1.0
        won[key] = won.get(key, 0.0) + first
    for key in games_between:
        games_between[key] += prior
        won[key] += prior / 2
    free = [k for k in range(entrants) if k != anchor]
    theta = [0.0] * entrants
    for _ in range(100):
        gradient, information = _derivatives(theta, games_between, won, free)
        step = _solve(information, gradient)
        if step is None:
            raise ValueError("the results do not connect every entrant to the anchor")
        scale = 1.0
        before = _log_likelihood(theta, games_between, won)
        while scale > 1e-6:  # Newton's step, halved until it improves the fit
            trial = list(theta)
            for row, k in enumerate(free):
                trial[k] += scale * step[row]
            if _log_likelihood(trial, games_between, won) >= before - 1e-12:
                break
            scale /= 2
        theta = trial
        if max(abs(s) for s in step) * scale < 1e-10:
            break
    _, information = _derivatives(theta, games_between, won, free)
    covariance = _inverse(information)
    ratings = [Rating(0.0, 0.0, 0.0) for _ in range(entrants)]
    for row, k in enumerate(free):
        spread = Z * math.sqrt(covariance[row][row]) * ELO
        ratings[k] = Rating(theta[k] * ELO, theta[k] * ELO - spread, theta[k] * ELO + spread)
    return ratings


def _expected(theta: list[float], i: int, j: int) -> float:
    return 1 / (1 + math.exp(theta[j] - theta[i]))


def _log_likelihood(
    theta: list[float],
    games_between: dict[tuple[int, int], float],
    won: dict[tuple[int, int], float],
) -> float:
    total = 0.0
    for (i, j), n in games_between.items():
        p = _expected(theta, i, j)
        total += won[(i, j)] * math.log(p) + (n - won[(i, j)]) * math.log(1 - p)
    return total


def _derivatives(
    theta: list[float],
    games_between: dict[tuple[int, int], float],
    won: dict[tuple[int, int], float],
    free: list[int],
) -> tuple[list[float], list[list[float]]]:
    """The log-likelihood's gradient and the Fisher information over the free entrants."""
    row_of = {k: row for row, k in enumerate(free)}
    gradient = [0.0] * len(free)
    information = [[0.0] * len(free) for _ in free]
    for (i, j), n in games_between.items():
        p = _expected(theta, i, j)
        surprise = won[(i, j)] - n * p
        weight = n * p * (1 - p)
        for k, sign in ((i, 1.0), (j, -1.0)):
            if k in row_of:
                gradient[row_of[k]] += sign * surprise
                information[row_of[k]][row_of[k]] += weight
        if i in row_of and j in row_of:
            information[row_of[i]][row_of[j]] -= weight
            information[row_of[j]][row_of[i]] -= weight
    return gradient, information


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """x with matrix x = vector (Gaussian elimination), None when the matrix is singular."""
    size = len(vector)
    rows = [[*matrix[r], vector[r]] for r in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(size):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[r][size] / rows[r][r] for r in range(size)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    size = len(matrix)
    columns = []
    for c in range(size):
        column = _solve(matrix, [1.0 if r == c else 0.0 for r in range(size)])
        assert column is not None
        columns.append(column)
    return [[columns[c][r] for c in range(size)] for r in range(size)]


# -- the games ----------------------------------------------------------------------------


def play_timed(match: Match) -> tuple[list[int], list[int], list[float], list[tuple[float, int]]]:
    """As `meadow.cli.tournament.play_match`, plus per seat the seconds spent in `choose` and
    the number of decisions (more than one legal action) they went to."""
    game = games.get(match.game_id)
    state = game.setup(match.players, match.options, match.seed)
    who = seating(match.specs, match.players, match.index)
    bots = [make_player(match.specs[b], trust_imports=True) for b in who]
    rng = Rng(match.seed).spawn()
    thought = [(0.0, 0) for _ in who]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        observation = observe(state, seat)
        started = time.perf_counter()
        action = decide(bots[seat], observation, rng, match, state)
        if len(observation.legal) > 1:
            seconds, decisions = thought[seat]
            thought[seat] = (seconds + time.perf_counter() - started, decisions + 1)
        state.apply(action)
    result = state.result()
    shares = [1 / len(result.winners) if s in result.winners else 0.0 for s in range(match.players)]
    return who, list(result.scores), shares, thought


def pairs_of(entrants: int, which: str) -> list[tuple[int, int]]:
    """The pairs that play: neighbours in the ladder's order, or (`all`) every pair."""
    if which == "all":
        return list(itertools.combinations(range(entrants), 2))
    return [(a, a + 1) for a in range(entrants - 1)]


def pair_matches(
    game_id: str,
    options: dict[str, object],
    specs: list[str],
    n: int,
    first_seed: int,
    pairs: list[tuple[int, int]] | None = None,
) -> list[tuple[int, int, Match]]:
    """Each pair's `n` games: deal k // 2, seats swapped between the two games of a deal."""
    out = []
    for a, b in pairs if pairs is not None else pairs_of(len(specs), "all"):
        for k in range(n):
            match = Match(game_id, 2, options, (specs[a], specs[b]), first_seed + k // 2, k)
            out.append((a, b, match))
    return out


# -- the record ---------------------------------------------------------------------------


def resolved(spec: str, game_id: str) -> str:
    """The bot a spec plays in the game: a level's spec for this game, else the spec."""
    return spec_for(spec, game_id) if spec in LEVELS else spec


def match_key(match: Match) -> str:
    """What makes two games the same game: the bots (as they play this game), the options,
    the deal and the seating."""
    bots = [resolved(spec, match.game_id) for spec in match.specs]
    return json.dumps([bots, match.options, match.seed, match.index], sort_keys=True)


def read_record(path: Path | None) -> dict[str, dict[str, Any]]:
    """The games recorded in `path`, by `match_key`; a line cut short by a crash is skipped."""
    if path is None or not path.exists():
        return {}
    games_by_key = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            game = json.loads(line)
        except json.JSONDecodeError:
            continue
        games_by_key[game["key"]] = game
    return games_by_key


def record_line(match: Match, played: Any, commit: str) -> str:
    who, scores, shares, think = played
    return json.dumps(
        {
            "key": match_key(match),
            "game": match.game_id,
            "bots": [resolved(spec, match.game_id) for spec in match.specs],
            "seed": match.seed,
            "index": match.index,
            "who": who,
            "scores": scores,
            "shares": shares,
            "think": think,
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": commit,
        }
    )


def append(record: Path, line: str) -> None:
    """Add one game's line; after a line a crash cut short, on a line of its own."""
    with record.open("a+b") as file:
        file.seek(0, 2)
        if file.tell():
            file.seek(-1, 2)
            if file.read(1) != b"\n":
                file.write(b"\n")
        file.write(line.encode("utf-8") + b"\n")


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _play(job: tuple[int, int, Match]) -> tuple[int, int, Match, Any]:
    a, b, match = job
    return a, b, match, play_timed(match)


def run(
    game_id: str,
    names: list[str],
    specs: list[str],
    n: int,
    first_seed: int,
    jobs: int,
    pairs: list[tuple[int, int]] | None = None,
    record: Path | None = None,
) -> tuple[list[Pairing], list[tuple[int, int, float]], list[tuple[float, int]]]:
    game = games.get(game_id)
    options = game.Options().model_dump()
    pairs = pairs if pairs is not None else pairs_of(len(specs), "all")
    wanted = pair_matches(game.id, options, specs, n, first_seed, pairs)
    recorded = read_record(record)
    todo = [job for job in wanted if match_key(job[2]) not in recorded]
    pairings = {pair: Pairing(*pair) for pair in pairs}
    results: list[tuple[int, int, float]] = []
    thought = [(0.0, 0) for _ in specs]
    commit = _commit()

    def count(
        a: int, b: int, who: list[int], scores: list[int], shares: list[float], think: Any
    ) -> None:
        pairing = pairings[(a, b)]
        entrant = [(a, b)[w] for w in who]  # who sat where, as entrants
        score_a = shares[entrant.index(a)]
        pairing.games += 1
        pairing.wins += score_a
        for seat, e in enumerate(entrant):
            pairing.scores[0 if e == a else 1].append(scores[seat])
            seconds, decisions = thought[e]
            thought[e] = (seconds + think[seat][0], decisions + think[seat][1])
        results.append((a, b, score_a))

    for a, b, match in wanted:
        game_played = recorded.get(match_key(match))
        if game_played is not None:
            fields = ("who", "scores", "shares", "think")
            count(a, b, *(game_played[f] for f in fields))
    if todo:
        print(f"{len(wanted) - len(todo)} games recorded, {len(todo)} to play", file=sys.stderr)
        with multiprocessing.Pool(jobs) as pool:
            for done, (a, b, match, played) in enumerate(pool.imap_unordered(_play, todo), 1):
                count(a, b, *played)
                if record is not None:
                    append(record, record_line(match, played, commit))
                print(f"\r{done}/{len(todo)} games", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    return list(pairings.values()), results, thought


# -- the report ---------------------------------------------------------------------------


def report(
    game_id: str,
    names: list[str],
    specs: list[str],
    pairings: list[Pairing],
    ratings: list[Rating],
    thought: list[tuple[float, int]],
    anchor: int,
    command: str,
) -> dict[str, Any]:
    played = [0] * len(names)
    for p in pairings:
        played[p.a] += p.games
        played[p.b] += p.games
    return {
        "game": game_id,
        "date": datetime.now(UTC).date().isoformat(),
        "command": command,
        "anchor": names[anchor],
        "pairs": [
            {
                "a": names[p.a],
                "b": names[p.b],
                "games": p.games,
                "wins": p.wins,
                "interval": list(wilson(p.wins, p.games)),
                "mean_scores": [fmean(p.scores[0]), fmean(p.scores[1])] if p.games else None,
            }
            for p in pairings
        ],
        "levels": {
            name: {
                "spec": spec_for(specs[e], game_id) if specs[e] in LEVELS else specs[e],
                "elo": _tenths(ratings[e].elo),
                "low": _tenths(ratings[e].low),
                "high": _tenths(ratings[e].high),
                "games": played[e],
                "seconds_per_decision": round(thought[e][0] / max(thought[e][1], 1), 4),
                "decisions": thought[e][1],
            }
            for e, name in enumerate(names)
        },
    }


def _tenths(value: float) -> float:
    return round(value, 1) + 0.0  # never -0.0, which would print as "-0"


def print_report(out: dict[str, Any]) -> None:
    print(f"{out['game']}: {out['command']}")
    print(f"{'pair':<22}{'games':>6}{'wins':>7}{'95 % interval':>16}{'mean scores':>16}")
    for p in out["pairs"]:
        low, high = p["interval"]
        means = "/".join(f"{m:.1f}" for m in p["mean_scores"] or [])
        pair = f"{p['a']} v {p['b']}"
        print(f"{pair:<22}{p['games']:>6}{p['wins']:>7g}{low:>9.1%}-{high:<6.1%}{means:>16}")
    print(f"{'level':<10}{'spec':<14}{'Elo':>7}{'95 % interval':>18}{'games':>7}{'s/decision':>12}")
    for name, level in out["levels"].items():
        interval = f"{level['low']:.0f}..{level['high']:.0f}"
        print(
            f"{name:<10}{level['spec']:<14}{level['elo']:>7.0f}{interval:>18}"
            f"{level['games']:>7}{level['seconds_per_decision']:>12.3f}"
        )
    print(f"(Elo relative to {out['anchor']} = 0)")


def write_package(out: dict[str, Any], path: Path = LADDER_FILE) -> None:
    """Put a game's ladder into the package's file, for the lobby; a level is `measured` only
    when it played the bot the level plays in that game now."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    levels = {}
    for name, level in out["levels"].items():
        if name not in offered(out["game"]):
            continue
        measured = level["spec"] == spec_for(name, out["game"])
        levels[name] = {
            key: level[key]
            for key in ("elo", "low", "high", "games", "spec", "seconds_per_decision")
        } | {"measured": measured, "command": out["command"], "date": out["date"]}
    data.setdefault("games", {})[out["game"]] = {"anchor": out["anchor"], "levels": levels}
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument(
        "--levels", help="comma-separated levels (default: every level the game offers)"
    )
    parser.add_argument("--random", action="store_true", help="random plays too, rated 0")
    parser.add_argument(
        "--as",
        dest="standins",
        action="append",
        default=[],
        metavar="LEVEL=SPEC",
        help="play a level with another bot (a development run at a reduced budget)",
    )
    parser.add_argument(
        "--pairs",
        choices=("neighbours", "all"),
        default="neighbours",
        help="which pairs play: neighbouring levels (default) or every pair",
    )
    parser.add_argument(
        "--record", type=Path, help="a JSON-lines file of the games: resumed, appended to"
    )
    parser.add_argument("-n", type=int, default=60, help="games per pair (even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the results here as JSON")
    parser.add_argument("--package", action="store_true", help="and into meadow/bots/ladder.json")
    args = parser.parse_args(argv)
    game = games.get(args.game)
    listed = args.levels.split(",") if args.levels else offered(game.id)
    names = [name.strip() for name in listed if name.strip()]
    if args.random:
        names.insert(0, "random")
    standins = dict(entry.split("=", 1) for entry in args.standins)
    specs = [standins.get(name, name) for name in names]
    for spec in specs:
        make_player(spec, trust_imports=True)  # refuses an unknown bot before any game
    command = shlex.join(["python", "-m", "bench.ladder", *(argv or sys.argv[1:])])
    pairs = pairs_of(len(names), args.pairs)
    try:
        pairings, results, thought = run(
            game.id, names, specs, args.n, args.seed, args.jobs, pairs, args.record
        )
    except MeadowError as stopped:  # a game stopped (meadow.cli.tournament.decide)
        kept = f"; the games finished before it are in {args.record}" if args.record else ""
        sys.exit(f"\nbench.ladder: {stopped}{kept}")
    anchor = 0
    ratings = fit_elo(results, len(names), anchor)
    out = report(game.id, names, specs, pairings, ratings, thought, anchor, command)
    print_report(out)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    if args.package:
        write_package(out)


if __name__ == "__main__":
    main()
