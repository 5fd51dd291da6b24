"""`meadow analyse RECORD.json`: each seat's decisions judged, in words or as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow import games
from meadow.core.record import GameRecord
from tests.cli.test_cli import run


def saved_game(tmp_path: Path) -> tuple[Path, GameRecord]:
    record, _ = GameRecord.random(games.get("topiary"), 2, {}, 11)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    return path, record


def test_json_judges_every_decision_with_a_choice_and_sums_each_seat(tmp_path, capsys, monkeypatch):
    path, record = saved_game(tmp_path)
    args = ["analyse", str(path), "--worlds", "2", "--json"]
    code, out, _ = run(capsys, monkeypatch, args)
    assert code == 0
    found = json.loads(out)
    decisions = found["decisions"]
    assert decisions and all(d["played"] == record.actions[d["move"] - 1] for d in decisions)
    # Each figure is rounded to 3 places on its own: a loss may differ from the difference of
    # the rounded values by a rounding step.
    for d in decisions:
        assert d["loss"] == pytest.approx(max(0.0, d["best_value"] - d["played_value"]), abs=2e-3)
    marks = {"best", "good", "inaccuracy", "mistake", "blunder"}
    for d in decisions:
        assert d["mark"] in marks and 0 <= d["chance_played"] <= 1 and d["chance_loss"] >= 0
    for seat in found["seats"]:
        own = [d["loss"] for d in decisions if d["seat"] == seat["seat"]]
        assert seat["decisions"] == len(own) and 0 <= seat["accuracy"] <= 100
        assert seat["mean_loss"] == pytest.approx(sum(own) / len(own), abs=2e-3)
        assert sum(seat["marks"].values()) == len(own)
    assert [m for t in found["turns"] for m in t["played"]] == list(record.actions)


def test_words_name_each_seat_and_its_biggest_losses(tmp_path, capsys, monkeypatch):
    path, _ = saved_game(tmp_path)
    # A budget in worlds, not seconds: on a loaded machine a few hundredths of a second may
    # see no world at all, and then nothing is lost.
    code, out, _ = run(capsys, monkeypatch, ["analyse", str(path), "--worlds", "2"])
    assert code == 0
    assert "seat 0: accuracy" in out and "seat 1: accuracy" in out
    assert "kept" in out and "win chance" in out  # random moves lose somewhere
    again = run(capsys, monkeypatch, ["analyse", str(path), "--worlds", "2"])[1]
    assert again == out  # no clock: the same judgements every time


def test_a_broken_record_or_budget_is_one_line(tmp_path, capsys, monkeypatch):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "nope"}', encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, ["analyse", str(broken)])
    assert code == 2 and err.count("\n") == 1 and "not a Meadow game record" in err
    path, _ = saved_game(tmp_path)
    code, _, err = run(capsys, monkeypatch, ["analyse", str(path), "--seconds-per-move", "0"])
    assert code == 2 and "--seconds-per-move 0" in err
    code, _, err = run(capsys, monkeypatch, ["analyse", str(path), "--worlds", "0"])
    assert code == 2 and "--worlds 0" in err


def test_an_export_of_several_games_is_judged_game_by_game(tmp_path, capsys, monkeypatch):
    """`meadow export games` writes one record a line, with fields of its own besides."""
    lines = []
    for seed in (2, 3):
        record, _ = GameRecord.random(games.get("topiary"), 2, {}, seed)
        lines.append(json.dumps({**record.to_json(), "finished_at": "2026-11-28T10:00:00"}))
    export = tmp_path / "games.jsonl"
    export.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["analyse", str(export), "--worlds", "1", "--json"]
    code, out, _ = run(capsys, monkeypatch, args)
    assert code == 0
    found = json.loads(out)
    assert [len(game["seats"]) for game in found] == [2, 2]
    export.write_text(lines[0] + "\n{broken\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, ["analyse", str(export)])
    assert code == 2 and "line 2: not JSON" in err and err.count("\n") == 1


def test_a_replay_download_with_its_hints_is_read_like_any_record(tmp_path, capsys, monkeypatch):
    """The replay page's download of a table that allowed hints carries how many each seat
    asked for; the record is read all the same."""
    record, _ = GameRecord.random(games.get("topiary"), 2, {}, 12)
    download = tmp_path / "meadow-12.json"
    download.write_text(json.dumps({**record.to_json(), "hints": [2, 0]}), encoding="utf-8")
    code, out, _ = run(capsys, monkeypatch, ["analyse", str(download), "--worlds", "1"])
    assert code == 0 and "seat 0: accuracy" in out
