"""Engine speed per registered game: random games/s, decisions/s, mean legal actions.

    python -m bench.engine [--seconds 5] [--game topiary]

A decision is one legal-action list plus one apply, the unit a bot's search pays for. Runs in
one process on one core; figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import platform
import time

from meadow import games
from meadow.core.game import Game
from meadow.core.rng import Rng


def measure(game: Game, players: int, seconds: float) -> dict[str, float]:
    """Play random games for about `seconds`; count games, decisions and legal actions."""
    rng = Rng(2026)
    played = decisions = offered = 0
    busy = 0.0  # time inside legal_actions + apply only
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.setup(players, seed=played)
        while not state.is_over:
            t0 = time.perf_counter()
            actions = state.legal_actions()
            action = actions[rng.below(len(actions))]
            state.apply(action)
            busy += time.perf_counter() - t0
            decisions += 1
            offered += len(actions)
        played += 1
    elapsed = time.perf_counter() - started
    return {
        "games_per_s": played / elapsed,
        "decisions_per_s": decisions / busy,
        "mean_legal": offered / decisions,
        "decisions_per_game": decisions / played,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per game and player count")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args()
    chosen = [games.get(g) for g in args.game] if args.game else games.all()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {args.seconds:g} s per row"
    )
    print()
    print(
        "| game | players | random games/s | decisions/s | legal actions per decision "
        "| decisions per game |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for game in chosen:
        for players in game.player_counts:
            m = measure(game, players, args.seconds)
            print(
                f"| {game.id} | {players} | {m['games_per_s']:,.0f} | "
                f"{m['decisions_per_s']:,.0f} | {m['mean_legal']:.1f} | "
                f"{m['decisions_per_game']:.1f} |"
            )


if __name__ == "__main__":
    main()
