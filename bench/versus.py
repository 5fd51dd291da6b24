"""One bench on two versions, interleaved: this checkout's figures beside an earlier commit's.

    python -m bench.versus --against COMMIT [--runs 3] engine --seconds 2 --game harmonies

Runs this checkout's `bench/<name>.py` with the arguments after its name, alternately with
the `meadow` of a git worktree of COMMIT (the one bench.differential makes) and with this
checkout's, `--runs` times each, so that both versions meet the machine in the same states
of load in turn. Then each table the bench prints is printed once, every number as the
range over the runs: `old range -> new range`. A row is known by its leading columns (the
game, the player count, the rollout); a figure the old version does not print stays empty on
its side.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from bench.differential import ROOT, run_with, worktree

Row = tuple[str, ...]
Tables = dict[Row, dict[Row, list[str]]]  # header -> row's words -> its cells

NUMBER = re.compile(r"^-?[\d,]+(\.\d+)?( %)?$")
KEYS = ("game", "players", "rollout")  # the leading columns that say which row it is


def run(name: str, args: list[str], root: Path) -> str:
    """This checkout's bench `name`, with `root`'s meadow."""
    return run_with(root, ROOT / "bench" / f"{name}.py", args)


def tables(output: str) -> Tables:
    """The markdown tables of a bench's output, each row by its words."""
    found: Tables = {}
    header: Row | None = None
    for line in output.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header is None:
            header = tuple(cells)
            found[header] = {}
        elif not set("".join(cells)) <= set("-: "):
            found[header][key(header, cells)] = cells
    return found


def key(header: Row, cells: list[str]) -> Row:
    leading = 0
    while leading < len(header) and header[leading] in KEYS:
        leading += 1
    return tuple(cells[: max(leading, 1)])


def number(cell: str) -> float | None:
    if not NUMBER.match(cell):
        return None
    return float(cell.replace(",", "").replace(" %", ""))


def span(cells: list[str]) -> str:
    """`12-15` over the runs' cells (one figure alone when they agree), kept in the form
    the bench prints (thousands grouped, decimals, percent)."""
    values = [v for v in (number(cell) for cell in cells) if v is not None]
    if not values:
        return ""
    low, high = min(values), max(values)
    decimals = max((len(c.split(".")[1].rstrip(" %")) for c in cells if "." in c), default=0)
    unit = " %" if any(c.endswith("%") for c in cells) else ""

    def shown(value: float) -> str:
        return f"{value:,.{decimals}f}{unit}"

    return shown(low) if shown(low) == shown(high) else f"{shown(low)}-{shown(high)}"


def find(run: Tables, column: str, words: Row) -> str | None:
    """The cell of `column` in the row `words` of whichever table of a run has them (a
    version's table may have other columns)."""
    for header, rows in run.items():
        if column in header and words in rows:
            cells = rows[words]
            return cells[header.index(column)] if header.index(column) < len(cells) else None
    return None


def merge(old_runs: list[Tables], new_runs: list[Tables]) -> str:
    """Each table of the new version with every number as `old -> new`, ranges over runs."""
    lines = []
    for header, rows in new_runs[0].items():
        lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for words, cells in rows.items():
            merged = list(words)
            for k, cell in enumerate(cells[len(words) :], start=len(words)):
                if number(cell) is None:
                    merged.append(cell)
                    continue
                new = [run[header][words][k] for run in new_runs]
                old = [cell for run in old_runs if (cell := find(run, header[k], words))]
                merged.append(f"{span(old)} -> {span(new)}" if old else f"-> {span(new)}")
            lines.append("| " + " | ".join(merged) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the earlier commit")
    parser.add_argument("--runs", type=int, default=3, help="runs of each version")
    parser.add_argument("bench", help="a bench of this directory: engine, search, ...")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the bench's own arguments")
    args = parser.parse_args(argv)
    old = worktree(args.against)
    old_runs, new_runs = [], []
    for _ in range(args.runs):
        old_runs.append(tables(run(args.bench, args.args, old)))
        new_runs.append(tables(run(args.bench, args.args, ROOT)))
    print(f"bench.{args.bench} {' '.join(args.args)}: {args.against} -> this checkout")
    print(f"{args.runs} runs each, interleaved; ranges over the runs")
    print()
    print(merge(old_runs, new_runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
