"""Harmonies head to head: a Meadow bot against miles2542/harmonies-bot, a public Rust advisor.

The peer is https://github.com/miles2542/harmonies-bot (Apache-2.0), measured at commit
a5ffa20f4d6206632eec2c83e93c39cff79283c8. None of its code or files are in this repository:
it is exported and built elsewhere, and this script runs the built command-line advisor from
the path given with `--peer`:

    mkdir -p /tmp/harmonies-bot
    git --git-dir=MIRROR archive HEAD | tar -x -C /tmp/harmonies-bot   # or git clone
    cd /tmp/harmonies-bot && cargo build --release -p harmonies-cli
    cd /work/main && .venv/bin/python -m bench.harmonies_peer --peer /tmp/harmonies-bot \\
        --bot hard -n 30 --jobs 1

Without crates.io, Debian's packaged crates build it too: `apt-get install
librust-serde-json-dev librust-rayon-dev librust-anyhow-dev librust-thiserror-dev
librust-pretty-assertions-dev`, a `.cargo/config.toml` in the checkout replacing crates-io
with the directory source /usr/share/cargo/registry (offline), the workspace's Cargo.lock
moved aside and `crates/harmonies-service` (axum, tokio) dropped from the workspace members.

Games are 2-player, board side A, Nature's Spirits on. Meadow's `HarmoniesState` is the
referee; the peer only advises its seat. At the start of each of its turns the adapter (our
code) builds the peer's `AdvisorRequestV1` from the seat's view (`observe(...).view`: boards,
held and completed cards, the central board, the display and the pouch's counts, all public;
nothing of the pouch's or the deck's order), runs the advisor once (JSON on stdin, the answer
on stdout), and plays its best plan step by step in Meadow. A step Meadow refuses is counted
and replaced by Meadow's first legal action of the same kind (a cube: of the same card, else
dropped); a mandatory step the plan leaves out (a token not placed) is filled the same way
and counted apart.

The peer's settings are its defaults: no HARMONIES_* environment variable (they are removed
from the child's environment), no weights file (`EvalWeights::default()`, heuristic mode
"baseline", root beam 512, future depth 4), its own card catalog `docs/cards_database.json`,
and rayon's default thread count (one per CPU). Its lookahead stops at the request's
`timeBudgetMs`, but the first stage (every plan for this turn) always runs to the end, so a
turn may take longer, the first one most (two spirits to choose from). The command line has
no default budget, so `--peer-ms` defaults to 1500, the value in its own fixture requests
(its browser extension asks for 106 s).
`--peer-env HARMONIES_X=V` and `--peer-weights FILE` run it otherwise, e.g. its README's
recommended set: HARMONIES_HEURISTIC_MODE=dynamic_demand_tuned, HARMONIES_TT_SIZE=21,
HARMONIES_ROOT_BEAM=2048, HARMONIES_FUTURE_DEPTH=1 and docs/weights.spirit_focused.json.

Mapping: both engines address board spaces as BGA does (odd-q columns, `col`/`row` from 0),
so Meadow's space `c2` is the peer's {col: 2, row: 1}; Meadow's card ids are BGA's type
args (the data files' `bga_type_arg`), which the peer's catalog is keyed by; token colours
map blue/gray/brown/green/yellow/red to water/mountain/trunk/foliage/field/building. The
peer's own score of both boards (`initialScores`) is compared with Meadow's at each of its
turns. Rule difference: in card habitats and in the Cat's and the Stork's groups the peer
takes any red-topped stack, a lone red token too, for a Building; Meadow (the referee), as
the rulebook, only 2-high ones. Its Building category itself agrees with Meadow's. Its river
is measured from the river's end tokens (one blue neighbour at most), so a clump of blue may
score less than in Meadow, which takes the longest shortest path. Its `score` command agreed
with Meadow on every category of 357 of 360 boards from random games, the 3 others in water.
tests/bench/test_harmonies_peer.py runs the peer too when MEADOW_HARMONIES_PEER names the
built checkout.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from statistics import fmean
from typing import Any

from meadow import games
from meadow.bots import observe
from meadow.cli.tournament import wilson
from meadow.core import data
from meadow.core.actions import JSON, Action
from meadow.core.errors import IllegalAction
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import (
    ChooseSpirit,
    EndTurn,
    PlaceCube,
    PlaceToken,
    TakeCard,
    TakeTokens,
)
from meadow.games.harmonies.rules import HarmoniesState
from meadow.games.harmonies.scoring import CATEGORIES
from meadow.rl.players import make_player

PLAYERS = 2
OPTIONS: dict[str, object] = {"side": "A", "spirits": True}
PEER_MS = 1500  # the peer's fixture requests ask for 1.5 s
PEER_RESULTS = 3  # as its fixtures; only the best plan is played
PEER_IDS = ("seat0", "seat1")
BINARY = Path("target/release/harmonies-cli")
CATALOG = Path("docs/cards_database.json")

TO_PEER = {
    "blue": "water",
    "gray": "mountain",
    "brown": "trunk",
    "green": "foliage",
    "yellow": "field",
    "red": "building",
}
FROM_PEER = {peer: ours for ours, peer in TO_PEER.items()}


# -- names and places -------------------------------------------------------------------


@cache
def type_args() -> dict[str, int]:
    """Card slug -> the BGA type arg the peer's catalog is keyed by."""
    found: dict[str, int] = {}
    for name in ("animal_cards.json", "spirit_cards.json"):
        for card in data.load_json("meadow.games.harmonies", "harmonies", name)["cards"]:
            found[c.slug(card["name"])] = card["bga_type_arg"]
    return found


@cache
def slugs_by_type_arg() -> dict[int, str]:
    return {arg: slug for slug, arg in type_args().items()}


def to_coord(cell: str) -> dict[str, int]:
    """Meadow's `c2` -> the peer's {col: 2, row: 1} (both odd-q, BGA's numbering)."""
    parsed = c.parse_cell_name(cell)
    if parsed is None:
        raise ValueError(f"not a board space: {cell!r}")
    return {"col": parsed[0], "row": parsed[1]}


def from_coord(col: int, row: int) -> str:
    return c.cell_name((col, row))


# -- Meadow view -> the peer's request --------------------------------------------------


def _card(slug: str, remaining: int) -> dict[str, JSON]:
    arg = type_args()[slug]
    card = c.cards()[c.card_by_slug()[slug]]
    return {"cardId": arg, "typeArg": arg, "remainingCubes": remaining, "isSpirit": card.spirit}


def _player(board: dict[str, Any], player_id: str) -> dict[str, JSON]:
    cubes: dict[str, str] = board["cubes"]
    cells: list[JSON] = [
        {
            "coord": to_coord(cell),
            "stack": {"tokens": [TO_PEER[t] for t in stack]},
            "lockedByCube": cell in cubes,
        }
        for cell, stack in board["stacks"].items()
    ]
    total = {slug: c.cards()[c.card_by_slug()[slug]].cubes for slug in type_args()}
    return {
        "playerId": player_id,
        "cells": cells,
        "activeCards": [_card(e["card"], total[e["card"]] - e["placed"]) for e in board["cards"]],
        "spiritCardChoices": [_card(s, 1) for s in board.get("spirit_offer", [])]
        if board["spirit"] is None
        else [],
        "completedCards": [_card(e["card"], 0) for e in board["completed"]],
        "emptyHexes": board["empty_spaces"],
    }


def snapshot(view: dict[str, Any], seat: int) -> dict[str, JSON]:
    """The peer's GameSnapshotV1 for `seat`, from that seat's view only."""
    if view["side"] != "A":
        raise ValueError("the peer plays board side A here")
    pouch = {TO_PEER[colour]: n for colour, n in view["pouch"].items()}
    return {
        "schemaVersion": 1,
        "perspectivePlayerId": PEER_IDS[seat],
        "activePlayerId": PEER_IDS[view["to_move"]],
        "boardSide": "sideA",
        "players": [_player(b, PEER_IDS[s]) for s, b in enumerate(view["boards"])],
        "centralTokenGroups": [[TO_PEER[t] for t in space] for space in view["central"]],
        "riverCards": [
            _card(slug, c.cards()[c.card_by_slug()[slug]].cubes) for slug in view["display"]
        ],
        "bagCounts": {**pouch, "unknown": 0},
        "cardsCatalogVersion": "bga",
    }


def request(view: dict[str, Any], seat: int, budget_ms: int, seed: int) -> dict[str, JSON]:
    return {
        "snapshot": snapshot(view, seat),
        "timeBudgetMs": budget_ms,
        "maxResults": PEER_RESULTS,
        "seed": seed,
        "runtimeMode": "meadow-bench",
    }


# -- the peer's plan -> Meadow actions --------------------------------------------------


def plan_actions(plan: dict[str, Any]) -> list[Action]:
    """The peer's ordered actions as Meadow actions (EndTurn not included)."""
    actions: list[Action] = []
    for step in plan["orderedActions"]:
        kind = step["kind"]
        if kind == "takeGroup":
            actions.append(TakeTokens(step["groupIndex"] + 1))
        elif kind == "placeToken":
            actions.append(
                PlaceToken(FROM_PEER[step["token"]], from_coord(step["col"], step["row"]))
            )
        elif kind == "draftCard":
            actions.append(TakeCard(slugs_by_type_arg()[step["typeArg"]]))
        elif kind == "settleCard":
            cell = from_coord(step["col"], step["row"])
            actions.append(PlaceCube(slugs_by_type_arg()[step["typeArg"]], cell))
        elif kind == "chooseSpirit":
            actions.append(ChooseSpirit(slugs_by_type_arg()[step["typeArg"]]))
        else:
            raise ValueError(f"unknown peer step {kind!r}")
    return actions


def stand_in(action: Action, legal: Sequence[Action]) -> Action | None:
    """Meadow's first legal action of the same kind: for a token the same colour if it can,
    for a cube the same card's (else none: cubes and cards are optional, and one the peer
    did not plan is not its move)."""
    same = [a for a in legal if type(a) is type(action)]
    if isinstance(action, PlaceToken):
        colour = action.colour
        same = [a for a in same if isinstance(a, PlaceToken) and a.colour == colour] or same
    elif isinstance(action, PlaceCube | TakeCard):
        card = action.card
        same = [a for a in same if isinstance(a, PlaceCube | TakeCard) and a.card == card]
    return same[0] if same else None


@dataclass
class TurnPlay:
    """What playing one plan did: actions applied, refused steps, steps filled in."""

    applied: list[Action] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    filled: int = 0


def play_plan(state: HarmoniesState, seat: int, actions: list[Action]) -> TurnPlay:
    """Play the plan's steps in Meadow, then whatever the turn still needs, then end it."""
    turn = TurnPlay()
    for action in actions:
        try:
            state.apply(action)
        except IllegalAction as refused:
            turn.refused.append(str(refused))
            substitute = stand_in(action, state.legal_actions())
            if substitute is None:
                continue
            state.apply(substitute)
            action = substitute
        turn.applied.append(action)
    while state.to_move == seat:
        legal = state.legal_actions()
        if EndTurn() in legal:
            state.apply(EndTurn())
            turn.applied.append(EndTurn())
            break
        # A spirit not chosen, no tokens taken or a token left: the first legal step of a
        # mandatory kind (never an optional card or cube).
        action = next(a for a in legal if isinstance(a, ChooseSpirit | TakeTokens | PlaceToken))
        state.apply(action)
        turn.applied.append(action)
        turn.filled += 1
    return turn


# -- running the peer -------------------------------------------------------------------


@dataclass(frozen=True)
class Peer:
    """The built advisor, its catalog, and what it is run with (its defaults unless set)."""

    binary: Path
    catalog: Path
    budget_ms: int = PEER_MS
    env: tuple[tuple[str, str], ...] = ()  # HARMONIES_* settings; none: its defaults
    weights: Path | None = None  # an EvalWeights file; none: EvalWeights::default()

    @classmethod
    def at(cls, path: Path, budget_ms: int = PEER_MS, **settings: Any) -> Peer:
        """A checkout (with its release build) or the built binary inside one."""
        root = path if path.is_dir() else path.parents[2]
        binary = root / BINARY if path.is_dir() else path
        if not binary.is_file():
            raise SystemExit(f"{binary}: no harmonies-cli (build it: see this module's docstring)")
        if not (root / CATALOG).is_file():
            raise SystemExit(f"{root / CATALOG}: the peer's card catalog is missing")
        return cls(binary.resolve(), (root / CATALOG).resolve(), budget_ms, **settings)

    def settings(self) -> str:
        chosen = [f"{k}={v}" for k, v in self.env]
        chosen += [f"weights {self.weights}"] if self.weights else []
        return f"{self.budget_ms} ms/turn, " + (", ".join(chosen) or "defaults otherwise")

    def advise(self, req: dict[str, JSON]) -> tuple[dict[str, Any], float]:
        """Its answer and the wall time of the call (request on stdin unless a weights file
        is given: the command line takes that only after a request file and the catalog)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("HARMONIES_")}
        env.update(self.env)
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            command = [str(self.binary)]
            if self.weights is not None:
                json.dump(req, f)
                f.flush()
                command += [f.name, str(self.catalog), str(self.weights)]
            started = time.perf_counter()
            done = subprocess.run(
                command,
                input=json.dumps(req),
                capture_output=True,
                text=True,
                env=env,
                cwd=self.catalog.parent.parent,  # its default catalog path is relative
                check=False,
            )
            elapsed = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"harmonies-cli failed ({done.returncode}): {done.stderr[-500:]}")
        return json.loads(done.stdout), elapsed

    def score(self, snap: dict[str, JSON]) -> dict[str, dict[str, int]]:
        """The peer's own score breakdown of each board in a snapshot (its `score` command)."""
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(snap, f)
            f.flush()
            done = subprocess.run(
                [str(self.binary), "score", f.name, "--catalog", str(self.catalog)],
                capture_output=True,
                text=True,
                check=True,
            )
        report = json.loads(done.stdout)
        return {p["playerId"]: p["breakdown"] for p in report["players"]}


# -- one game ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    seed: int  # the deal
    peer_seat: int
    bot: str
    peer: Peer


@dataclass
class Record:
    """One game, seen from the two sides ("bot" is the Meadow bot)."""

    match: Match
    scores: dict[str, int]
    shares: dict[str, float]
    points: dict[str, dict[str, int]]
    think: dict[str, list[float]]  # seconds per turn
    refused: list[str]
    filled: int
    checks: list[tuple[int, int, int]]  # per board at the peer's turns, see score_checks
    depths: list[int]  # per peer turn: lookahead turns completed before its deadline


def lone_reds(stacks: dict[str, list[str]]) -> int:
    """Lone red tokens: the peer takes any red-topped stack for a Building in card habitats
    and in the Cat's and the Stork's groups; Meadow, as the rulebook, only 2-high ones."""
    return sum(1 for stack in stacks.values() if stack == ["red"])


def score_checks(view: dict[str, Any], answer: dict[str, Any]) -> list[tuple[int, int, int]]:
    """Per board: (Meadow's total, the peer's, lone red tokens on it)."""
    theirs = answer.get("initialScores", {})
    return [
        (
            sum(view["points"][seat][k] for k in CATEGORIES),
            theirs[PEER_IDS[seat]],
            lone_reds(board["stacks"]),
        )
        for seat, board in enumerate(view["boards"])
    ]


def play_game(match: Match) -> Record:
    state = games.get("harmonies").setup(PLAYERS, OPTIONS, match.seed)
    assert isinstance(state, HarmoniesState)
    peer = match.peer
    bot = make_player(match.bot, trust_imports=True)
    rng = Rng(match.seed).spawn()
    think: dict[str, list[float]] = {"bot": [], "peer": []}
    refused: list[str] = []
    checks: list[tuple[int, int, int]] = []
    depths: list[int] = []
    filled = 0
    bot_turn = 0.0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if seat == match.peer_seat:
            view = observe(state, seat).view
            answer, seconds = peer.advise(
                request(view, seat, peer.budget_ms, match.seed * 1000 + state.ply)
            )
            think["peer"].append(seconds)
            checks += score_checks(view, answer)
            depths.append(answer.get("progress", {}).get("depthCompleted", 0))
            plans = answer.get("bestMoves") or []
            turn = play_plan(state, seat, plan_actions(plans[0]) if plans else [])
            refused += turn.refused
            filled += turn.filled
            continue
        started = time.perf_counter()
        action = bot.choose(observe(state, seat), rng)
        bot_turn += time.perf_counter() - started
        state.apply(action)
        if state.to_move != seat:
            think["bot"].append(bot_turn)
            bot_turn = 0.0
    result = state.result()
    sides = {match.peer_seat: "peer", 1 - match.peer_seat: "bot"}
    return Record(
        match=match,
        scores={sides[s]: result.scores[s] for s in range(PLAYERS)},
        shares={
            sides[s]: (1 / len(result.winners) if s in result.winners else 0.0)
            for s in range(PLAYERS)
        },
        points={sides[s]: dict(result.breakdown[s]) for s in range(PLAYERS)},
        think=think,
        refused=refused,
        filled=filled,
        checks=checks,
        depths=depths,
    )


# -- many games -------------------------------------------------------------------------


def matches(bot: str, peer: Peer, deals: int, seed: int) -> list[Match]:
    """Each deal twice, the seats swapped."""
    return [Match(seed + i, peer_seat, bot, peer) for i in range(deals) for peer_seat in (1, 0)]


def run(todo: list[Match], jobs: int) -> Iterator[Record]:
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            yield from pool.imap_unordered(play_game, todo)
    else:
        yield from map(play_game, todo)


def report(records: list[Record], bot: str) -> list[str]:
    """The summary, as Markdown lines."""
    n = len(records)
    names = {"bot": f"meadow {bot}", "peer": "miles2542/harmonies-bot"}
    lines = [
        "| side | wins | win rate | 95 % interval | mean score | "
        + " | ".join(CATEGORIES)
        + " | s/turn |",
        "|---|---:|---:|---:|---:|" + "---:|" * len(CATEGORIES) + "---:|",
    ]
    for side in ("bot", "peer"):
        wins = sum(r.shares[side] for r in records)
        low, high = wilson(wins, n)
        per_category = [fmean(r.points[side][k] for r in records) for k in CATEGORIES]
        turns = [t for r in records for t in r.think[side]]
        lines.append(
            f"| {names[side]} | {wins:g} | {wins / n:.1%} | {low:.1%}-{high:.1%} | "
            f"{fmean(r.scores[side] for r in records):.1f} | "
            + " | ".join(f"{v:.1f}" for v in per_category)
            + f" | {fmean(turns) if turns else 0.0:.2f} |"
        )
    checks = [k for r in records for k in r.checks]
    refused = [s for r in records for s in r.refused]
    peer_turns = sum(len(r.think["peer"]) for r in records)
    depths = [d for r in records for d in r.depths]
    differ = [(ours, theirs, lone) for ours, theirs, lone in checks if ours != theirs]
    lines += [
        "",
        f"peer turns: {peer_turns}; plan steps Meadow refused: {len(refused)}; "
        f"mandatory steps filled in: {sum(r.filled for r in records)}; the peer's lookahead "
        f"completed {fmean(depths) if depths else 0:.2f} turns on average (0 on "
        f"{sum(d == 0 for d in depths)} turns)",
        f"score checks at the peer's turns: the peer's total equals Meadow's on "
        f"{len(checks) - len(differ)} of {len(checks)} boards; of the {len(differ)} others, "
        f"{sum(1 for *_, lone in differ if lone)} hold a lone red token",
    ]
    lines += [f"  refused: {s}" for s in refused[:10]]
    return lines


def peer_env(pairs: list[str]) -> tuple[tuple[str, str], ...]:
    """`--peer-env KEY=VALUE` items: only the peer's own HARMONIES_* settings."""
    env = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.startswith("HARMONIES_"):
            raise SystemExit(f"--peer-env {pair!r}: expected HARMONIES_<NAME>=<value>")
        env.append((key, value))
    return tuple(env)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--peer", type=Path, required=True, help="harmonies-bot checkout or its harmonies-cli"
    )
    parser.add_argument("--bot", default="hard", help="a Meadow bot spec (make_player)")
    parser.add_argument("-n", type=int, default=30, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1, help="first deal; deal i uses seed + i")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--peer-ms", type=int, default=PEER_MS, help="the peer's time budget per turn (ms)"
    )
    parser.add_argument(
        "--peer-env",
        action="append",
        default=[],
        metavar="HARMONIES_X=V",
        help="a setting of the peer (repeatable); none by default, i.e. its defaults",
    )
    parser.add_argument("--peer-weights", type=Path, help="the peer's EvalWeights file")
    args = parser.parse_args()
    if args.n < 1 or args.jobs < 1:
        raise SystemExit("-n and --jobs must be 1 or more")
    peer = Peer.at(  # a missing build fails before any game
        args.peer, args.peer_ms, env=peer_env(args.peer_env), weights=args.peer_weights
    )
    make_player(args.bot, trust_imports=True)
    todo = matches(args.bot, peer, args.n, args.seed)
    started = time.perf_counter()
    records = sorted(run(todo, args.jobs), key=lambda r: (r.match.seed, r.match.peer_seat))
    elapsed = time.perf_counter() - started
    print(
        f"Harmonies, 2 players, side A, Nature's Spirits; {len(records)} games "
        f"({args.n} deals x 2 seatings, seeds {args.seed}..{args.seed + args.n - 1}); "
        f"peer: {peer.settings()}; jobs {args.jobs}; {elapsed:.0f} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    print()
    for line in report(records, args.bot):
        print(line)


if __name__ == "__main__":
    main()
