"""Commands that neither serve nor read a database load none of the server's stack: checked by
the modules a fresh interpreter holds once the command has run, not by its time (a loaded
machine would make a timing flaky). `bench/cli_start.py` measures the time."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# What `meadow serve` and the database commands need, and the rest should not pay for.
SERVER_STACK = ("sqlalchemy", "alembic", "fastapi", "starlette", "uvicorn", "argon2", "torch")

LOADED = """
import json, sys
from meadow.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def modules_after(args: list[str]) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=60
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


@pytest.mark.parametrize(
    "args", [["--help"], ["games"], ["admin", "--help"], ["backup", "--help"], ["export", "--help"]]
)
def test_a_command_that_reads_no_database_loads_no_server(args: list[str]):
    loaded = modules_after(args)
    heavy = sorted(m for m in loaded if m.split(".")[0] in SERVER_STACK)
    ours = sorted(m for m in loaded if m.startswith(("meadow.server", "meadow.store")))
    assert not heavy and not ours, (heavy[:10], ours)


def test_the_database_commands_still_load_it_when_they_run(tmp_path):
    """The check above would pass by accident if nothing could load the stack: `meadow admin
    list` on a fresh data directory does, and works."""
    loaded = modules_after(["admin", "list", "--data-dir", str(tmp_path / "data")])
    assert "sqlalchemy" in loaded and "meadow.server.people" in loaded
