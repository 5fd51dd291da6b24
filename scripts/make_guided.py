"""Write each game's guided first game: `meadow/games/<game>/guided.json`.

    python scripts/make_guided.py [--game topiary] [--first-seed 1]

The learner (seat 0) plays greedy, the guide (seat 1) a careless greedy (`greedy:0.3`), two
players, the game's default options; seeds are tried from `--first-seed` until the learner
wins (a first game should end well), and the first such game is written. Notes are placed
where a newcomer meets something: `learn.start` before the first move, `learn.do.<kind>` at
the learner's first decision of each kind (the action's first word, digits dropped:
`place`, `take`, `domino` for a Renature domino), and `learn.score.<category>` at the learner's
first decision after one of its scoring categories first grew.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import orjson

from meadow import games
from meadow.bots import make_bot, observe
from meadow.core.guided import LEARNER, GuidedGame
from meadow.core.rng import Rng

ROOT = Path(__file__).resolve().parents[1]


# A kind's name where the first word does not say it: a Renature domino is its number.
KINDS = {"D#": "domino"}


def kind(action: str) -> str:
    first = re.sub(r"\d+", "#", action.split()[0])
    return KINDS.get(first, first)


def play(game_id: str, seed: int) -> GuidedGame | None:
    """The guided game on this seed, or None when the learner does not win it."""
    game = games.get(game_id)
    state = game.setup(2, {}, seed)
    bots, rng = [make_bot("greedy"), make_bot("greedy:0.3")], Rng(seed)
    moves: list[str] = []
    notes: dict[int, list[str]] = {1: ["learn.start"]}
    met: set[str] = set()
    scored: set[str] = set()
    waiting: list[str] = []  # categories that grew, told at the learner's next decision
    before = game.points_now(state, LEARNER)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = str(bots[seat].choose(observe(state, seat), rng))
        number = len(moves) + 1
        if seat == LEARNER:
            here = notes.setdefault(number, [])
            here += [f"learn.score.{c}" for c in waiting]
            waiting = []
            if kind(action) not in met:
                met.add(kind(action))
                here.append(f"learn.do.{kind(action)}")
        state.apply(state.parse_action(action))
        moves.append(action)
        now = game.points_now(state, LEARNER)
        for category, points in now.items():
            if points > before.get(category, 0) and category not in scored:
                scored.add(category)
                waiting.append(category)
        before = now
    if state.result().winners != (LEARNER,):
        return None
    kept = {n: tuple(keys) for n, keys in notes.items() if keys}
    return GuidedGame(game_id, 2, {}, seed, tuple(moves), kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=games.ids(), action="append")
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    for game_id in args.game or games.ids():
        for seed in range(args.first_seed, args.first_seed + 200):
            found = play(game_id, seed)
            if found is not None:
                break
        else:
            raise SystemExit(f"{game_id}: the learner won none of 200 games")
        path = ROOT / "meadow" / "games" / game_id / "guided.json"
        path.write_bytes(orjson.dumps(found.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
        print(
            f"{game_id}: seed {seed}, {len(found.moves)} moves, "
            f"{sum(len(k) for k in found.notes.values())} notes -> {path.relative_to(ROOT)}"
        )


if __name__ == "__main__":
    main()
