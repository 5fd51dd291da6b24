"""IS-MCTS search speed per registered game: iterations per second on one core.

    python -m bench.search [--iterations 300] [--game topiary] [--rollout N]

Positions are taken from random 2-player games (at a quarter, half and three quarters of the
game, where the seat to move has a choice); the bot searches each for a fixed number of
iterations and the rate is iterations over the search time.
"""

from __future__ import annotations

import argparse
import platform
import time

from meadow import games
from meadow.bots import MctsBot, observe
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


def measure(game: Game, iterations: int, rollout: int | None, games_played: int = 2) -> float:
    bot = MctsBot(iterations=iterations, rollout=rollout)
    done, busy = 0, 0.0
    for seed in range(games_played):
        for state in positions(game, 2 if 2 in game.player_counts else 1, seed):
            observation = observe(state, state.to_move)
            started = time.perf_counter()
            bot.choose(observation, Rng(seed))
            busy += time.perf_counter() - started
            done += iterations
    return done / busy


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
    print("| game | rollout | iterations/s |")
    print("|---|---:|---:|")
    for game in chosen:
        rate = measure(game, args.iterations, args.rollout)
        depth = game.rollout_depth if args.rollout is None else args.rollout
        print(f"| {game.id} | {depth} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
