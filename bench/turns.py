"""The whole-turn planner's speed in Harmonies: milliseconds per beam of a given width.

    python -m bench.turns [--width 16] [--deals 3]

Positions are the start of every third turn of 2-player games (side A, spirits on) between
two greedy bots; each is planned once by a beam of `--width` (no clock), and the figure is
the mean time per beam. A `hard` turn (`turn:4:1s`) runs beams of width 4, 8, 16, ... until
its second is up, so this says how wide it gets on a machine: with beams of width w costing
t(w), it reaches the widest w whose 4..w sum stays within the second.

A second, timed run of the same beams gives the mean time of one evaluation of a partial
turn (`Game.evaluate_seat`) and the evaluations' share of the beam (whole turns' `evaluate`
included); the timers cost time themselves, so the time per beam comes from the first run.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager

from meadow import games
from meadow.bots import GreedyBot, TurnBot, observe
from meadow.core.game import Game, State
from meadow.core.rng import Rng
from meadow.games.harmonies.actions import EndTurn

GAME = games.get("harmonies")


def positions(deals: int) -> list[State]:
    """The start of every third turn of greedy games, seeds 0..deals-1."""
    found = []
    for seed in range(deals):
        state = GAME.setup(2, {"side": "A", "spirits": True}, seed)
        rng, bot, turns = Rng(seed), GreedyBot(), 0
        while not state.is_over:
            if turns % 3 == 0 and state.taken_space < 0 and state.phase == "turn":  # type: ignore[attr-defined]
                found.append(state.clone())
            action = bot.choose(observe(state, state.to_move), rng)  # type: ignore[arg-type]
            turns += isinstance(action, EndTurn)
            state.apply(action)
    return found


class Timed:
    """Time inside the game's `evaluate_seat` and `evaluate` while in use."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.seat_calls = 0
        self.seat_seconds = 0.0

    @contextmanager
    def on(self, game: Game) -> Iterator[None]:
        evaluate, evaluate_seat = game.evaluate, game.evaluate_seat

        def whole(state: State) -> list[float]:
            started = time.perf_counter()
            try:
                return evaluate(state)
            finally:
                self.seconds += time.perf_counter() - started

        def one_seat(state: State, seat: int) -> float:
            started = time.perf_counter()
            try:
                return evaluate_seat(state, seat)
            finally:
                took = time.perf_counter() - started
                self.seconds += took
                self.seat_seconds += took
                self.seat_calls += 1

        game.evaluate, game.evaluate_seat = whole, one_seat  # type: ignore[method-assign]
        try:
            yield
        finally:
            del game.evaluate, game.evaluate_seat


def beams(states: list[State], width: int) -> float:
    """Seconds to plan every position once."""
    bot = TurnBot(width, 1.0)
    started = time.perf_counter()
    for state in states:
        bot._beam(state, state.to_move, GAME, width, None)  # type: ignore[arg-type]
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--deals", type=int, default=3)
    args = parser.parse_args()
    states = positions(args.deals)
    per_beam = beams(states, args.width) / len(states)
    timed = Timed()
    with timed.on(GAME):
        total = beams(states, args.width)
    per_evaluation = timed.seat_seconds / max(1, timed.seat_calls)
    print(f"{platform.python_implementation()} {platform.python_version()}, one core")
    print(f"{len(states)} positions, width {args.width}: {per_beam * 1000:.0f} ms per beam")
    print()
    print("| width | ms per beam | µs per evaluation | evaluation share |")
    print("|---|---|---|---|")
    print(
        f"| {args.width} | {per_beam * 1000:.0f} | {per_evaluation * 1e6:.1f} "
        f"| {timed.seconds / total * 100:.0f} % |"
    )


if __name__ == "__main__":
    main()
