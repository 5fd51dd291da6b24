"""Harmonies' planner with its evaluation's weights changed: the same deals, paired.

    .venv/bin/python -m bench.harmonies_weights --set REACH=0.65 -n 60 --seed 1000 \\
        --record bench/results/harmonies-weights.jsonl

Plays `--bots` (default `hard,greedy`) in 2-player Harmonies (side A, spirits on), seats
rotated as `meadow tournament` rotates them, with the weights named by `--set` changed in
every process (the constants of `meadow/games/harmonies/planning.py` and of the planner,
`meadow/bots/turns.py`). Prints the first bot's mean score and wins; with `--record`, appends
the run (weights, deals, every game's scores) to a JSON-lines file, and prints each earlier
run on the same deals beside it with the mean difference per deal and its standard error,
so that a change is judged against the noise of the deals.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

from meadow.bots import turns
from meadow.cli.tournament import Match, play_match
from meadow.games.harmonies import planning

OPTIONS = {"side": "A", "spirits": True}
ROOT = Path(__file__).resolve().parent.parent


def weights(pairs: list[str]) -> dict[str, float]:
    """`NAME=VALUE` pairs, each a numeric constant of the evaluation or the planner."""
    found: dict[str, float] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        module = planning if hasattr(planning, name) else turns if hasattr(turns, name) else None
        if not sep or module is None or not isinstance(getattr(module, name), int | float):
            raise SystemExit(
                f"--set {pair!r}: expected NAME=NUMBER, NAME a weight of planning.py or turns.py"
            )
        try:
            found[name] = float(value) if "." in value else int(value)
        except ValueError:
            raise SystemExit(f"--set {pair!r}: {value!r} is not a number") from None
    return found


def label(changed: dict[str, float]) -> str:
    return " ".join(f"{k}={v}" for k, v in changed.items()) or "as shipped"


def apply_weights(changed: dict[str, float]) -> None:
    for name, value in changed.items():
        setattr(planning if hasattr(planning, name) else turns, name, value)


def play(changed: dict[str, float], bots: tuple[str, ...], n: int, seed: int, jobs: int) -> dict:
    """Every game's scores of the first bot and of the other, in deal order."""
    todo = [Match("harmonies", 2, OPTIONS, bots, seed + i, i) for i in range(n)]
    apply_weights(changed)
    if jobs > 1:
        with multiprocessing.Pool(jobs, initializer=apply_weights, initargs=(changed,)) as pool:
            outcomes = pool.map(play_match, todo)
    else:
        outcomes = list(map(play_match, todo))
    return {
        "first": [scores[who.index(0)] for who, scores, _ in outcomes],
        "other": [scores[who.index(1)] for who, scores, _ in outcomes],
        "wins": sum(shares[who.index(0)] for who, _, shares in outcomes),
    }


def paired(run: dict[str, Any], before: dict[str, Any]) -> str:
    """The mean difference per deal of the first bot's score, with its standard error."""
    differences = [a - b for a, b in zip(run["first"], before["first"], strict=True)]
    error = stdev(differences) / len(differences) ** 0.5 if len(differences) > 1 else 0.0
    return f"{fmean(differences):+.1f} (standard error {error:.1f})"


def commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
    )
    return done.stdout.strip() or "unknown"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--bots", default="hard,greedy")
    parser.add_argument("-n", type=int, default=60, help="games")
    parser.add_argument("--seed", type=int, default=1000, help="game i uses seed + i")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--record", type=Path, help="a JSON-lines file of runs")
    args = parser.parse_args(argv)
    changed = weights(args.set)
    bots = tuple(b.strip() for b in args.bots.split(","))
    if len(bots) != 2 or args.n < 1 or args.jobs < 1:
        raise SystemExit("--bots names two bots; -n and --jobs are 1 or more")
    run = {"set": changed, "bots": list(bots), "seed": args.seed, "n": args.n, "commit": commit()}
    run |= play(changed, bots, args.n, args.seed, args.jobs)
    print(
        f"{label(changed)}: {bots[0]} {fmean(run['first']):.1f} against {bots[1]} "
        f"{fmean(run['other']):.1f}, wins {run['wins']:g} of {args.n}"
    )
    if args.record is None:
        return
    earlier = []
    if args.record.exists():
        earlier = [json.loads(line) for line in args.record.read_text().splitlines() if line]
    for before in earlier:
        if (before["bots"], before["seed"], before["n"]) == (run["bots"], args.seed, args.n):
            print(f"  against {label(before['set'])}: {paired(run, before)}")
    with args.record.open("a", encoding="utf-8") as out:
        out.write(json.dumps(run) + "\n")


if __name__ == "__main__":
    main()
