"""How long the coach takes to judge a whole game, per game, at a budget per decision.

    python -m bench.analysis [--seconds-per-move 0.5] [--game topiary] [--seed 1]

Each game is a 2-player game of the greedy bot against itself (a game of realistic length,
quick to play), then analysed whole as the server does it (`meadow.analysis.analyse_game`:
every decision judged, the turns, the swings told in words), on one core. A row: decisions
judged (those with a choice), the wall time of the whole analysis, the mean worlds each
decision was weighed in, and each seat's accuracy.
"""

from __future__ import annotations

import argparse
import platform
import time

from meadow import games
from meadow.analysis import analyse_game
from meadow.bots import observe
from meadow.core.record import GameRecord
from meadow.core.rng import Rng
from meadow.rl.players import make_player


def play(game_id: str, specs: list[str], seed: int) -> GameRecord:
    """A 2-player game of the bots `specs` (any name `make_player` knows), recorded."""
    record, state = GameRecord.start(games.get(game_id), 2, {}, seed)
    bots, rng = [make_player(spec) for spec in specs], Rng(seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bots[seat].choose(observe(state, seat), rng)
        state.apply(action)
        record.add(action)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds-per-move", type=float, default=0.5)
    parser.add_argument("--game", choices=games.ids(), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, python {platform.python_version()}")
    print(f"# python -m bench.analysis --seconds-per-move {args.seconds_per_move:g}")
    print("| game | moves | decisions judged | seconds | mean worlds | accuracy seat 0 | seat 1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game_id in args.game or games.ids():
        record = play(game_id, ["greedy", "greedy"], args.seed)
        started = time.perf_counter()
        analysis = analyse_game(record, args.seconds_per_move)
        took = time.perf_counter() - started
        judged = [d.judgement for d in analysis.decisions]
        worlds = sum(j.worlds for j in judged) / max(len(judged), 1)
        seats = analysis.seats
        print(
            f"| {game_id} | {len(record.actions)} | {len(judged)} | {took:.1f} | "
            f"{worlds:.1f} | {seats[0].accuracy:.1f} | {seats[1].accuracy:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
