"""The load bench's players think when asked to: the rate they offer is then bounded by
their thinking, not by the server (a saturated server's latency is mostly its queue)."""

from __future__ import annotations

import re
import subprocess
import sys


def test_players_who_think_offer_no_more_moves_than_their_thinking_allows():
    command = ["bench.server_load", "--tables", "2", "--seconds", "3", "--think", "200"]
    run = subprocess.run(
        [sys.executable, "-m", *command],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "200 ms to think before each move" in run.stdout
    row = next(line for line in run.stdout.splitlines() if re.match(r"\| [\d,]+ \| \d", line))
    cells = [float(cell.strip().split()[0].replace(",", "")) for cell in row.split("|")[1:-1]]
    moves, per_second, wire = cells[0], cells[1], cells[-1]
    assert moves > 0
    assert "bytes a move a socket" in run.stdout and wire > 0
    # Two tables, one move on its way at each at a time, each after 200 ms of thought.
    assert per_second <= 2 / 0.2
