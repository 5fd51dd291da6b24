"""How far a learned evaluation moves between positions the hand-written one scores alike.

    python -m bench.learned_ties [--game mystic_vale] [--games 4]

A search picks among the positions its moves lead to by their values. Where the game's
hand-written evaluation gives several of them the same lead (Mystic Vale's advancement
sleeved onto one card or another of the same kind), whatever the learned correction adds
decides the move; if it differs between them by more than the positions differ, the search
follows noise. For each decision of `--games` greedy games (2 players, default options,
the shipped model, or `$MEADOW_MODELS`'s): the moves are grouped by the hand-written lead
of the mover after them, and each group of two or more is measured by the spread (largest
less smallest) of the learned lead over it, in points.
"""

from __future__ import annotations

import argparse
import statistics
from collections import defaultdict

from meadow import games
from meadow.bots import GreedyBot, observe
from meadow.bots.learned import LearnedEvaluation, evaluation_of
from meadow.core.game import Game, State, margins
from meadow.core.rng import Rng


def tied_spreads(game: Game, judge: LearnedEvaluation, state: State) -> list[float]:
    """Per group of the mover's moves with one hand-written lead: the learned lead's spread."""
    seat = state.to_move
    assert seat is not None
    groups: dict[float, list[float]] = defaultdict(list)
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        if after.is_over:
            continue
        hand = round(margins(game.evaluate(after), seat), 6)
        groups[hand].append(margins(judge.evaluate(after), seat))
    return [max(found) - min(found) for found in groups.values() if len(found) > 1]


def measure(game_id: str, games_played: int) -> tuple[int, int, list[float]] | None:
    """Decisions looked at, tied groups found, and each group's spread; None without a model."""
    game = games.get(game_id)
    judge = evaluation_of(game, 2, {})
    if not isinstance(judge, LearnedEvaluation):
        return None
    decisions, spreads = 0, []
    for seed in range(games_played):
        state = game.setup(2, seed=seed)
        rng, greedy = Rng(seed), GreedyBot()
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            spreads += tied_spreads(game, judge, state)
            decisions += 1
            state.apply(greedy.choose(observe(state, seat), rng))
    return decisions, len(spreads), spreads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--games", type=int, default=4, help="greedy games per game")
    args = parser.parse_args()
    print("| game | decisions | tied groups | mean spread, points | 90th percentile | largest |")
    print("|---|---:|---:|---:|---:|---:|")
    for game_id in args.game or games.ids():
        found = measure(game_id, args.games)
        if found is None:
            print(f"| {game_id} | (no model) | | | | |")
            continue
        decisions, groups, spreads = found
        if not spreads:
            print(f"| {game_id} | {decisions} | 0 | | | |")
            continue
        tenth = statistics.quantiles(spreads, n=10)[-1] if len(spreads) > 1 else spreads[0]
        print(
            f"| {game_id} | {decisions} | {groups} | {statistics.fmean(spreads):.2f} "
            f"| {tenth:.2f} | {max(spreads):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
