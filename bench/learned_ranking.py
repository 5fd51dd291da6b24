"""How well an evaluation ranks a decision's moves, judged by a round played on after each.

    python -m bench.learned_ranking [--game topiary] [--games 6] [--model CARD.json ...]

A search's evaluation is used to compare siblings: the positions a decision's moves lead
to. Here each of those moves (up to `--width`, taken in the order the game lists them) is
played on for a round (the seat's turn, the others', its next; each decision greedy:
`meadow.bots.playing_on.lead_after_round`) in `--worlds` worlds drawn from the mover's
observation, the same worlds for every move; the mean lead after it is the move's worth.
Each evaluation (the hand-written one, the shipped model's or `$MEADOW_MODELS`'s, and every
`--model`) picks the move whose settled position it rates best; its regret is the worth of
the best move less the worth of its pick, in points. Every `--every`-th decision of
`--games` greedy games (2 players, default options) is measured.

The worth is itself a mean over a few worlds, so no evaluation reaches a regret of 0; what
counts is the difference between evaluations on the same decisions.
"""

from __future__ import annotations

import argparse
import math
import statistics
from functools import partial
from pathlib import Path

from meadow import games
from meadow.bots import GreedyBot, observe
from meadow.bots.learned import Evaluation, LearnedEvaluation, Model, evaluation_of
from meadow.bots.playing_on import lead_after_round, settle, weigh
from meadow.core.encoding import encoding
from meadow.core.game import Game, State, margins
from meadow.core.rng import Rng


def worths(state: State, width: int, worlds: int, rng: Rng) -> tuple[list[State], list[float]]:
    """The decision's moves (up to `width`): the settled position after each, and each
    one's worth, the mover's mean lead after a round played on in the same worlds."""
    seat = state.to_move
    assert seat is not None
    seen = observe(state, seat)
    moves = seen.legal[:width]
    worth, _ = weigh(
        seen, [(a,) for a in moves], partial(lead_after_round, seat=seat), rng, math.inf, worlds
    )
    afters = []
    for move in moves:
        after = state.clone()
        after.apply(move)
        settle(after, seat)
        afters.append(after)
    return afters, worth


def regret(judge: Evaluation, seat: int, afters: list[State], worth: list[float]) -> float:
    """The worth of the best move less the worth of the one `judge` rates best (the first
    of equals)."""
    rated = [margins(judge.evaluate(after), seat) for after in afters]
    return max(worth) - worth[rated.index(max(rated))]


def judges_of(game: Game, cards: list[Path]) -> dict[str, Evaluation]:
    """The hand-written evaluation, the model in use (if any) and each model asked for."""
    found: dict[str, Evaluation] = {"hand-written": game}
    shipped = evaluation_of(game, 2, {})
    if isinstance(shipped, LearnedEvaluation):
        found["model in use"] = shipped
    coding = encoding(game, 2, {})
    for card in cards:
        model = Model.load(card)
        model.check(coding)
        found[str(card)] = LearnedEvaluation(game, model, coding)
    return found


def measure(
    game_id: str, games_played: int, every: int, width: int, worlds: int, cards: list[Path]
) -> dict[str, list[float]]:
    game = games.get(game_id)
    judges = judges_of(game, cards)
    found: dict[str, list[float]] = {name: [] for name in judges}
    for seed in range(games_played):
        state = game.setup(2, seed=9000 + seed)
        rng, greedy = Rng(seed), GreedyBot()
        decision = 0
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            if len(state.legal_actions()) > 1 and decision % every == 0:
                afters, worth = worths(state, width, worlds, Rng(seed * 7919 + decision))
                for name, judge in judges.items():
                    found[name].append(regret(judge, seat, afters, worth))
            state.apply(greedy.choose(observe(state, seat), rng))
            decision += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="topiary")
    parser.add_argument("--games", type=int, default=6, help="greedy games")
    parser.add_argument("--every", type=int, default=3, help="measure every n-th decision")
    parser.add_argument("--width", type=int, default=12, help="moves compared a decision")
    parser.add_argument("--worlds", type=int, default=16, help="worlds each move is played in")
    parser.add_argument("--model", type=Path, action="append", default=[], help="a model card")
    args = parser.parse_args()
    found = measure(args.game, args.games, args.every, args.width, args.worlds, args.model)
    print("| evaluation | decisions | mean regret, points | picks the best |")
    print("|---|---:|---:|---:|")
    for name, lost in found.items():
        best = sum(1 for r in lost if r <= 1e-9) / max(len(lost), 1)
        print(f"| {name} | {len(lost)} | {statistics.fmean(lost):.3f} | {best:.0%} |")


if __name__ == "__main__":
    main()
