"""Issue 25: every mistake a person can make is answered in one line, never a traceback and
never "internal error" (exit 70, which means a bug)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from meadow.cli import main
from meadow.core.record import GameRecord
from meadow.games.mystic_vale import components as mystic_vale_components

ROOT = Path(__file__).resolve().parents[2]
MEADOW = [sys.executable, "-c", "from meadow.cli import main; main()"]


def run(capsys, monkeypatch, args: list[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


def run_process(
    args: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT, code: str = ""
) -> tuple[int, str, str]:
    """A fresh `meadow` process: what is read at import time is read again (`code` runs
    first, in the same process)."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}from meadow.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def one_line_error(code: int, out: str, err: str) -> str:
    """The error line, after checking that it is one and that nothing else went wrong."""
    assert "Traceback" not in out + err
    assert "internal error" not in err
    assert code == 2, (code, out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


@pytest.fixture
def fresh_cards() -> Iterator[None]:
    """Mystic Vale's cards are read once per process; tests that change them read them again."""
    mystic_vale_components.advancements.cache_clear()
    mystic_vale_components.vales.cache_clear()
    yield
    mystic_vale_components.advancements.cache_clear()
    mystic_vale_components.vales.cache_clear()


def packaged_cards(name: str) -> dict:
    return json.loads((ROOT / "meadow/games/mystic_vale/data" / name).read_text("utf-8"))


def bad_card_folder(tmp_path: Path, text: str | bytes) -> Path:
    folder = tmp_path / "data"
    (folder / "mystic_vale").mkdir(parents=True)
    target = folder / "mystic_vale" / "advancements.json"
    if isinstance(text, bytes):
        target.write_bytes(text)
    else:
        target.write_text(text, "utf-8")
    return folder


# 1. A bad Mystic Vale card file stops only what needs it, and names itself in one line.


def test_a_bad_card_file_leaves_other_commands_working(tmp_path: Path):
    folder = bad_card_folder(tmp_path, '{"advancements": [{"id": "x"}]}')
    env = {"MEADOW_GAME_DATA": str(folder)}
    for args in (["--help"], ["games"], ["serve", "--help"], ["simulate", "topiary", "-n", "1"]):
        code, out, err = run_process(args, env)
        assert code == 0, (args, err)
        assert "Traceback" not in out + err
    line = one_line_error(*run_process(["simulate", "mystic_vale", "-n", "1"], env))
    assert str(folder / "mystic_vale" / "advancements.json") in line
    assert "advancements[0] ('x').name: Field required" in line


def _with_card(change: dict) -> str:
    doc = packaged_cards("advancements.json")
    doc["advancements"][2].update(change)
    return json.dumps(doc, indent=1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"advancements": [\n  {"id": 1,}\n]}', "not valid JSON at line 2, column 12"),
        (b"\xff\xfe{}", "not UTF-8 text (byte 0xff at offset 0)"),
        ("[]", "top level: Input should be a valid dictionary"),
        ('{"cards": []}', "advancements: Field required"),
        (_with_card({"cost": "cheap"}), "advancements[2] ('"),
        (_with_card({"cost": -1}), ".cost: Input should be greater than or equal to 0, got -1"),
        (_with_card({"symbols": {"fire": 1}}), ".symbols.fire.[key]: Input should be 'mana'"),
        (_with_card({"level": 7}), ".level: Input should be less than or equal to 3, got 7"),
        (_with_card({"id": "aurora"}), "('aurora'): the id is listed twice"),
    ],
)
def test_a_bad_card_file_is_named_with_the_field(
    capsys, monkeypatch, tmp_path: Path, fresh_cards, text, message
):
    monkeypatch.setenv("MEADOW_GAME_DATA", str(bad_card_folder(tmp_path, text)))
    line = one_line_error(*run(capsys, monkeypatch, ["simulate", "mystic_vale", "-n", "1"]))
    assert "advancements.json: " in line
    assert message in line
    assert len(line) < 300  # a short excerpt, never the whole file


def test_a_good_card_file_is_used(capsys, monkeypatch, tmp_path: Path, fresh_cards):
    doc = packaged_cards("advancements.json")
    doc["advancements"][0]["name"] = "Renamed For The Test"
    monkeypatch.setenv("MEADOW_GAME_DATA", str(bad_card_folder(tmp_path, json.dumps(doc))))
    assert mystic_vale_components.advancements()[doc["advancements"][0]["id"]].name == (
        "Renamed For The Test"
    )
    code, _, err = run(capsys, monkeypatch, ["simulate", "mystic_vale", "-n", "1"])
    assert code == 0, err


# 2. `play --save` to a place that cannot be written: refused before the game; a save that
# fails at the end anyway keeps the record and says where.


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("no-such-folder/g.json", "cannot write there: No such file or directory"),
        ("a-file/g.json", "cannot write there: Not a directory"),
        (".", "is a folder; give a file name"),
    ],
)
def test_play_save_is_checked_before_the_game(
    capsys, monkeypatch, tmp_path: Path, where: str, message: str
):
    (tmp_path / "a-file").write_text("x")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, monkeypatch, ["play", "topiary", "--save", where], "quit\n")
    line = one_line_error(code, out, err)
    assert f"--save {where}: {message}" in line
    assert "Topiary" not in out  # no game was started
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]  # nothing left behind


def test_play_save_that_fails_at_the_end_keeps_the_record(capsys, monkeypatch, tmp_path: Path):
    target = tmp_path / "g.json"
    real_save = GameRecord.save

    def save(record: GameRecord, path: Path) -> None:
        if path == target:
            raise OSError(28, "No space left on device")
        real_save(record, path)

    monkeypatch.setattr(GameRecord, "save", save)
    code, out, err = run(
        capsys, monkeypatch, ["play", "topiary", "--seed", "3", "--save", str(target)], "quit\n"
    )
    line = one_line_error(code, out, err)
    assert f"cannot save to {target}: No space left on device; the record is kept in " in line
    kept = Path(line.rsplit(" ", 1)[1])
    assert GameRecord.load(kept).game == "topiary"
    kept.unlink()


# 3. Input that is the person's, not a bug: a board file that is not UTF-8, Latin-1 CSVs,
# an --out that cannot be written, MEADOW_PORT=abc for the commands that read the settings.


def test_check_board_names_a_file_that_is_not_utf8(capsys, monkeypatch, tmp_path: Path):
    board = tmp_path / "board.json"
    board.write_bytes(b'{"map": ["\xe9"]}')
    line = one_line_error(*run(capsys, monkeypatch, ["renature", "check-board", str(board)]))
    assert f"{board}: not UTF-8 text (byte 0xe9 at offset 10)" in line


def test_check_board_names_the_json_line(capsys, monkeypatch, tmp_path: Path):
    board = tmp_path / "board.json"
    board.write_text('{"map":\n ["a",]\n}')
    line = one_line_error(*run(capsys, monkeypatch, ["renature", "check-board", str(board)]))
    assert f"{board}: not valid JSON at line 2, column 7" in line


def test_import_cards_out_that_cannot_be_written(capsys, monkeypatch, tmp_path: Path):
    cards = tmp_path / "cards.csv"
    cards.write_text("kind,id,cost\nadvancement,aurora,8\n")
    (tmp_path / "a-file").write_text("x")
    out = tmp_path / "a-file" / "data"
    args = ["mystic-vale", "import-cards", str(cards), "--out", str(out)]
    line = one_line_error(*run(capsys, monkeypatch, args))
    assert f"{tmp_path / 'a-file'} is a file, not a folder" in line


@pytest.mark.parametrize(
    "args", [["admin", "list"], ["backup", "b.sqlite3"], ["migrate"], ["serve"]]
)
def test_a_bad_setting_is_one_line_for_every_command(capsys, monkeypatch, tmp_path, args):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MEADOW_PORT", "abc")
    line = one_line_error(*run(capsys, monkeypatch, args))
    assert "MEADOW_PORT: Input should be a valid integer" in line


# 7. What spreadsheets save: a byte-order mark, semicolons, Windows-1252; a card twice refused.


def _import(capsys, monkeypatch, tmp_path: Path, raw: bytes) -> tuple[int, str, str]:
    cards = tmp_path / "cards.csv"
    cards.write_bytes(raw)
    out = tmp_path / "data"
    return run(capsys, monkeypatch, ["mystic-vale", "import-cards", str(cards), "--out", str(out)])


def _imported(tmp_path: Path, card_id: str) -> dict:
    doc = json.loads((tmp_path / "data/mystic_vale/advancements.json").read_text("utf-8"))
    return next(card for card in doc["advancements"] if card["id"] == card_id)


@pytest.mark.parametrize(
    "raw",
    [
        "\ufeffkind,id,name,cost\r\nadvancement,aurora,Aurora é,9\r\n".encode(),
        b"kind;id;name;cost\r\nadvancement;aurora;Aurora \xc3\xa9;9\r\n",
        b"Kind ; ID;name;cost\nadvancement;aurora;Aurora \xc3\xa9;9\n;;;\n",
    ],
)
def test_import_cards_reads_what_spreadsheets_save(capsys, monkeypatch, tmp_path, raw):
    code, out, err = _import(capsys, monkeypatch, tmp_path, raw)
    assert code == 0, err
    card = _imported(tmp_path, "aurora")
    assert (card["name"], card["cost"]) == ("Aurora é", 9)
    assert "note: the file is not UTF-8" not in out


def test_import_cards_reads_windows_1252_with_a_note(capsys, monkeypatch, tmp_path):
    raw = "kind;id;name\nadvancement;aurora;Aurora Grün\n".encode("cp1252")
    code, out, err = _import(capsys, monkeypatch, tmp_path, raw)
    assert code == 0, err
    assert _imported(tmp_path, "aurora")["name"] == "Aurora Grün"
    assert "note: the file is not UTF-8 (byte 0xfc at offset 41); read it as Windows-1252" in out


def test_import_cards_refuses_a_card_twice(capsys, monkeypatch, tmp_path):
    raw = (
        b"kind,id,cost\nadvancement,aurora,8\n"
        b"advancement,druide_des_friedens,\nadvancement,aurora,9\n"
    )
    line = one_line_error(*_import(capsys, monkeypatch, tmp_path, raw))
    assert "row 4: advancement 'aurora' is listed twice (first in row 2)" in line
    assert not (tmp_path / "data").exists()


def test_import_cards_refuses_cells_beyond_the_header(capsys, monkeypatch, tmp_path):
    raw = b"kind,id,cost\nadvancement,aurora,8,12\n"
    line = one_line_error(*_import(capsys, monkeypatch, tmp_path, raw))
    assert "row 2: more cells than the header has columns ('12' has none)" in line


# 4, 5. `meadow serve`'s configuration: one line naming the setting, before anything starts.


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        ([], {"MEADOW_DATABASE_URL": "nonsense"}, "MEADOW_DATABASE_URL: not a database URL"),
        (
            [],
            {"MEADOW_DATABASE_URL": "mysql://meadow@db/meadow"},
            "MEADOW_DATABASE_URL: the database driver is not installed",
        ),
        (
            [],
            {"MEADOW_DATABASE_URL": "postgresql+psycopg2://meadow:secret@127.0.0.1:1/meadow"},
            "MEADOW_DATABASE_URL (postgresql+psycopg2://meadow:***@127.0.0.1:1/meadow): "
            "cannot open the database: connection to server at",
        ),
        (["--data-dir", "a-file/data"], {}, "--data-dir a-file/data: a-file is a file"),
        ([], {"MEADOW_DATA_DIR": "a-file/data"}, "MEADOW_DATA_DIR a-file/data: a-file is a file"),
        (["--port", "99999"], {}, "--port 99999: out of range, 1 to 65535"),
        ([], {"MEADOW_PORT": "0"}, "MEADOW_PORT 0: out of range, 1 to 65535"),
        ([], {"MEADOW_SMTP_PORT": "70000"}, "MEADOW_SMTP_PORT 70000: out of range, 1 to 65535"),
        (
            [],
            {"MEADOW_PASSWORD_HASH_MEMORY_KIB": "1024"},
            "MEADOW_PASSWORD_HASH_MEMORY_KIB 1024: out of range, 19456 to 1048576",
        ),
    ],
)
def test_serve_configuration_errors_are_one_line(tmp_path: Path, args, env, message):
    (tmp_path / "a-file").write_text("x")
    done = subprocess.run(
        [*MEADOW, "serve", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=tmp_path,
        timeout=60,
    )
    line = one_line_error(done.returncode, done.stdout, done.stderr)
    assert message in line
    assert "secret" not in done.stdout + done.stderr
    assert not (tmp_path / "meadow-data").exists()


# 6. Drop-in data files: Renature, Mystic Vale and Harmonies read $MEADOW_GAME_DATA/<game>/, with
# the same one-line checks; a broken one stops only its game.


def _drop_in(tmp_path: Path, game: str, name: str, text: str) -> Path:
    folder = tmp_path / "data"
    (folder / game).mkdir(parents=True, exist_ok=True)
    (folder / game / name).write_text(text, "utf-8")
    return folder


@pytest.mark.parametrize(
    ("game", "name", "text", "message"),
    [
        ("renature", "animals.json", '{"animals": []}', "animals.json: missing field 'species'"),
        ("renature", "plants.json", '{"pieces": 3}', "plants.json: a field has the wrong kind"),
        ("renature", "area_tokens.json", "{", "area_tokens.json: not valid JSON at line 1"),
        (
            "harmonies",
            "animal_cards.json",
            '{"cards": [{"id": 1}]}',
            "animal_cards.json: cards[0].name: Field required",
        ),
        (
            "harmonies",
            "spirit_cards.json",
            '{"cards": [{"id": 33, "name": "Lion", "cells": [], "cubes": 1}]}',
            "spirit_cards.json: cards[0].cells: List should have at least 1 item",
        ),
        ("harmonies", "boards.json", '{"A": 3}', "boards.json: A: Input should be"),
        ("harmonies", "boards.json", '{"A": {}}', "boards.json: A.num_spaces: Field required"),
        ("harmonies", "spirit_cards.json", "[1, 2", "spirit_cards.json: not valid JSON"),
    ],
)
def test_a_broken_drop_in_stops_only_its_game(tmp_path: Path, game, name, text, message):
    env = {"MEADOW_GAME_DATA": str(_drop_in(tmp_path, game, name, text))}
    for args in (["games"], ["simulate", "topiary", "-n", "1"]):
        code, _, err = run_process(args, env)
        assert code == 0, (args, err)
    line = one_line_error(*run_process(["simulate", game, "-n", "1"], env))
    assert str(tmp_path / "data" / game) in line
    assert message in line


def test_harmonies_honours_a_drop_in(tmp_path: Path):
    doc = json.loads((ROOT / "meadow/games/harmonies/data/animal_cards.json").read_text("utf-8"))
    doc["cards"][0]["name"] = "Drop-in Owl"
    folder = _drop_in(tmp_path, "harmonies", "animal_cards.json", json.dumps(doc))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from meadow.games.harmonies import components as c; print(c.cards()[1].name)",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "MEADOW_GAME_DATA": str(folder)},
        timeout=60,
    )
    assert done.stdout.strip() == "Drop-in Owl", done.stderr


# 8. An error quotes a short excerpt of the input, never the whole of it.


def test_score_quotes_only_an_excerpt(capsys, monkeypatch, tmp_path: Path):
    cases = ROOT / "tests/games/harmonies/reference_cases.json"
    line = one_line_error(*run(capsys, monkeypatch, ["score", "harmonies", str(cases)]))
    assert "side: Field required" in line
    assert len(line) < 300
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"side": "A" * 50_000, "cells": []}))
    line = one_line_error(*run(capsys, monkeypatch, ["score", "harmonies", str(board)]))
    assert "side: Input should be 'A' or 'B' (got 'AAAA" in line
    assert len(line) < 300


def test_check_board_quotes_only_an_excerpt(capsys, monkeypatch, tmp_path: Path):
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"map": ["."], "kind": "x" * 50_000}))
    line = one_line_error(*run(capsys, monkeypatch, ["renature", "check-board", str(board)]))
    assert "'kind' must be one of" in line
    assert len(line) < 300


def test_a_pasted_page_is_quoted_in_part(capsys, monkeypatch):
    answers = "x" * 20_000 + "\nquit\n"
    code, out, err = run(capsys, monkeypatch, ["play", "topiary", "--seed", "1"], answers)
    assert code == 0, err
    refusal = next(line for line in out.splitlines() if "xxxx" in line)
    assert len(refusal) < 300


# 9. Long jobs tell their progress when the output is not a terminal; impossible requests are
# refused with a reason.


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "topiary", "-n", "5", "--seed", "1"],
        ["tournament", "topiary", "--bots", "random,random", "-n", "5", "--seed", "1"],
    ],
)
def test_long_jobs_report_progress_into_a_file(capsys, monkeypatch, args):
    monkeypatch.setattr("meadow.cli.common.PROGRESS_SECONDS", 0.0)
    code, out, err = run(capsys, monkeypatch, args)
    assert code == 0, err
    lines = err.splitlines()
    assert lines and lines[0].startswith("Topiary")
    assert "1/5 games (20%)" in lines[0]
    assert "4/5 games (80%)" in lines[-1]
    assert "│" in out  # the results are on standard output, the progress is not


def test_long_jobs_are_quiet_within_the_interval(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, ["simulate", "topiary", "-n", "3", "--seed", "1"])
    assert code == 0
    assert err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random"], "--bots random: a tournament needs two bots or more"),
        (["--bots", "random,greedy", "--jobs", "0"], "--jobs 0: games played at once must be 1"),
        (["--bots", " , "], "--bots names no bot"),
        (["--bots", "hard,expert"], "topiary has no expert level"),
    ],
)
def test_tournament_refuses_what_cannot_be_played(capsys, monkeypatch, args, message):
    line = one_line_error(*run(capsys, monkeypatch, ["tournament", "topiary", "-n", "2", *args]))
    assert message in line


# 10. The banner's example is the game's own notation; a solo game is said to be one; Mystic
# Vale's text has no Python notation in it.


@pytest.mark.parametrize(
    ("game", "example"),
    [("topiary", "'visit O-"), ("harmonies", "'take "), ("mystic_vale", "'push'")],
)
def test_play_banner_shows_this_games_notation(capsys, monkeypatch, game, example):
    code, out, _ = run(capsys, monkeypatch, ["play", game, "--seed", "1"], "quit\n")
    assert code == 0
    banner = out.splitlines()[0]
    assert f"(e.g. {example}" in banner
    if game != "topiary":
        assert "visit O-N" not in banner


def test_play_solo_says_so(capsys, monkeypatch):
    args = ["play", "harmonies", "--players", "1", "--seed", "1"]
    code, out, _ = run(capsys, monkeypatch, args, "quit\n")
    assert code == 0
    assert out.startswith("Harmonies, 1 player: you play alone.")
    assert "1 players" not in out and "against" not in out.splitlines()[0]


def test_mystic_vale_text_has_no_python_notation(capsys, monkeypatch):
    code, out, _ = run(
        capsys, monkeypatch, ["play", "mystic_vale", "--seed", "2"], "1\n" * 3000 + "quit\n"
    )
    assert code == 0
    assert "Final scores" in out or "left unfinished" in out
    for python in ("{'", "['", "[]", "kept ["):
        assert python not in out, python
    assert re.search(r"\(\d (beast|forest|sky|wild)(, \d (beast|forest|sky|wild))*\)", out)


# 11. A test run says at the end how many tests did not run, and why.


def test_a_test_run_names_what_it_skipped(tmp_path: Path):
    (tmp_path / "conftest.py").write_text((ROOT / "tests/conftest.py").read_text("utf-8"))
    (tmp_path / "test_services.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize('n', range(3))\n"
        "def test_db(n):\n    pytest.skip('no PostgreSQL at 127.0.0.1:5432')\n"
        "def test_redis():\n    pytest.skip('no PostgreSQL or Redis at 127.0.0.1')\n"
        "def test_runs():\n    pass\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout
    assert "4 tests did not run" in done.stdout
    assert "3 skipped: no PostgreSQL at 127.0.0.1:5432" in done.stdout
    assert "1 skipped: no PostgreSQL or Redis at 127.0.0.1" in done.stdout
    assert "CI=1" in done.stdout


def test_the_old_name_of_the_game_data_folder_still_works_with_a_note(tmp_path: Path):
    doc = json.loads((ROOT / "meadow/games/harmonies/data/animal_cards.json").read_text("utf-8"))
    doc["cards"][0]["name"] = "Drop-in Owl"
    folder = _drop_in(tmp_path, "harmonies", "animal_cards.json", json.dumps(doc))
    env = {k: v for k, v in os.environ.items() if k != "MEADOW_GAME_DATA"}
    done = subprocess.run(
        [*MEADOW, "games"],
        capture_output=True,
        text=True,
        env={**env, "MEADOW_DATA": str(folder)},
        timeout=60,
    )
    assert done.returncode == 0
    assert done.stderr.strip() == (
        "note: MEADOW_DATA is now called MEADOW_GAME_DATA (the old name is close to "
        "MEADOW_DATA_DIR, the server's database folder); it still works, but set the new one"
    )
    code = "from meadow.games.harmonies import components as c; print(c.cards()[1].name)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "MEADOW_DATA": str(folder)},
        timeout=60,
    )
    assert done.stdout.strip() == "Drop-in Owl", done.stderr


@pytest.mark.parametrize("command", [["admin", "list"], ["migrate"], ["check-store"]])
@pytest.mark.parametrize(
    ("env", "args", "message"),
    [
        (
            {"MEADOW_DATABASE_URL": "postgresql+psycopg2://meadow@127.0.0.1:1/meadow"},
            [],
            "connection to server at",
        ),
        ({}, ["--data-dir", "a-file/data"], "a-file"),
    ],
)
def test_the_store_commands_name_an_unusable_database(
    capsys, monkeypatch, tmp_path, command, env, args, message
):
    (tmp_path / "a-file").write_text("x")
    monkeypatch.chdir(tmp_path)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    line = one_line_error(*run(capsys, monkeypatch, [*command, *args]))
    assert message in line
