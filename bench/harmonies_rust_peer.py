"""Random Harmonies games/s: Meadow's engine beside the compiled (Rust) engine of
miles2542/harmonies-bot, same machine, one core each.

The peer is https://github.com/miles2542/harmonies-bot (Apache-2.0), measured at commit
a5ffa20f4d6206632eec2c83e93c39cff79283c8: its `harmonies-core` crate, driven by our own small
Rust program in `bench/peer/harmonies_random/` (it uses the crate as a dependency by path;
none of the peer's code is in this repository). This script copies that driver into the
checkout given with `--peer` (as `meadow-harmonies-random/`, its own cargo workspace, so the
checkout's web service and lock file stay out of it), builds it there offline against
Debian's packaged crates, and runs it:

    apt-get install -y librust-serde-json-dev librust-rayon-dev librust-thiserror-dev \\
        librust-serde-derive-dev
    mkdir -p /tmp/harmonies-bot
    git --git-dir=MIRROR archive HEAD | tar -x -C /tmp/harmonies-bot   # or git clone
    .venv/bin/python -m bench.harmonies_rust_peer --peer /tmp/harmonies-bot --seconds 10 --runs 3

The same build by hand (what `build` runs; crates.io is not needed):

    cp -r bench/peer/harmonies_random /tmp/harmonies-bot/meadow-harmonies-random
    cd /tmp/harmonies-bot/meadow-harmonies-random && cargo build --release --offline \\
        --config 'source.crates-io.replace-with="debian-packages"' \\
        --config 'source.debian-packages.directory="/usr/share/cargo/registry"'
    ./target/release/harmonies-random --catalog ../docs/cards_database.json --seconds 3

Both engines play 2-player games, board side A, Nature's Spirits on, set-up and final
scoring inside the timer. Meadow's games are `bench.harmonies_compare.measure`'s: each
decision uniform over the whole legal list. The peer's follow a phase-structured policy
(its engine has no single legal list): keep a spirit (first turn), take a group, place its
tokens one (colour, space) at a time, take none or one display card uniformly, then place
cubes or end the turn, each uniform among its options; the driver's docstring has the
details. Both come to some 89-90 decisions and 16 turns a game, with the same mean scores
(about 20 a seat). Runs alternate, peer then Meadow, `--runs` times; with more than one run
the table gives each figure's range.

What the driver had to supply, the engine having no public set-up, pouch, deck or end
check: the deal (120 tokens, five groups, 32 animal cards with five face up, two spirits a
player), refills, and the end after the round in which a player has two empty spaces or
fewer or the pouch runs short. Rule differences left in the peer's engine: a red-topped
stack of any height counts as a Building in card habitats, its river is measured from the
river's ends (see `bench/harmonies_peer.py`), no cube reserve limits taking a card (Meadow
refuses a card when too few cubes remain), and its water score walks a hash set in the
process's random order, so a clump of blue without an end can score differently from one
run to the next (the games played do not change with it, only the mean scores, a little).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.harmonies_compare import measure_ours

OPTIONS: dict[str, Any] = {"side": "A", "spirits": True}
DRIVER = Path(__file__).resolve().parent / "peer" / "harmonies_random"
BUILD_DIR = "meadow-harmonies-random"  # inside the checkout: the driver's `../crates` path
BINARY = Path(BUILD_DIR, "target", "release", "harmonies-random")
CATALOG = Path("docs", "cards_database.json")
CORE = Path("crates", "harmonies-core", "Cargo.toml")
REGISTRY = Path("/usr/share/cargo/registry")
APT = (
    "apt-get install -y librust-serde-json-dev librust-rayon-dev librust-thiserror-dev "
    "librust-serde-derive-dev"
)
# What the driver's JSON must carry for the table.
REPORT_KEYS = (
    "games",
    "seconds",
    "games_per_s",
    "decisions",
    "decisions_per_game",
    "turns_per_game",
    "mean_legal",
    "mean_score",
)


def cargo_command(registry: Path = REGISTRY) -> list[str]:
    """The offline release build, crates.io replaced by Debian's directory of crates."""
    return [
        "cargo",
        "build",
        "--release",
        "--offline",
        "--config",
        'source.crates-io.replace-with="debian-packages"',
        "--config",
        f'source.debian-packages.directory="{registry}"',
    ]


def check_checkout(checkout: Path) -> None:
    if not (checkout / CORE).is_file() or not (checkout / CATALOG).is_file():
        raise SystemExit(
            f"{checkout}: no {CORE} or {CATALOG} (expected a miles2542/harmonies-bot checkout)"
        )


def build(checkout: Path) -> Path:
    """Copy the driver into the checkout and build it; the binary's path."""
    check_checkout(checkout)
    if shutil.which("cargo") is None:
        raise SystemExit("cargo not found: the driver is built with Rust's cargo")
    if not REGISTRY.is_dir():
        raise SystemExit(f"{REGISTRY} missing: Debian's crates build the driver offline: {APT}")
    target = checkout / BUILD_DIR
    target.mkdir(exist_ok=True)
    # copy2 keeps the times, so an unchanged driver is not compiled again.
    shutil.copytree(DRIVER / "src", target / "src", dirs_exist_ok=True)
    shutil.copy2(DRIVER / "Cargo.toml", target / "Cargo.toml")
    done = subprocess.run(cargo_command(), cwd=target, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"cargo build failed in {target}:\n{done.stderr[-4000:]}")
    return checkout / BINARY


def parse_report(text: str) -> dict[str, Any]:
    """The driver's JSON object (its last line of output), checked for the table's keys."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("the driver printed nothing")
    try:
        report = json.loads(lines[-1])
    except json.JSONDecodeError as error:
        raise ValueError(f"the driver's output is not JSON: {lines[-1][:200]!r}") from error
    if not isinstance(report, dict):
        raise ValueError(f"the driver's output is not a JSON object: {lines[-1][:200]!r}")
    missing = [key for key in REPORT_KEYS if key not in report]
    if missing:
        raise ValueError(f"the driver's report lacks {', '.join(missing)}")
    if report["games"] < 1:
        raise ValueError("the driver played no game")
    return report


def run_peer(binary: Path, checkout: Path, seconds: float, seed: int) -> dict[str, Any]:
    command = [str(binary), "--catalog", str(checkout / CATALOG), "--seconds", str(seconds)]
    done = subprocess.run(
        [*command, "--seed", str(seed)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{binary} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return parse_report(done.stdout)


def run_meadow(seconds: float) -> dict[str, Any]:
    return measure_ours(seconds, OPTIONS, with_scores=True)


def span(values: Sequence[float], digits: int = 0) -> str:
    """`low-high` as the docs write ranges, one figure when they agree."""
    low, high = (f"{v:,.{digits}f}" for v in (min(values), max(values)))
    return low if low == high else f"{low}-{high}"


def row(name: str, runs: list[dict[str, Any]]) -> str:
    def each(key: str) -> list[float]:
        return [float(run[key]) for run in runs]

    seats = [[float(run["mean_score"][seat]) for run in runs] for seat in range(2)]
    return (
        f"| {name} | {len(runs)} | {sum(int(run['games']) for run in runs):,} | "
        f"{span(each('games_per_s'))} | {span(each('decisions_per_game'), 1)} | "
        f"{span(each('turns_per_game'), 1)} | {span(each('mean_legal'), 1)} | "
        f"{span(seats[0], 1)} / {span(seats[1], 1)} |"
    )


def table(peer: list[dict[str, Any]], meadow: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| engine | runs | games | random games/s | decisions per game | turns per game "
        "| legal per decision | mean score (seat 1 / seat 2) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    if peer:
        lines.append(row("miles2542/harmonies-bot (Rust)", peer))
    lines.append(row("meadow", meadow))
    if peer:
        # Each run's ratio against the Meadow run right after it (the two share the load).
        ratios = [p["games_per_s"] / m["games_per_s"] for p, m in zip(peer, meadow, strict=True)]
        lines += ["", f"peer/meadow: {span(ratios, 2)}x random games/s"]
    return lines


def peer_binary(args: argparse.Namespace) -> Path | None:
    """The built driver, or None (with the reason printed) when the peer is left out."""
    if args.peer is None:
        print("peer: skipped (no --peer CHECKOUT given; see this module's docstring)")
        return None
    check_checkout(args.peer)
    if not args.no_build:
        print(f"peer: building the driver in {args.peer / BUILD_DIR} (cargo, offline)")
        return build(args.peer)
    binary = args.peer / BINARY
    if not binary.is_file():
        print(f"peer: skipped ({binary} is not built; run once without --no-build)")
        return None
    return binary


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="a miles2542/harmonies-bot checkout")
    parser.add_argument("--seconds", type=float, default=10.0, help="per engine and run")
    parser.add_argument("--runs", type=int, default=1, help="peer and Meadow alternately")
    parser.add_argument("--seed", type=int, default=2026, help="the driver's random seed")
    parser.add_argument(
        "--no-build", action="store_true", help="run the driver already built in the checkout"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    if args.runs < 1 or args.seconds <= 0:
        raise SystemExit("--runs must be at least 1 and --seconds above 0")
    binary = peer_binary(args)
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, 2 players, side A, spirits on, {args.seconds:g} s per engine "
        f"and run, {args.runs} run(s)"
    )
    print()
    peer: list[dict[str, Any]] = []
    meadow: list[dict[str, Any]] = []
    for _ in range(args.runs):
        if binary is not None and args.peer is not None:
            peer.append(run_peer(binary, args.peer, args.seconds, args.seed))
        meadow.append(run_meadow(args.seconds))
    print("\n".join(table(peer, meadow)))


if __name__ == "__main__":
    main()
