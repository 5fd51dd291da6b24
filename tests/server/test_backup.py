"""`meadow backup` and `meadow restore`: a copy made while people play holds every move that
was acknowledged before it began; a server started on the restored copy serves those moves;
every mistake a person can make is one line."""

from __future__ import annotations

import io
import json
import os
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine

from meadow.cli import main
from meadow.server.backup import sqlite_url
from meadow.store import Database, Move, Table, User
from meadow.store.db import MIGRATIONS
from tests.server.conftest import POSTGRES, Client, Server, fresh_postgres, signed_in
from tests.server.test_safety import new_table, socket_to

TABLES = 4
BEFORE = 4  # moves each table has acknowledged before the backup begins
AFTER = 4  # and after it ended (if its game lasts): play went on around it


def meadow(args: list[str], data_dir: Path, url: str | None) -> subprocess.CompletedProcess[str]:
    """The `meadow` command in its own process, with a server's database settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEADOW_")}
    env["MEADOW_DATA_DIR"] = str(data_dir)
    if url:
        env["MEADOW_DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "meadow", *args], env=env, capture_output=True, text=True
    )


@dataclass
class Played:
    """The moves of one table, each marked with whether the backup had begun when its
    acknowledgement (HTTP 200) arrived."""

    table_id: int
    people: dict[int, Client]
    moves: list[tuple[int, str, bool]] = field(default_factory=list)

    def acknowledged_before(self) -> list[str]:
        return [action for _, action, began in self.moves if not began]


class Players:
    """People playing random legal moves at several tables at once, one thread a table."""

    def __init__(self, tables: list[Played]) -> None:
        self.tables = tables
        self.lock = threading.Condition()
        self.began = False  # set, under the lock, just before the backup is started
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._play, args=(t,)) for t in tables]
        self.failures: list[BaseException] = []

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        with self.lock:
            self.lock.notify_all()
        for thread in self.threads:
            thread.join(timeout=120)
        assert not self.failures, self.failures

    def _play(self, played: Played) -> None:
        rng = random.Random(played.table_id)
        try:
            while not self.stop.is_set():
                state = played.people[0].table(played.table_id)["game_state"]
                if state.get("over"):
                    break
                mover = played.people[state["to_move"]]
                mine = mover.table(played.table_id)["game_state"]
                action = rng.choice(mine["legal"])
                reply = mover.post(
                    f"/api/tables/{played.table_id}/moves",
                    json={"move": mine["move"] + 1, "action": action},
                )
                assert reply.status_code == 200, reply.text
                with self.lock:
                    played.moves.append((mine["move"] + 1, action, self.began))
                    self.lock.notify_all()
        except BaseException as exc:  # reported by __exit__, in the test's thread
            self.failures.append(exc)
            with self.lock:
                self.lock.notify_all()

    def wait_until(self, enough: int, after_backup: bool) -> None:
        """Until each table has `enough` moves acknowledged (after the backup began, if
        asked), or its game is over."""

        def done(played: Played) -> bool:
            counted = [m for m in played.moves if m[2] == after_backup]
            return len(counted) >= enough or not self._running(played)

        with self.lock:
            assert self.lock.wait_for(
                lambda: self.failures or all(done(p) for p in self.tables), timeout=300
            )
        assert not self.failures, self.failures

    def _running(self, played: Played) -> bool:
        thread = self.threads[self.tables.index(played)]
        return thread.is_alive()

    def backup_begins(self) -> None:
        with self.lock:
            self.began = True


def restored_actions(server: Server, played: Played) -> list[str]:
    """The table's moves as the restored server tells them over its sockets: each seat's
    socket reads its own seat's actions from the start of the log."""
    actions: dict[int, str] = {}
    for seat, person in played.people.items():
        with socket_to(server, signed_in(server, person), played.table_id) as ws:
            sync = json.loads(ws.recv(timeout=10))
        assert sync["kind"] == "sync"
        for line in sync["moves"]:
            if line["seat"] == seat:
                actions[line["number"]] = line["action"]
    assert sorted(actions) == list(range(1, len(actions) + 1))
    return [actions[number] for number in sorted(actions)]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """None (SQLite in a data directory), or a fresh PostgreSQL database's URL."""
    with fresh_postgres() if request.param == "postgresql" else nullcontext() as url:
        yield url


def test_a_backup_made_during_play_holds_every_acknowledged_move(
    database: str | None, tmp_path: Path
):
    live = Server(tmp_path / "live", database)
    live.data_dir.mkdir()
    live.start()
    try:
        tables = []
        for _ in range(TABLES):
            table_id, host, other = new_table(live)
            tables.append(Played(table_id, {0: host, 1: other}))
        backup = tmp_path / "meadow.backup"
        with Players(tables) as players:
            players.wait_until(BEFORE, after_backup=False)
            players.backup_begins()
            made = meadow(["backup", str(backup)], live.data_dir, database)
            assert made.returncode == 0, made.stderr
            players.wait_until(AFTER, after_backup=True)
    finally:
        live.stop()
    live.assert_logs_clean()
    assert "backed up to" in made.stdout and "schema" in made.stdout
    assert all(played.moves for played in tables)
    assert any(began for played in tables for *_, began in played.moves)

    context = fresh_postgres() if database else nullcontext()
    with context as fresh_url:
        fresh = Server(tmp_path / "fresh", fresh_url)
        fresh.data_dir.mkdir()  # where its log goes (and SQLite)
        restored = meadow(["restore", str(backup)], fresh.data_dir, fresh_url)
        assert restored.returncode == 0, restored.stderr
        assert "every table's move log replays" in restored.stdout
        fresh.start()
        try:
            for played in tables:
                before = played.acknowledged_before()
                state = next(iter(played.people.values()))
                reached = signed_in(fresh, state).table(played.table_id)["game_state"]["move"]
                assert len(before) <= reached <= len(played.moves)
                actions = restored_actions(fresh, played)
                assert actions[: len(before)] == before
                assert actions == [action for _, action, _ in played.moves][: len(actions)]
        finally:
            fresh.stop()
        fresh.assert_logs_clean()


# -- what a person can get wrong: one line each, in-process through the real entry point ----


def run(capsys, monkeypatch, args: list[str], url: str | None = None) -> tuple[int, str, str]:
    for name in [k for k in os.environ if k.startswith("MEADOW_")]:
        monkeypatch.delenv(name)
    if url:
        monkeypatch.setenv("MEADOW_DATABASE_URL", url)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return exited.value.code or 0, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def meadow_database(data_dir: Path, revision: str = "head") -> Path:
    """A Meadow database at `revision` in `data_dir`."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / "meadow.sqlite3"
    if revision == "head":
        database = Database(sqlite_url(path))
        database.migrate()
        database.dispose()
    else:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        engine = create_engine(sqlite_url(path))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
        engine.dispose()
    return path


def test_restore_refuses_to_overwrite_a_database_unless_forced(capsys, monkeypatch, tmp_path):
    meadow_database(tmp_path / "old")
    backup = tmp_path / "copy.sqlite3"
    code, out, err = run(
        capsys, monkeypatch, ["backup", str(backup), "--data-dir", str(tmp_path / "old")]
    )
    assert code == 0, err
    assert backup.stat().st_mode & 0o077 == 0  # password hashes: its owner's eyes only
    target = meadow_database(tmp_path / "in-use")
    (target.parent / "meadow.sqlite3-wal").write_bytes(b"stale")  # the server's, say

    code, _, err = run(
        capsys, monkeypatch, ["restore", str(backup), "--data-dir", str(target.parent)]
    )
    assert code == 2
    assert "exists (a server may be using it)" in one_line(err) and "--force" in err

    code, out, err = run(
        capsys,
        monkeypatch,
        ["restore", str(backup), "--data-dir", str(target.parent), "--force"],
    )
    assert code == 0, err
    assert "every table's move log replays" in out
    assert not (target.parent / "meadow.sqlite3-wal").exists()  # never replayed into it
    assert sorted(p.name for p in target.parent.iterdir()) == ["meadow.sqlite3"]


def test_an_older_backup_is_migrated_to_this_meadows_schema(capsys, monkeypatch, tmp_path):
    old = meadow_database(tmp_path / "old", "0008")
    code, out, err = run(capsys, monkeypatch, ["restore", str(old), "--data-dir", str(tmp_path)])
    assert code == 0, err
    assert "migrated from schema 0008" in out
    with sqlite3.connect(tmp_path / "meadow.sqlite3") as copy:
        head = copy.execute("SELECT version_num FROM alembic_version").fetchone()[0]
        assert {"chat", "mutes"} <= {r[0] for r in copy.execute("SELECT name FROM sqlite_master")}
    copy.close()
    assert head != "0008" and f"schema {head};" in out
    with sqlite3.connect(old) as original:  # the backup itself is left as it was
        assert original.execute("SELECT version_num FROM alembic_version").fetchone()[0] == "0008"
    original.close()


def test_a_table_whose_log_does_not_replay_is_named(capsys, monkeypatch, tmp_path):
    path = meadow_database(tmp_path / "live")
    database = Database(f"sqlite:///{path}")
    with database.write() as s:
        s.add(User(id=1, name="someone"))
        s.flush()
        s.add(
            Table(
                id=7,
                game="topiary",
                options={},
                players=2,
                seed="5",
                mode="live",
                status="running",
                invite="x",
                host_id=1,
                moves_made=1,
            )
        )
        s.flush()
        s.add(Move(table_id=7, number=1, seat=0, action="fly to the moon"))
        s.commit()
    database.dispose()
    code, out, err = run(capsys, monkeypatch, ["check-store", "--data-dir", str(path.parent)])
    assert code == 1
    assert "1 running" in out and "1 moves" in out
    assert "table 7: its log does not replay" in err and "fly to the moon" in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["restore", "{tmp}/missing.sqlite3"], "missing.sqlite3: no such file"),
        (["restore", "{tmp}/junk"], "not a Meadow backup (not an SQLite database)"),
        (["restore", "{tmp}/other.sqlite3"], "not a Meadow database (no table"),
        (["restore", "{tmp}/newer.sqlite3"], "9999, which this Meadow does not know"),
        (["restore", "{tmp}/archive.dump"], "is a PostgreSQL backup (pg_dump)"),
        (["restore", "{tmp}/live"], "is a directory, not a backup"),
        (["backup", "{tmp}/junk/copy.sqlite3", "--data-dir", "{tmp}/live"], "cannot write"),
        (["backup", "{tmp}/live", "--data-dir", "{tmp}/live"], "it is a directory"),
        (["backup", "{tmp}/live/meadow.sqlite3", "--data-dir", "{tmp}/live"], "the database"),
        (["backup", "{tmp}/copy.sqlite3", "--data-dir", "{tmp}/none"], "no database at"),
        (["check-store", "--data-dir", "{tmp}/none"], "no database at"),
    ],
)
def test_mistakes_are_one_line(capsys, monkeypatch, tmp_path, args, words):
    meadow_database(tmp_path / "live")
    (tmp_path / "junk").write_bytes(b"not a database, and not a directory either")
    with sqlite3.connect(tmp_path / "other.sqlite3") as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    other.close()
    newer = meadow_database(tmp_path / "newer")
    with sqlite3.connect(newer) as database:
        database.execute("UPDATE alembic_version SET version_num = '9999'")
    database.close()
    newer.rename(tmp_path / "newer.sqlite3")
    (tmp_path / "archive.dump").write_bytes(b"PGDMP\x01\x0e\x00" + bytes(100))

    argv = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    if "--data-dir" not in argv:
        argv += ["--data-dir", str(tmp_path / "target")]
    code, _, err = run(capsys, monkeypatch, argv)
    assert code == 2
    assert words in one_line(err)
    assert not (tmp_path / "target").exists()  # a refused restore makes nothing
    assert not list(tmp_path.rglob("*.partial")) and not list(tmp_path.rglob("*.restoring"))


def test_without_postgresql_tools_the_command_to_run_is_told(capsys, monkeypatch, tmp_path):
    url = "postgresql+psycopg2://meadow:s3cret@db.internal:5432/meadow"
    monkeypatch.setenv("PATH", str(tmp_path))  # neither pg_dump nor pg_restore there
    code, _, err = run(capsys, monkeypatch, ["backup", str(tmp_path / "m.dump")], url)
    assert code == 2
    line = one_line(err)
    assert "pg_dump is not on PATH" in line
    assert "pg_dump --format=custom --file=" in line
    assert "--dbname=postgresql://meadow@db.internal:5432/meadow" in line
    assert "s3cret" not in line  # the password stays in PGPASSWORD, never on a line

    archive = tmp_path / "m.dump"
    archive.write_bytes(b"PGDMP" + bytes(100))
    code, _, err = run(capsys, monkeypatch, ["restore", str(archive)], url)
    assert code == 2
    line = one_line(err)
    assert "pg_restore is not on PATH" in line and "pg_restore --no-owner" in line
    assert "s3cret" not in line


def test_postgresql_mistakes_are_one_line(capsys, monkeypatch, tmp_path):
    with fresh_postgres() as url:
        code, _, err = run(capsys, monkeypatch, ["backup", str(tmp_path / "empty.dump")], url)
        assert code == 2
        assert "not a Meadow database" in one_line(err)
        assert not (tmp_path / "empty.dump").exists()

        sqlite_backup = meadow_database(tmp_path / "live")
        code, _, err = run(capsys, monkeypatch, ["restore", str(sqlite_backup)], url)
        assert code == 2 and "is an SQLite backup" in one_line(err)

        database = Database(url)
        database.migrate()
        database.dispose()
        code, _, err = run(capsys, monkeypatch, ["backup", str(tmp_path / "m.dump")], url)
        assert code == 0, err
        code, _, err = run(capsys, monkeypatch, ["restore", str(tmp_path / "m.dump")], url)
        assert code == 2
        assert "already holds tables (a server may be using it)" in one_line(err)
        code, out, err = run(
            capsys, monkeypatch, ["restore", str(tmp_path / "m.dump"), "--force"], url
        )
        assert code == 0, err
        assert "every table's move log replays" in out

    gone = POSTGRES.replace("postgresql://", "postgresql+psycopg2://") + "meadow_never_made"
    code, _, err = run(capsys, monkeypatch, ["backup", str(tmp_path / "x.dump")], gone)
    assert code == 2 and "pg_dump failed" in one_line(err)
    code, _, err = run(capsys, monkeypatch, ["check-store"], gone)
    assert code == 2 and "cannot read" in one_line(err)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "MEADOW_DATABASE_URL: not a database URL"),
        ("mysql://meadow@db/meadow", "MEADOW_DATABASE_URL: the database driver is not installed"),
    ],
)
def test_a_database_url_meadow_cannot_back_up_is_one_line(
    capsys, monkeypatch, tmp_path, url, words
):
    code, _, err = run(capsys, monkeypatch, ["backup", str(tmp_path / "x")], url)
    assert code == 2 and words in one_line(err)


def test_paths_with_characters_urls_reserve_are_the_paths_given(capsys, monkeypatch, tmp_path):
    old = meadow_database(tmp_path / "old ?#%", "0008")  # migrated on restore: written to
    args = ["restore", str(old), "--data-dir", str(tmp_path / "data ?1#%20")]
    code, out, err = run(capsys, monkeypatch, args)
    assert code == 0 and "migrated from schema 0008" in out, err
    copy = tmp_path / "copy ?#.sqlite3"
    code, out, err = run(
        capsys, monkeypatch, ["backup", str(copy), "--data-dir", str(tmp_path / "data ?1#%20")]
    )
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "copy ?#.sqlite3",
        "data ?1#%20",
        "old ?#%",
    ]
    assert sorted(p.name for p in (tmp_path / "data ?1#%20").iterdir()) == ["meadow.sqlite3"]
