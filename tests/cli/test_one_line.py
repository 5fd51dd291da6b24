"""Issue 48: mistakes a person makes are one line (exit 2), never "a bug in Meadow" (exit
70); a server that cannot start says so before it makes a database; a host's first run."""

from __future__ import annotations

import re
import signal
import socket
import stat
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli.test_mistakes import MEADOW, ROOT, one_line_error, run, run_process


def test_a_redis_url_without_the_redis_package(tmp_path: Path):
    env = {"MEADOW_REDIS_URL": "redis://127.0.0.1:6379/0"}
    hide = "import sys; sys.modules['redis'] = None; "
    line = one_line_error(*run_process(["serve"], env, cwd=tmp_path, code=hide))
    assert line == (
        "error: MEADOW_REDIS_URL: the redis package is not installed: "
        "pip install 'meadow-tabletop[cluster]'"
    )
    assert not (tmp_path / "meadow-data").exists()


def test_replay_and_analyse_given_a_backup(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, ["migrate"])[0] == 0
    code, _, err = run(capsys, monkeypatch, ["backup", "copy.sqlite3"])
    assert code == 0, err
    for command in (["replay", "copy.sqlite3"], ["analyse", "copy.sqlite3"]):
        line = one_line_error(*run(capsys, monkeypatch, command))
        assert "copy.sqlite3 is an SQLite database" in line
        assert "`meadow restore` reads it" in line
    (tmp_path / "dump").write_bytes(b"PGDMP\x01\x0e\x00" + bytes(range(256)))
    line = one_line_error(*run(capsys, monkeypatch, ["replay", "dump"]))
    assert "dump is a PostgreSQL backup" in line


def test_replay_given_a_binary_file(capsys, monkeypatch, tmp_path: Path):
    (tmp_path / "noise").write_bytes(bytes(range(128, 256)))
    line = one_line_error(*run(capsys, monkeypatch, ["replay", str(tmp_path / "noise")]))
    assert line.endswith("is not a game record (not UTF-8 text)")


def test_migrate_on_a_file_that_is_not_a_database(capsys, monkeypatch, tmp_path: Path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "meadow.sqlite3").write_text('{"format": "meadow-record/1"}\n' * 200)
    args = ["migrate", "--data-dir", str(tmp_path / "data")]
    line = one_line_error(*run(capsys, monkeypatch, args))
    assert "not a database Meadow can use: file is not a database" in line


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_on_a_port_taken_makes_no_database(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = one_line_error(*run_process(["serve", "--port", str(port)], cwd=tmp_path))
    assert line.startswith(f"error: port {port} on 127.0.0.1 is taken: ")
    assert line.endswith("choose another with --port)")
    assert not (tmp_path / "meadow-data").exists()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"MEADOW_HOST": "no-such-host.invalid"}, "MEADOW_HOST no-such-host.invalid: no such"),
        ({"MEADOW_HOST": "192.0.2.1"}, "MEADOW_HOST 192.0.2.1: cannot listen there"),
    ],
)
def test_serve_on_a_host_it_cannot_listen_on(tmp_path: Path, env, message):
    code, out, err = run_process(["serve", "--port", str(_free_port())], env, cwd=tmp_path)
    assert message in one_line_error(code, out, err)
    assert "Meadow on" not in err
    assert not (tmp_path / "meadow-data").exists()


def test_export_keeps_an_existing_file(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, ["migrate"])[0] == 0
    (tmp_path / "games.jsonl").write_text("kept\n")
    line = one_line_error(*run(capsys, monkeypatch, ["export", "games", "games.jsonl"]))
    assert line == "error: games.jsonl exists; give another name, or --force to replace it"
    assert (tmp_path / "games.jsonl").read_text() == "kept\n"
    code, out, _ = run(capsys, monkeypatch, ["export", "games", "games.jsonl", "--force"])
    assert code == 0 and "0 finished games written" in out
    assert (tmp_path / "games.jsonl").read_text() == ""


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("mcts:3600s", "a computer thinks 600 s a move at most"),
        ("turn:4:900s", "a computer thinks 600 s a move at most"),
        ("mcts:50000000", "a computer searches 1,000,000 iterations a move at most"),
    ],
)
def test_play_refuses_a_budget_no_server_allows(capsys, monkeypatch, bot, message):
    line = one_line_error(*run(capsys, monkeypatch, ["play", "topiary", "--bot", bot]))
    assert f"--bot {bot}: {message}" in line


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_plain_postgresql_url_uses_the_installed_driver(capsys, monkeypatch, scheme):
    from tests.server.conftest import fresh_postgres

    with fresh_postgres() as url:
        plain = f"{scheme}://" + url.split("://", 1)[1]
        monkeypatch.setenv("MEADOW_DATABASE_URL", plain)
        code, out, err = run(capsys, monkeypatch, ["migrate"])
    assert code == 0, err
    assert "postgresql+psycopg2://" in out and "schema at" in out


def test_a_new_sqlite_database_is_private(capsys, monkeypatch, tmp_path: Path):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, ["migrate"])[0] == 0
    database = tmp_path / "meadow-data" / "meadow.sqlite3"
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    for companion in database.parent.glob("meadow.sqlite3-*"):
        assert stat.S_IMODE(companion.stat().st_mode) == 0o600, companion


def test_a_database_readable_by_others_is_made_private(capsys, monkeypatch, tmp_path: Path):
    """One made before Meadow made its databases private (the umask's 0644) is tightened
    when it is next opened, with a line saying so."""
    monkeypatch.chdir(tmp_path)
    assert run(capsys, monkeypatch, ["migrate"])[0] == 0
    database = tmp_path / "meadow-data" / "meadow.sqlite3"
    database.chmod(0o644)
    code, out, err = run_process(["migrate"], cwd=tmp_path)
    assert code == 0, err
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    assert "was readable by others (644): now by its owner only (600)" in out + err


def test_serve_with_its_metrics_address_taken_makes_no_database(tmp_path: Path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        env = {"MEADOW_METRICS_ADDRESS": address}
        serve = ["serve", "--port", str(_free_port())]
        line = one_line_error(*run_process(serve, env, cwd=tmp_path))
    assert line == f"error: MEADOW_METRICS_ADDRESS={address}: Address already in use"
    assert not (tmp_path / "meadow-data").exists()


def _first_run_block() -> list[str]:
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    found = re.search(r"### First run\n.*?```text\n(.*?)\n```", page, re.DOTALL)
    assert found, "docs/operations.md has no first-run section with what `meadow serve` prints"
    return found.group(1).splitlines()


def test_the_first_run_is_what_the_docs_show(tmp_path: Path):
    port = _free_port()
    process = subprocess.Popen(
        [*MEADOW, "serve", "--port", str(port)],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
    )
    lines: list[str] = []
    deadline = time.monotonic() + 60
    try:
        assert process.stderr is not None
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            assert line, lines
            lines.append(line.rstrip("\n"))
            if "Uvicorn running" in line:
                break
        database = tmp_path / "meadow-data" / "meadow.sqlite3"
        assert stat.S_IMODE(database.stat().st_mode) == 0o600
        wal = database.with_name("meadow.sqlite3-wal")
        if wal.exists():
            assert stat.S_IMODE(wal.stat().st_mode) == 0o600
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=60)

    def general(text: str) -> str:
        text = text.replace(str(tmp_path.resolve()), "/home/meadow")
        text = re.sub(r"process \[\d+\]", "process [4242]", text)
        return text.replace(f":{port}", ":8000")

    assert [general(line) for line in lines] == _first_run_block()
