"""The capacity plan's benches (bench.server_footprint, bench.server_capacity) at a tiny size:
they run, and their figures are sane."""

from __future__ import annotations

import re
import subprocess
import sys


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, check=True, timeout=120
    )
    return done.stdout


def test_tables_footprint_is_a_positive_figure_per_table():
    out = run("bench.server_footprint", "--tables", "20", "--moves", "5", "--games", "topiary")
    row = next(line for line in out.splitlines() if line.startswith("| topiary"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[2] == "5"  # moves per table
    assert 0 < float(cells[3]) < 10_000  # KB per table after the moves


def test_sockets_footprint_is_a_positive_figure_per_socket():
    out = run("bench.server_footprint", "--sockets", "30")
    found = re.search(r"([-0-9.]+) KB per socket", out)
    assert found is not None, out
    assert 0 < float(found.group(1)) < 10_000


def test_writes_on_sqlite_count_commits_and_lines():
    out = run(
        "bench.server_capacity", "writes", "--seconds", "0.5", "--tables", "10", "--batch", "5"
    )
    commits, lines = figure(out, "commits/s"), figure(out, "lines (moves)/s")
    assert commits > 0
    assert abs(lines / commits - 5) < 0.1


def figure(out: str, name: str) -> float:
    found = re.search(re.escape(name) + r": ([0-9,]+)", out)
    assert found is not None, out
    return float(found.group(1).replace(",", ""))


def test_news_of_a_table_not_held_is_measured_for_each_count_of_tables_held():
    # The figures themselves are the bench's to show (flat since news is looked up by table
    # number); the test checks that each count is measured and gives a positive cost.
    out = run("bench.server_capacity", "news", "--held", "10,10000")
    rows = [line for line in out.splitlines() if line.startswith("| 10")]
    assert len(rows) == 2
    assert all(float(row.split("|")[2].replace(",", "")) > 0 for row in rows)


def test_population_moves_at_live_tables_far_more_often_than_at_turn_based_ones():
    out = run("bench.server_capacity", "population", "--tables", "400", "--minutes", "30")
    rates = {
        tuple(cells[:2]): float(cells[3])
        for cells in (
            [cell.strip() for cell in line.strip("|").split("|")]
            for line in out.splitlines()
            if line.startswith("| topiary")
        )
    }
    assert rates["topiary", "live"] > 1
    assert rates["topiary", "live"] > 20 * rates["topiary", "turn"]
    assert figure(out, "moves/s") > 0
