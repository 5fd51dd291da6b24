"""Commands that neither serve nor read a database load none of the server's stack: checked by
the modules a fresh interpreter holds once the command has run, not by its time (a loaded
machine would make a timing flaky). `bench/cli_start.py` measures the time.

`meadow --help` imports no command's module at all (meadow/cli/app.py): it lists each
command's summary from the table of commands, held here to the start of the command's own help
and to the listing with every module imported."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import click
import pytest
import typer

from meadow.cli import _register
from meadow.cli.app import COMMANDS, app
from meadow.cli.docs_cmd import topics

# What `meadow serve` and the database commands need, and the rest should not pay for.
SERVER_STACK = (
    "sqlalchemy",
    "alembic",
    "fastapi",
    "starlette",
    "uvicorn",
    "argon2",
    "redis",
    "psycopg",
    "psycopg2",
    "torch",
)
OURS = ("meadow.server", "meadow.store")

LOADED = """
import json, sys
from meadow.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def run(args: list[str], code: str = LOADED) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60
    )


def modules_after(args: list[str]) -> set[str]:
    return set(json.loads(run(args).stdout.splitlines()[-1]))


def server_stack(loaded: set[str]) -> list[str]:
    return sorted(
        m
        for m in loaded
        if m.split(".")[0] in SERVER_STACK or any(m == o or m.startswith(o + ".") for o in OURS)
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["games"],
        ["docs"],
        *([name, "--help"] for name in COMMANDS),
    ],
    ids=" ".join,
)
def test_a_command_that_reads_no_database_loads_no_server(args: list[str]):
    found = server_stack(modules_after(args))
    assert not found, found[:10]


def test_the_top_help_imports_no_command_and_no_game():
    loaded = modules_after(["--help"])
    assert not {m for m in loaded if m.startswith(("meadow.core", "meadow.games"))}
    assert not {module for module, _ in COMMANDS.values()} & loaded
    assert "pydantic" not in loaded


def test_the_database_commands_still_load_it_when_they_run(tmp_path):
    """The check above would pass by accident if nothing could load the stack: `meadow admin
    list` on a fresh data directory does, and works."""
    loaded = modules_after(["admin", "list", "--data-dir", str(tmp_path / "data")])
    assert "sqlalchemy" in loaded and "meadow.server.people" in loaded


EAGER = """
import sys
from meadow.cli import _register, main
_register()
main(sys.argv[1:])
"""


def test_each_summary_of_the_listing_begins_its_commands_own_help():
    _register()
    group = typer.main.get_group(app)
    for name, (_, summary) in COMMANDS.items():
        own = " ".join((group.commands[name].help or "").split())
        assert own.startswith(summary), (name, summary, own[:80])


def test_the_listing_is_the_same_with_every_command_imported():
    lazy = run(["--help"], "from meadow.cli import main; main()")
    eager = run(["--help"], EAGER)
    assert lazy.returncode == eager.returncode == 0, lazy.stderr + eager.stderr
    assert lazy.stdout == eager.stdout
    for name in COMMANDS:
        assert re.search(rf"^│ {re.escape(name)} ", lazy.stdout, re.MULTILINE), name


def test_every_command_is_in_the_table_of_commands():
    """A command added to a module but not to COMMANDS would be missing from `meadow --help`."""
    _register()
    group = typer.main.get_group(app)
    assert set(group.commands) == set(COMMANDS)


def help_texts() -> list[str]:
    """Every help text of the command line: commands, groups' commands and their parameters."""
    _register()
    texts: list[str] = []

    def walk(command: click.Command) -> None:
        texts.append(command.help or "")
        texts.extend(getattr(param, "help", None) or "" for param in command.params)
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    return texts


def test_every_document_a_help_text_names_is_shown_by_meadow_docs():
    texts = "\n".join(help_texts())
    named = set(re.findall(r"meadow docs ([\w-]+)", texts))
    assert named >= {"operations", "harmonies-calculator", "renature-boards", "mystic-vale-cards"}
    assert named <= set(topics())
    # An installed user has no docs/ folder: a help text names `meadow docs TOPIC` instead.
    assert not re.findall(r"docs/[\w-]+\.md", texts)
    done = run(["docs", "operations"], "from meadow.cli import main; main()")
    assert done.returncode == 0 and done.stdout.startswith("# Operating a Meadow server")


def test_meadow_docs_lists_the_documents_and_refuses_an_unknown_one_in_a_line():
    listed = run(["docs"], "from meadow.cli import main; main()")
    assert listed.returncode == 0
    assert re.search(r"^server +The Meadow server$", listed.stdout, re.MULTILINE)
    unknown = run(["docs", "nowhere"], "from meadow.cli import main; main()")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("error: no document 'nowhere'")


def test_meadow_version_names_the_distribution_version():
    from importlib.metadata import version

    done = run(["--version"], "from meadow.cli import main; main()")
    assert done.returncode == 0 and done.stdout == f"meadow {version('meadow-tabletop')}\n"
