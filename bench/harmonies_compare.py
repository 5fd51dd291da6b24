"""Random Harmonies games/s: Meadow's engine against a public pure-Python engine, same machine.

The other engine is SamsiGg/Harmonies (https://github.com/SamsiGg/Harmonies, the Python
backend in `backend - Harmonies/`, measured at commit f3fbe2f6e7d800065ba0bc6bff52f8aa467e6765).
None of its code is in this repository: it is checked out elsewhere and imported from the path
given with `--other`. Its repository has no licence file, so it is only run locally here, never
copied or redistributed. Fetch it, then run (one process, one core):

    git clone https://github.com/SamsiGg/Harmonies /tmp/harmonies-other
    git -C /tmp/harmonies-other checkout f3fbe2f6e7d800065ba0bc6bff52f8aa467e6765
    # or, from a bare mirror: git --git-dir=MIRROR archive HEAD | tar -x -C /tmp/harmonies-other
    .venv/bin/python -m bench.harmonies_compare --other /tmp/harmonies-other [--seconds 10]

Both engines play 2-player games of uniformly random legal decisions until the game ends. A
decision is one legal-decision list plus one apply, at the same granularity on both sides:
take a group of tokens, place one token, take an animal card, place one animal cube, end the
turn. The other engine has no legal-move generator, so the adapter below (our code) builds the
list with the other engine's own checks (`Tile.check_if_add_token_valid`,
`Animal.die_placeable`) and applies with its `moves` functions; at the end it scores both boards
with its `ScoreCalculator`, as ours scores inside the last apply. *games/s* counts wall time,
set-up included; *decisions/s* counts only the time inside legal list + apply.

Differences that remain: the other engine has 26 animal cards (ours 32), no Nature's Spirits
(off here anyway, the default), a cube is placed by space only (it picks the first held card
that fits; ours names the card), cards stay held after completion (at most 4 ever), and its
animal card and river checks work on float coordinates.

The compiled (Rust) engine of miles2542/harmonies-bot is measured beside Meadow, with spirits
on, by `bench/harmonies_rust_peer.py`, which reuses `measure` below.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from meadow import games
from meadow.core.rng import Rng
from meadow.games.harmonies.actions import EndTurn

PLAYERS = 2
BACKEND_DIR = "backend - Harmonies"

# The adapter's decisions for the other engine, as tuples: (TAKE, group index),
# (PLACE, hand index, tile position), (ANIMAL, name), (CUBE, tile position), (END,).
TAKE, PLACE, ANIMAL, CUBE, END = "take", "place", "animal", "cube", "end"
Decision = tuple[Any, ...]


def measure(
    setup: Callable[[int], Any],
    legal: Callable[[Any], list[Any]],
    apply: Callable[[Any, Any], None],
    is_over: Callable[[Any], bool],
    is_end_turn: Callable[[Any], bool],
    seconds: float,
    scores: Callable[[Any], Sequence[float]] | None = None,
) -> dict[str, Any]:
    """Play random games for about `seconds`; count games, decisions, turns, legal options.

    With `scores`, also the mean final score per seat (`mean_score`); the call is left out of
    the wall time, since the engine has already scored the game inside its last apply.
    """
    rng = Rng(2026)
    played = decisions = offered = turns = 0
    busy = 0.0  # time inside legal + apply only
    untimed = 0.0  # inside `scores`
    totals: list[float] = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = setup(played)
        while not is_over(state):
            t0 = time.perf_counter()
            options = legal(state)
            if not options:
                raise RuntimeError(f"game {played}: no legal decision before the end")
            choice = options[rng.below(len(options))]
            apply(state, choice)
            busy += time.perf_counter() - t0
            decisions += 1
            offered += len(options)
            turns += is_end_turn(choice)
        played += 1
        if scores is not None:
            t0 = time.perf_counter()
            final = scores(state)
            totals = [a + b for a, b in zip(totals, final, strict=True)] if totals else [*final]
            untimed += time.perf_counter() - t0
    elapsed = time.perf_counter() - started - untimed
    figures: dict[str, Any] = {
        "games": played,
        "games_per_s": played / elapsed,
        "decisions_per_s": decisions / busy,
        "mean_legal": offered / decisions,
        "decisions_per_game": decisions / played,
        "turns_per_game": turns / played,
    }
    if scores is not None:
        figures["mean_score"] = [total / played for total in totals]
    return figures


def measure_ours(
    seconds: float, options: dict[str, Any] | None = None, with_scores: bool = False
) -> dict[str, Any]:
    """Meadow's random games; `options` as the game's (default: side A, no spirits)."""
    game = games.get("harmonies")
    return measure(
        setup=lambda seed: game.setup(PLAYERS, options, seed=seed),
        legal=lambda state: state.legal_actions(),
        apply=lambda state, action: state.apply(action),
        is_over=lambda state: state.is_over,
        is_end_turn=lambda action: isinstance(action, EndTurn),
        seconds=seconds,
        scores=(lambda state: state.result().scores) if with_scores else None,
    )


class OtherEngine:
    """Thin adapter over SamsiGg/Harmonies' backend: its GameState, `moves` functions and
    rule checks, driven one decision at a time."""

    def __init__(self, path: Path) -> None:
        backend = path / BACKEND_DIR if (path / BACKEND_DIR).is_dir() else path
        if not (backend / "gamestate.py").is_file():
            raise SystemExit(f"{backend}: no gamestate.py (expected a SamsiGg/Harmonies checkout)")
        sys.path.insert(0, str(backend))  # its modules import each other by top-level name
        self.gamestate: ModuleType = importlib.import_module("gamestate")
        self.moves: ModuleType = importlib.import_module("moves")
        self.scoring: ModuleType = importlib.import_module("score_calculator")
        action = self.gamestate.TurnAction
        self.taken, self.placed, self.animal = (
            action.TOKENS_TAKEN,
            action.TOKENS_PLACED,
            action.ANIMAL_TAKEN,
        )

    def setup(self, seed: int) -> Any:
        random.seed(seed)  # the other engine draws tokens and cards from the global `random`
        return self.gamestate.GameState([False] * PLAYERS)

    def legal(self, gs: Any) -> list[Decision]:
        done = gs.completed_moves_this_turn
        player = gs.get_current_player()
        tiles = player.board.tiles
        options: list[Decision] = []
        if self.taken not in done:
            groups = gs.pentagon.token_groups
            options += [(TAKE, i) for i, group in enumerate(groups) if group[0] is not None]
        seen: set[str] = set()
        for index, token in enumerate(player.token_hand.tokens):
            if token.type not in seen:
                seen.add(token.type)
                options += [
                    (PLACE, index, tile.position)
                    for tile in tiles
                    if tile.check_if_add_token_valid(token)
                ]
        if self.animal not in done and len(player.animals) < 4:
            options += [(ANIMAL, animal.name) for animal in gs.animal_display.animals]
        live = [animal for animal in player.animals if animal.dice_amount > 0]
        if live:
            options += [
                (CUBE, tile.position)
                for tile in tiles
                if tile.tokens
                and not tile.has_die
                and any(animal.die_placeable(tile.position, player.board) for animal in live)
            ]
        if self.placed in done:
            options.append((END,))
        return options

    def apply(self, gs: Any, decision: Decision) -> None:
        kind = decision[0]
        if kind == TAKE:
            ok = bool(self.moves.take_token_group(gs, decision[1]))
        elif kind == PLACE:
            ok = self.moves.place_token(gs, decision[1], decision[2])
        elif kind == ANIMAL:
            ok = self.moves.take_animal(gs, decision[1])
        elif kind == CUBE:
            ok = self.moves.place_die(gs, decision[1])
        else:
            ok = gs.finish_move()
            if gs.winner is not None:  # final scoring, as ours does in its last apply
                calculator = self.scoring.ScoreCalculator()
                for player in gs.players:
                    player.score = calculator.calculate_total_score(player)
        if not ok:
            raise RuntimeError(f"the other engine refused {decision}")

    def measure(self, seconds: float) -> dict[str, Any]:
        with contextlib.redirect_stdout(io.StringIO()):  # it prints the winner of each game
            return measure(
                setup=self.setup,
                legal=self.legal,
                apply=self.apply,
                is_over=lambda gs: gs.winner is not None,
                is_end_turn=lambda decision: decision[0] == END,
                seconds=seconds,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="a SamsiGg/Harmonies checkout")
    parser.add_argument("--seconds", type=float, default=10.0, help="per engine")
    args = parser.parse_args()
    other = OtherEngine(args.other)
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {PLAYERS} players, {args.seconds:g} s per engine"
    )
    print()
    print(
        "| engine | games | random games/s | decisions/s | legal per decision "
        "| decisions per game | turns per game |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    rows = {"meadow": measure_ours(args.seconds), "SamsiGg/Harmonies": other.measure(args.seconds)}
    for name, m in rows.items():
        print(
            f"| {name} | {m['games']:,.0f} | {m['games_per_s']:,.1f} | "
            f"{m['decisions_per_s']:,.0f} | {m['mean_legal']:.1f} | "
            f"{m['decisions_per_game']:.1f} | {m['turns_per_game']:.1f} |"
        )
    ours, theirs = rows["meadow"], rows["SamsiGg/Harmonies"]
    print()
    print(
        f"ours/theirs: {ours['games_per_s'] / theirs['games_per_s']:.1f}x games/s, "
        f"{ours['decisions_per_s'] / theirs['decisions_per_s']:.1f}x decisions/s"
    )


if __name__ == "__main__":
    main()
