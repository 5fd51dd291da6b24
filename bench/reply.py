"""The reply search's reach: in how many worlds a decision weighs its candidates.

    python -m bench.reply [--game renature] [--seconds 1] [--width 8] [--deals 2]

Positions: every third decision with more than one legal action in 2-player games between
two greedy bots (seeds 0..deals-1, the game's default options). Each is decided once by
`reply:<width>:<seconds>s`, one process on one core; the figures are, per third of the game
(by decision), the mean and the range of the worlds its candidates were played on in
(`playing_on.weigh`: a world counts when every candidate finished it), and the time one
such world took, all candidates together. At `MOST_WORLDS` (64) a decision stops early.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Iterator
from contextlib import contextmanager
from statistics import fmean

from meadow import games
from meadow.bots import GreedyBot, ReplyBot, observe, reply
from meadow.core.game import State
from meadow.core.rng import Rng


def positions(game_id: str, deals: int) -> list[list[State]]:
    """Per deal, every third decision with a choice of greedy games, in order."""
    game = games.get(game_id)
    found = []
    for seed in range(deals):
        state = game.setup(2, seed=seed)
        rng, bot, decisions, kept = Rng(seed), GreedyBot(), 0, []
        while not state.is_over:
            observation = observe(state, state.to_move)  # type: ignore[arg-type]
            if len(observation.legal) > 1:
                if decisions % 3 == 0:
                    kept.append(state.clone())
                decisions += 1
            state.apply(bot.choose(observation, rng))
        found.append(kept)
    return found


class Counted:
    """The calls of the reply search's `weigh` in one decision, while `on`: the first look
    at every legal action, then, unless one candidate was left, the candidates' weighing."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, float]] = []  # (worlds, seconds) per call

    @contextmanager
    def on(self) -> Iterator[None]:
        weigh = reply.weigh

        def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
            started = time.perf_counter()
            means, worlds = weigh(*args, **kwargs)
            self.calls.append((worlds, time.perf_counter() - started))
            return means, worlds

        reply.weigh = counted  # type: ignore[assignment]
        try:
            yield
        finally:
            reply.weigh = weigh


def reach(deals: list[list[State]], bot: ReplyBot) -> list[list[tuple[int, float]]]:
    """Per third of each game, the (worlds, seconds) of each decision's candidates."""
    thirds: list[list[tuple[int, float]]] = [[], [], []]
    counted = Counted()
    with counted.on():
        for deal in deals:
            for k, state in enumerate(deal):
                counted.calls = []
                bot.choose(observe(state, state.to_move), Rng(k))  # type: ignore[arg-type]
                if len(counted.calls) == 2 and counted.calls[1][0]:
                    thirds[3 * k // len(deal)].append(counted.calls[1])
    return thirds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="renature")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--deals", type=int, default=2)
    args = parser.parse_args()
    thirds = reach(positions(args.game, args.deals), ReplyBot(args.width, args.seconds))
    print(
        f"{args.game}, reply:{args.width}:{args.seconds:g}s, {args.deals} deals, "
        f"{platform.python_implementation()} {platform.python_version()}\n"
    )
    print("| part of the game | decisions | worlds, mean | worlds, range | ms per world |")
    print("|---|---:|---:|---|---:|")
    for name, rows in zip(("first third", "second third", "last third"), thirds, strict=True):
        if not rows:
            continue
        worlds = [w for w, _ in rows]
        per_world = 1000 * fmean(s / w for w, s in rows)
        print(
            f"| {name} | {len(rows)} | {fmean(worlds):.1f} | {min(worlds)}-{max(worlds)} "
            f"| {per_world:.1f} |"
        )


if __name__ == "__main__":
    main()
