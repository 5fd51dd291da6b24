"""The whole-turn planner's speed in Harmonies: milliseconds per beam of a given width.

    python -m bench.turns [--width 16] [--deals 3]

Positions are the start of every third turn of 2-player games (side A, spirits on) between
two greedy bots; each is planned once by a beam of `--width` (no clock), and the figure is
the mean time per beam. A `hard` turn (`turn:4:1s`) runs beams of width 4, 8, 16, ... until
its second is up, so this says how wide it gets on a machine: with beams of width w costing
t(w), it reaches the widest w whose 4..w sum stays within the second.
"""

from __future__ import annotations

import argparse
import platform
import time

from meadow import games
from meadow.bots import GreedyBot, TurnBot, observe
from meadow.core.game import State
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--deals", type=int, default=3)
    args = parser.parse_args()
    states = positions(args.deals)
    bot = TurnBot(args.width, 1.0)
    started = time.perf_counter()
    for state in states:
        bot._beam(state, state.to_move, GAME, args.width, None)  # type: ignore[arg-type]
    per_beam = (time.perf_counter() - started) / len(states)
    print(f"{platform.python_implementation()} {platform.python_version()}, one core")
    print(f"{len(states)} positions, width {args.width}: {per_beam * 1000:.0f} ms per beam")


if __name__ == "__main__":
    main()
