"""Equality before speed: the same seeded random games on two versions of Meadow, compared.

    .venv/bin/python -m bench.differential --against HEAD~1 --games 10000 --jobs 2
    .venv/bin/python -m bench.differential --against 068f6f7 --game harmonies --games 500
    .venv/bin/python -m bench.differential --against 460227d --game mystic_vale \
        --first 5000 --games 5000   # games 5000..9999: a long run split over sittings

Every game is played on both versions, this checkout and a git worktree of `--against`
(made under /tmp and kept for the next run), each in processes of its own: the worktree's
`meadow` is imported there, this file's trace code is the same on both sides. The moves
are chosen by Python's own `random`, seeded per game, by index into the legal list, so both
versions play the same game as long as they agree. At every step the trace takes the legal
list (as text), the events, every seat's view and the spectator's, and the state's JSON (the
stored form: a change there would break saved games); at the end the result. Each game
becomes one digest per side; where two differ, the game is traced again step by step and
the first step that differs is shown from both sides.

The games are spread over every player count (up to 4) and over the options: the defaults,
and each option changed alone to each of its other values (Harmonies with spirits on and
off, each Renature board, ...). Only the contract is used (`games.get`, `setup`,
`legal_actions`, `apply`, `view`, `to_json`, `result`), which every earlier commit has.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import typing
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MOST_PLAYERS = 4
MOST_STEPS = 20_000  # a game longer than this is a bug on its own


# -- one side: play and trace -------------------------------------------------------------


def configurations(game_id: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) to spread a game's runs over: every player count, with the default
    options and with each option alone at each of its other values."""
    from meadow import games

    game = games.get(game_id)
    default = game.Options().model_dump()
    variants = [default]
    for name, field in game.Options.model_fields.items():
        values: tuple[Any, ...] = typing.get_args(field.annotation)
        if field.annotation is bool:
            values = (True, False)
        variants += [default | {name: v} for v in values if v != default[name]]
    counts = [p for p in game.player_counts if p <= MOST_PLAYERS]
    return [
        (players, options)
        for options in variants
        for players in counts
        if _fits(game, players, options)
    ]


def _fits(game: Any, players: int, options: dict[str, Any]) -> bool:
    """Whether the game accepts these options at this player count (Topiary's removed motif
    set needs fewer than 4 players)."""
    from meadow.core.errors import OptionError

    try:
        game.setup(players, options, 0)
    except OptionError:
        return False
    return True


def steps(game_id: str, index: int) -> Iterator[Any]:
    """Game number `index` of `game_id`, step by step: what the trace compares."""
    from meadow import games

    game = games.get(game_id)
    configs = configurations(game_id)
    players, options = configs[index % len(configs)]
    state = game.setup(players, options, index)
    chooser = random.Random(f"{game_id}/{index}")
    yield {"players": players, "options": options}
    for _ in range(MOST_STEPS):
        if state.is_over:
            break
        legal = [str(action) for action in state.legal_actions()]
        pick = chooser.randrange(len(legal))
        events = state.apply(state.legal_actions()[pick])
        views = [state.view(seat) for seat in [*range(players), None]]
        yield {"legal": legal, "pick": pick, "events": events, "views": views}
        yield {"state": state.to_json()}
    yield {"result": asdict(state.result()) if state.is_over else "not over"}


def canonical(part: Any) -> bytes:
    return json.dumps(part, sort_keys=True, default=plain).encode()


def plain(value: Any) -> Any:
    """JSON for what is not: an event (a dataclass) by its fields, anything else as text."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    return str(value)


def trace(game_id: str, indices: list[int]) -> dict[int, str]:
    """Each game's digest of every step."""
    out = {}
    for index in indices:
        digest = hashlib.sha256()
        for part in steps(game_id, index):
            digest.update(canonical(part))
        out[index] = digest.hexdigest()
    return out


# -- both sides ---------------------------------------------------------------------------


def worktree(commit: str) -> Path:
    """A checkout of `commit` beside this one (made once, then reused)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{commit}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    path = Path("/tmp") / f"meadow-differential-{sha[:12]}"
    if not (path / "meadow").is_dir():
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--force", str(path), sha],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
    return path


def run_with(root: Path, script: Path, args: list[str], **env: str) -> str:
    """`script` run in `root` with `root`'s meadow; what it printed."""
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root), **env),
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"{script.name} with {root} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def side(root: Path, command: list[str]) -> Any:
    """Run this file's `command` with `root`'s meadow; its answer is JSON on stdout."""
    # One hash seed for both: the order of a set's strings is not a rule of the game.
    return json.loads(run_with(root, Path(__file__).resolve(), command, PYTHONHASHSEED="0"))


def chunks(indices: list[int], size: int) -> list[list[int]]:
    return [indices[i : i + size] for i in range(0, len(indices), size)]


def compare(game_id: str, first: int, games_count: int, old: Path, jobs: int) -> list[str]:
    """Play games `first`.. (`games_count` of them) on both sides; a line per game that
    differs."""
    indices = list(range(first, first + games_count))
    batches = chunks(indices, max(1, games_count // (4 * jobs)))
    jobs_list = [(root, batch) for batch in batches for root in (ROOT, old)]

    def run(job: tuple[Path, list[int]]) -> dict[str, str]:
        root, batch = job
        return side(root, ["trace", game_id, ",".join(map(str, batch))])

    with ThreadPoolExecutor(jobs) as pool:
        answers = list(pool.map(run, jobs_list))
    new_digests: dict[str, str] = {}
    old_digests: dict[str, str] = {}
    for k, answer in enumerate(answers):  # this checkout's and the other's, in turn
        (old_digests if k % 2 else new_digests).update(answer)
    problems = []
    for index in sorted(new_digests, key=int):
        if new_digests[index] != old_digests.get(index):
            problems.append(explain(game_id, int(index), old))
    return problems


def explain(game_id: str, index: int, old: Path) -> str:
    """The first step of game `index` that differs, from both sides."""
    before = side(old, ["steps", game_id, str(index)])
    now = side(ROOT, ["steps", game_id, str(index)])
    for step in range(max(len(before), len(now))):
        then = before[step] if step < len(before) else "(no such step)"
        this = now[step] if step < len(now) else "(no such step)"
        if then != this:
            shown = f"\n  before: {then[:2000]}\n  now:    {this[:2000]}"
            return f"{game_id} game {index}, step {step}:{shown}"
    return f"{game_id} game {index}: the digests differ, the steps do not (a hash seed?)"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "trace":  # one side's digests, as JSON
        print(json.dumps(trace(argv[1], [int(i) for i in argv[2].split(",")])))
        return 0
    if argv and argv[0] == "steps":  # one game's every step, as JSON texts
        print(json.dumps([canonical(p).decode() for p in steps(argv[1], int(argv[2]))]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the commit to compare with")
    parser.add_argument("--game", action="append", help="a game id (default: every game)")
    parser.add_argument("--games", type=int, default=1000, help="games per game")
    parser.add_argument(
        "--first", type=int, default=0, help="the first game's number (runs in parts add up)"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from meadow import games

    old = worktree(args.against)
    failed = False
    for game_id in args.game or games.ids():
        problems = compare(game_id, args.first, args.games, old, args.jobs)
        last = args.first + args.games - 1
        print(
            f"{game_id}: {args.games} games ({args.first}..{last}), {len(problems)} differ",
            flush=True,
        )
        for problem in problems[:3]:
            print(problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
