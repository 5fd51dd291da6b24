"""Engine speed per registered game: random games/s, decisions/s, mean legal actions.

    python -m bench.engine [--seconds 5] [--game topiary]

A decision is one legal-action list plus one apply, the unit a bot's search pays for. Runs in
one process on one core; figures go to docs/benchmarks.md. A second table gives what a copy
of a state costs (every search clones, a server stores and loads states as JSON): `clone()`,
`to_json()` and `from_json()` in microseconds over the states of a few random games, and a
clone in decisions.
"""

from __future__ import annotations

import argparse
import gc
import platform
import time

from meadow import games
from meadow.core.game import Game, State
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


def copy_costs(game: Game, players: int, games_played: int = 10) -> dict[str, float]:
    """Mean microseconds of `clone`, `to_json` and `state_from_json` over every fifth state
    of `games_played` random games."""
    rng = Rng(2026)
    states = []
    for seed in range(games_played):
        state = game.setup(players, seed=seed)
        while not state.is_over:
            if state.ply % 5 == 0:
                states.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[rng.below(len(actions))])
    costs = {}
    gc.collect()
    gc.disable()  # a collection falling inside one of the loops would be counted against it
    try:
        timed_copies(game, states, costs)
    finally:
        gc.enable()
    return costs


def timed_copies(game: Game, states: list[State], costs: dict[str, float]) -> None:
    started = time.perf_counter()
    for state in states:
        state.clone()
    costs["clone"] = (time.perf_counter() - started) / len(states) * 1e6
    started = time.perf_counter()
    stored = [state.to_json() for state in states]
    costs["to_json"] = (time.perf_counter() - started) / len(states) * 1e6
    started = time.perf_counter()
    for data in stored:
        game.state_from_json(data)
    costs["from_json"] = (time.perf_counter() - started) / len(states) * 1e6


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
    per_decision = {}
    for game in chosen:
        for players in game.player_counts:
            m = measure(game, players, args.seconds)
            per_decision[game.id, players] = 1e6 / m["decisions_per_s"]
            print(
                f"| {game.id} | {players} | {m['games_per_s']:,.0f} | "
                f"{m['decisions_per_s']:,.0f} | {m['mean_legal']:.1f} | "
                f"{m['decisions_per_game']:.1f} |"
            )
    print()
    print("| game | players | clone µs | clone in decisions | to_json µs | from_json µs |")
    print("|---|---:|---:|---:|---:|---:|")
    for game in chosen:
        for players in game.player_counts:
            costs = copy_costs(game, players)
            print(
                f"| {game.id} | {players} | {costs['clone']:.1f} | "
                f"{costs['clone'] / per_decision[game.id, players]:.1f} | "
                f"{costs['to_json']:.1f} | {costs['from_json']:.1f} |"
            )


if __name__ == "__main__":
    main()
