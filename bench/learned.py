"""What a learned evaluation costs a search, per game, beside the hand-written one and an
engine decision.

    python -m bench.learned [--game topiary] [--repeat 3]

For each game with a shipped model (2 players, default options): the positions of 6 random
games; per position the time of the game's own evaluation (`Game.evaluate`), of the learned
one (`LearnedEvaluation.evaluate`: the hand-written values, each seat's observation read
from the state, and the value network over both), of one seat's observation alone, and of
an engine decision (legal list and apply, random games). The fastest of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

from meadow import games
from meadow.bots.learned import LearnedEvaluation, evaluation_of, model_path
from meadow.core.encoding import encoding
from meadow.core.game import State
from meadow.core.rng import Rng


def positions(game_id: str, count: int = 6) -> list[State]:
    found = []
    for seed in range(count):
        state = games.get(game_id).setup(2, seed=seed)
        rng = Rng(seed)
        while not state.is_over:
            found.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    return found


def per_position(states: list[State], measure: Callable[[State], object], repeat: int) -> float:
    """Microseconds per position, the fastest of `repeat` passes."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for state in states:
            measure(state)
        best = min(best, (time.perf_counter() - started) / len(states))
    return best * 1e6


def decision(game_id: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        decisions, busy = 0, 0.0
        for seed in range(20, 30):
            state = games.get(game_id).setup(2, seed=seed)
            rng = Rng(seed)
            while not state.is_over:
                started = time.perf_counter()
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
                busy += time.perf_counter() - started
                decisions += 1
        best = min(best, busy / decisions)
    return best * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, {platform.machine()}, best of {args.repeat}, "
        "2 players, default options; microseconds a position"
    )
    print()
    print(
        "| game | engine decision | hand-written evaluation | one seat's observation "
        "| learned evaluation | learned / decision | model file |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game_id in args.game or games.ids():
        game = games.get(game_id)
        judge = evaluation_of(game, 2, {})
        if not isinstance(judge, LearnedEvaluation):
            print(f"| {game_id} | (no model) | | | | | |")
            continue
        states = [s for s in positions(game_id) if not s.is_over]
        coding = encoding(game_id, 2)
        step = decision(game_id, args.repeat)
        hand = per_position(states, game.evaluate, args.repeat)
        seen = per_position(states, lambda s, c=coding: c.observe(s, 0), args.repeat)
        learned = per_position(states, judge.evaluate, args.repeat)
        card = model_path(game_id, 2)
        size = (card.stat().st_size + card.with_suffix(".npz").stat().st_size) / 1e6
        print(
            f"| {game_id} | {step:.1f} | {hand:.1f} | {seen:.1f} | {learned:.1f} "
            f"| {learned / step:.1f} | {size:.2f} MB |",
            flush=True,
        )


if __name__ == "__main__":
    main()
