"""How good the coach's judgement is: planted blunders, `hard` against `random`, and whether
accuracy and result agree.

    python -m bench.coach [--part blunders|levels|agreement] [--game topiary] [--worlds 16]

- blunders: for each game, positions of random games (seeds 1, 2, ..., after 25 to 75 % of
  a game's moves) where one legal move keeps at least a tenth of a winner's score (GAPS)
  less than the best when every legal move is played on in 6 worlds of the mover's view;
  that move is played and judged by the coach's own, narrower look. Reported: how many such
  planted blunders were found, and how many the coach marked mistake or blunder (and
  inaccuracy or worse).
- levels: `--games` 2-player games of `hard` against `random`, seats alternating, each then
  analysed whole; the share of games where random's accuracy was the lower, and the means.
- marks: the cuts between the marks, from the data: `--games` games of `greedy` against
  itself per title, analysed whole; each mark's least loss of win chance is a quantile of
  those decisions' losses (good: the median, at least 0.5 %; inaccuracy: the 80th
  percentile; mistake: the 92nd; blunder: the 98th), so that solid greedy play earns an
  inaccuracy one decision in five, a mistake one in twelve and a blunder one in fifty.
  `--write` keeps them in meadow/analysis/marks.json.
- agreement: games of `greedy` against `greedy:0.2` (close enough that either may win),
  analysed whole: the share of decided games the seat with the higher accuracy won.

Judgements use `--worlds` sampled worlds a decision and no clock (the same on every
machine); docs/ai.md keeps the figures.
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import time
from pathlib import Path

import orjson

from bench.analysis import play
from meadow import games
from meadow.analysis import Mark, analyse_game, judge
from meadow.analysis.marks import thresholds
from meadow.analysis.report import placed
from meadow.analysis.win_chance import for_game
from meadow.bots import observe
from meadow.bots.playing_on import lead_after_round, weigh
from meadow.core.rng import Rng

BAD = {Mark.MISTAKE, Mark.BLUNDER}
# About how many moves a 2-player game of each title lasts (greedy play, bench/analysis.py):
# where in a game a planted position falls, and its progress for the win chance.
GAME_MOVES = {"topiary": 46, "harmonies": 110, "renature": 138, "mystic_vale": 243}
# Points a planted blunder gives away at least, about a tenth of a winner's final score (a
# Mystic Vale game ends near 35 points, the others near 70).
GAPS = {"topiary": 7.0, "harmonies": 6.0, "renature": 7.0, "mystic_vale": 4.0}


def planted(game_id: str, seed: int, gap: float) -> tuple[object, object, int, float] | None:
    """A position of a random game and a legal move there that keeps `gap` points less than
    the best by a first look; None when the position has none."""
    game = games.get(game_id)
    state = game.setup(2, {}, seed)
    rng = Rng(seed)
    moves = 0
    stop = int(GAME_MOVES[game_id] * (0.25 + 0.5 * rng.random()))
    while not state.is_over and moves < stop:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        moves += 1
    if state.is_over or len(state.legal_actions()) < 3:
        return None
    seat = state.to_move
    seen = observe(state, seat)
    lines = [(a,) for a in seen.legal]
    # "Known to lose": every legal move played on (the others' replies, the seat's next
    # turn) in 6 worlds of the mover's view, wider than the coach's own look (it plays on
    # only the 8 best of a first look, in its own worlds).
    first, _ = weigh(seen, lines, lambda w: lead_after_round(w, seat), Rng(seed), math.inf, 6)
    worst = min(range(len(lines)), key=lambda k: first[k])
    lost = max(first) - first[worst]
    if lost < gap:
        return None
    return seen, seen.legal[worst], moves + 1, lost


def blunders(game_id: str, worlds: int, tries: int) -> str:
    gap = GAPS[game_id]
    found = marked = inaccurate = 0
    kinds: dict[str, int] = {}
    for seed in range(1, tries + 1):
        case = planted(game_id, seed, gap)
        if case is None:
            continue
        seen, move, number, _ = case
        judgement = judge(seen, move, number, worlds=worlds)
        mapping = for_game(game_id, 2)
        assert mapping is not None
        progress = number / GAME_MOVES[game_id]
        mark = placed(judgement, 0, mapping, False, thresholds(game_id), progress).mark
        found += 1
        marked += mark in BAD
        inaccurate += mark in BAD or mark is Mark.INACCURACY
        kind = str(move).split()[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    share = f"{marked}/{found} ({marked / max(found, 1):.0%})"
    return (
        f"| {game_id} | {gap:g} | {found} | {share} | {inaccurate}/{found} | "
        f"{', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))} |"
    )


def levels(game_id: str, worlds: int, count: int) -> str:
    lower = 0
    accuracy: dict[str, list[float]] = {"hard": [], "random": []}
    for seed in range(1, count + 1):
        specs = ["hard", "random"] if seed % 2 else ["random", "hard"]
        record = play(game_id, specs, seed)
        analysis = analyse_game(record, worlds=worlds)
        by_bot = {specs[s.seat]: s.accuracy for s in analysis.seats}
        lower += by_bot["random"] < by_bot["hard"]
        for bot, figure in by_bot.items():
            accuracy[bot].append(figure)
    return (
        f"| {game_id} | {count} | {lower}/{count} | {statistics.mean(accuracy['hard']):.1f} | "
        f"{statistics.mean(accuracy['random']):.1f} |"
    )


QUANTILES = {"good": 0.5, "inaccuracy": 0.8, "mistake": 0.92, "blunder": 0.98}
MARKS_FILE = Path(__file__).resolve().parents[1] / "meadow" / "analysis" / "marks.json"


def cuts(game_id: str, worlds: int, count: int, found: dict[str, object], reference: str) -> str:
    losses: list[float] = []
    for seed in range(1, count + 1):
        record = play(game_id, [reference, reference], 2000 + seed)
        analysis = analyse_game(record, worlds=worlds)
        losses += [d.chance_loss for d in analysis.decisions]
    losses.sort()
    at = {name: losses[int(q * (len(losses) - 1))] for name, q in QUANTILES.items()}
    at["good"] = max(at["good"], 0.005)
    found[game_id] = {
        **{name: round(value, 4) for name, value in at.items()},
        "decisions": len(losses),
        "games": count,
        "reference": reference,
    }
    figures = " | ".join(f"{at[name]:.3f}" for name in QUANTILES)
    return f"| {game_id} | {count} | {len(losses)} | {figures} |"


def agreement(game_id: str, worlds: int, count: int) -> str:
    agreed = decided = 0
    for seed in range(1, count + 1):
        specs = ["greedy", "greedy:0.2"] if seed % 2 else ["greedy:0.2", "greedy"]
        record = play(game_id, specs, 1000 + seed)
        analysis = analyse_game(record, worlds=worlds)
        won = record.replay().result().winners
        if len(won) != 1:
            continue
        decided += 1
        best = max(analysis.seats, key=lambda s: s.accuracy).seat
        agreed += best == won[0]
    return (
        f"| {game_id} | {count} | {decided} | {agreed}/{decided} ({agreed / max(decided, 1):.0%}) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", choices=["marks", "blunders", "levels", "agreement"], action="append"
    )
    parser.add_argument("--write", action="store_true", help="marks: keep the cuts")
    parser.add_argument("--reference", default="greedy", help="marks: whose play sets the cuts")
    parser.add_argument("--game", choices=games.ids(), action="append")
    parser.add_argument("--worlds", type=int, default=16)
    parser.add_argument("--tries", type=int, default=40)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    chosen = args.game or games.ids()
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}")
    found: dict[str, object] = {}
    for part in args.part or ["blunders", "levels", "agreement"]:
        started = time.perf_counter()
        print(f"\n## {part} (--worlds {args.worlds})\n")
        if part == "blunders":
            print(f"# positions tried: {args.tries} a game")
            print(
                "| game | points given away | planted | marked mistake or blunder "
                "| inaccuracy or worse | moves |"
            )
            print("|---|---:|---:|---:|---:|---|")
        elif part == "marks":
            print("| game | games | decisions | good | inaccuracy | mistake | blunder |")
            print("|---|---:|---:|---:|---:|---:|---:|")
        elif part == "levels":
            print("| game | games | random's accuracy the lower | hard's mean | random's mean |")
            print("|---|---:|---:|---:|---:|")
        else:
            print("| game | games | decided | the more accurate seat won |")
            print("|---|---:|---:|---:|")
        for game_id in chosen:
            if part == "marks":
                row = cuts(game_id, args.worlds, args.games, found, args.reference)
            elif part == "blunders":
                row = blunders(game_id, args.worlds, args.tries)
            elif part == "levels":
                row = levels(game_id, args.worlds, args.games)
            else:
                row = agreement(game_id, args.worlds, args.games * 2)
            print(row, flush=True)
        print(f"# {part}: {time.perf_counter() - started:.0f} s", flush=True)
    if found and args.write:
        kept = orjson.loads(MARKS_FILE.read_bytes()) if MARKS_FILE.exists() else {}
        kept.update(found)
        kept["how"] = (
            f"python -m bench.coach --part marks --games {args.games} --worlds {args.worlds} "
            f"--reference {args.reference} --write: {args.reference} against itself, each "
            f"mark's least loss of win chance a quantile of its decisions' losses ({QUANTILES})"
        )
        MARKS_FILE.write_bytes(
            orjson.dumps(kept, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
        )


if __name__ == "__main__":
    main()
