"""IS-MCTS search speed per registered game: iterations per second on one core.

    python -m bench.search [--iterations 300] [--game topiary] [--rollout N]

Positions are taken from random 2-player games (at a quarter, half and three quarters of the
game, where the seat to move has a choice); the bot searches each for a fixed number of
iterations and the rate is iterations over the search time.

A second, timed run of the same searches shows where an iteration's time goes: the share
inside `sample_hidden` (the determinization, its own clone not counted), `clone`,
`legal_actions`, `apply`, the game's `evaluate` and its `settled_choice` (a decision the
search plays below its root without branching), each counted without the calls it makes to
the others; the rest is the tree's own bookkeeping. The timers cost time themselves, so the
rate comes from the first, untimed run.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from meadow import games
from meadow.bots import MctsBot, Observation, observe
from meadow.core.game import Game, State
from meadow.core.rng import Rng


def positions(game: Game, players: int, seed: int) -> list[State]:
    """States at about 1/4, 1/2 and 3/4 of a random game where the mover has a choice."""
    rng = Rng(seed)
    state = game.setup(players, seed=seed)
    history = []
    while not state.is_over:
        legal = state.legal_actions()
        if len(legal) > 1:
            history.append(state.clone())
        state.apply(legal[rng.below(len(legal))])
    return [history[len(history) * k // 4] for k in (1, 2, 3)]


STATE_PARTS = ("sample_hidden", "clone", "legal_actions", "apply")
GAME_PARTS = ("evaluate", "settled_choice")  # the latter: a decision settled below the root
PARTS = (*STATE_PARTS, *GAME_PARTS)


class Parts:
    """Time inside each of the methods a search calls, each without the calls it makes to
    the others (a determinization's clone counts as clone, not as sampling)."""

    def __init__(self) -> None:
        self.seconds = dict.fromkeys(PARTS, 0.0)
        self._inner = [0.0]  # per open call: the time its timed callees took

    def timed(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            self._inner.append(0.0)
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                took = time.perf_counter() - started
                self.seconds[name] += took - self._inner.pop()
                self._inner[-1] += took

        return call

    @contextmanager
    def on(self, game: Game) -> Iterator[None]:
        cls = game.state_class
        own = {name: cls.__dict__.get(name) for name in STATE_PARTS}
        for name in STATE_PARTS:
            setattr(cls, name, self.timed(name, getattr(cls, name)))
        timed_game = [name for name in GAME_PARTS if hasattr(game, name)]  # older commits
        for name in timed_game:
            setattr(game, name, self.timed(name, getattr(game, name)))
        try:
            yield
        finally:
            for name in timed_game:
                delattr(game, name)
            for name, method in own.items():
                if method is None:
                    delattr(cls, name)  # inherited: the base class's serves again
                else:
                    setattr(cls, name, method)


def measure(game: Game, iterations: int, rollout: int | None, games_played: int = 2) -> float:
    """Iterations per second over the searches of the positions."""
    searched = observations(game, games_played)
    return iterations * len(searched) / search(searched, iterations, rollout)


def shares(
    game: Game, iterations: int, rollout: int | None, games_played: int = 2
) -> dict[str, float]:
    """Each part's share of the search time, and the tree's (what is left)."""
    searched = observations(game, games_played)  # before the timers: not part of a search
    parts = Parts()
    with parts.on(game):
        busy = search(searched, iterations, rollout)
    found = {name: parts.seconds[name] / busy for name in PARTS}
    found["tree"] = 1.0 - sum(found.values())
    return found


def observations(game: Game, games_played: int) -> list[tuple[Observation, int]]:
    """The positions of `games_played` random games as their movers see them, with a seed."""
    players = 2 if 2 in game.player_counts else 1
    return [
        (observe(state, state.to_move), seed)
        for seed in range(games_played)
        for state in positions(game, players, seed)
    ]


def search(searched: list[tuple[Observation, int]], iterations: int, rollout: int | None) -> float:
    """The seconds spent searching each position for `iterations`."""
    bot = MctsBot(iterations=iterations, rollout=rollout)
    busy = 0.0
    for observation, seed in searched:
        started = time.perf_counter()
        bot.choose(observation, Rng(seed))
        busy += time.perf_counter() - started
    return busy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=300, help="per searched position")
    parser.add_argument(
        "--rollout", type=int, default=None, help="decisions per rollout (default: the game's)"
    )
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    chosen = [games.get(g) for g in args.game] if args.game else games.all()
    print(f"Python {platform.python_version()}, {args.iterations} iterations per position")
    print()
    print("| game | rollout | iterations/s | " + " | ".join(PARTS) + " | tree |")
    print("|---|---:|---:|" + "---:|" * (len(PARTS) + 1))
    for game in chosen:
        rate = measure(game, args.iterations, args.rollout)
        share = shares(game, args.iterations, args.rollout)
        depth = game.rollout_depth if args.rollout is None else args.rollout
        cells = " | ".join(f"{100 * share[name]:.0f} %" for name in (*PARTS, "tree"))
        print(f"| {game.id} | {depth} | {rate:,.0f} | {cells} |")


if __name__ == "__main__":
    main()
