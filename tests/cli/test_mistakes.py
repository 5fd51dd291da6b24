"""Issue 25: every mistake a person can make is answered in one line, never a traceback and
never "internal error" (exit 70, which means a bug)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from meadow.cli import main
from meadow.games.mystic_vale import components as mystic_vale_components

ROOT = Path(__file__).resolve().parents[2]
MEADOW = [sys.executable, "-c", "from meadow.cli import main; main()"]


def run(capsys, monkeypatch, args: list[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


def run_process(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """A fresh `meadow` process: what is read at import time is read again."""
    done = subprocess.run(
        MEADOW + args,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=ROOT,
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
    env = {"MEADOW_DATA": str(folder)}
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
    monkeypatch.setenv("MEADOW_DATA", str(bad_card_folder(tmp_path, text)))
    line = one_line_error(*run(capsys, monkeypatch, ["simulate", "mystic_vale", "-n", "1"]))
    assert "advancements.json: " in line
    assert message in line
    assert len(line) < 300  # a short excerpt, never the whole file


def test_a_good_card_file_is_used(capsys, monkeypatch, tmp_path: Path, fresh_cards):
    doc = packaged_cards("advancements.json")
    doc["advancements"][0]["name"] = "Renamed For The Test"
    monkeypatch.setenv("MEADOW_DATA", str(bad_card_folder(tmp_path, json.dumps(doc))))
    assert mystic_vale_components.advancements()[doc["advancements"][0]["id"]].name == (
        "Renamed For The Test"
    )
    code, _, err = run(capsys, monkeypatch, ["simulate", "mystic_vale", "-n", "1"])
    assert code == 0, err
