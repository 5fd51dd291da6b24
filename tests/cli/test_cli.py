"""The `meadow` command line, run in-process through its real entry point."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from meadow.cli import main
from meadow.core.record import GameRecord


def run(capsys, monkeypatch, args: list[str], stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


def test_games_lists_players_and_options(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["games"])
    assert code == 0
    assert "Topiary (topiary), 2-4 players" in out
    for option in ("take = mandatory", "one_tile_diagonals = True", "removed_shape", "draft"):
        assert option in out


def test_simulate_prints_statistics(capsys, monkeypatch):
    code, out, _ = run(
        capsys, monkeypatch, ["simulate", "topiary", "-n", "30", "--players", "4", "--seed", "5"]
    )
    assert code == 0
    assert "30 random games, 4 players" in out
    for column in ("mean score", "min", "max", "win share"):
        assert column in out
    assert "games/s" in out
    shares = [
        float(line.split("│")[5].strip(" %")) for line in out.splitlines() if line.count("│") == 6
    ]
    assert len(shares) == 4 and abs(sum(shares) - 100) < 0.5


def test_simulate_same_seed_same_statistics(capsys, monkeypatch):
    args = ["simulate", "topiary", "-n", "10", "--seed", "9", "-o", "take=optional"]
    first = run(capsys, monkeypatch, args)[1]
    second = run(capsys, monkeypatch, args)[1]
    table = [line for line in first.splitlines() if "│" in line]
    assert table == [line for line in second.splitlines() if "│" in line]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], "no game 'chess'"),
        (["simulate", "topiary", "-o", "take=maybe"], "'take' = 'maybe'"),
        (["simulate", "topiary", "-o", "colour=red"], "no option 'colour'"),
        (["simulate", "topiary", "-o", "oops"], "key=value"),
        (["simulate", "topiary", "--players", "5"], "2-4 players"),
        (["replay", "missing.json"], "cannot read missing.json"),
        (["play", "topiary", "--bot", "wizard"], "no bot 'wizard'"),
        (["play", "topiary", "--bot", "expert"], "topiary has no expert level"),
    ],
)
def test_bad_input_gets_one_clear_line(capsys, monkeypatch, args, message):
    code, out, err = run(capsys, monkeypatch, args)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_play_to_the_end_and_replay_the_saved_record(capsys, monkeypatch, tmp_path: Path):
    record_path = tmp_path / "game.json"
    answers = "help\nnonsense\n999\nvisit Z-9\nboard\n" + "1\n" * 200
    code, out, err = run(
        capsys,
        monkeypatch,
        ["play", "topiary", "--seed", "3", "--save", str(record_path)],
        answers,
    )
    assert code == 0, err
    assert "against easy" in out  # the default opponents: the level easy, named as a level
    assert "expected 'visit <position>'" in out  # nonsense explained
    assert "999 is not on the list" in out
    assert "no position 'Z-9'" in out
    assert "Final scores" in out
    assert "Traceback" not in out + err
    record = GameRecord.load(record_path)
    final = record.replay()
    assert final.is_over
    assert len(record.actions) >= 16 * 2

    code, out, _ = run(capsys, monkeypatch, ["replay", str(record_path), "--no-step"])
    assert code == 0
    assert f"move {len(record.actions)}:" in out
    assert "Final scores" in out
    for score in final.result().scores:
        assert str(score) in out


def test_play_refuses_an_illegal_move_with_the_rule(capsys, monkeypatch):
    # O-N0 twice: the second time the position is taken.
    answers = "visit O-N0\n1\n1\n" + "visit O-N0\nquit\n"
    code, out, _ = run(capsys, monkeypatch, ["play", "topiary", "--seed", "1"], answers)
    assert code == 0
    assert "already has a visitor" in out
    assert "game left unfinished" in out


def test_replay_steps_forward_and_back(capsys, monkeypatch, tmp_path: Path):
    record = GameRecord("topiary", 2, {}, 5, ["visit O-N0"])
    path = tmp_path / "r.json"
    record.save(path)
    code, out, _ = run(capsys, monkeypatch, ["replay", str(path), "--seat", "0"], "b\n\n\n")
    assert code == 0
    assert "back to move 0" in out
    assert "move 1: visit O-N0" in out
    assert "left unfinished" in out


def test_replay_names_the_bad_action(capsys, monkeypatch, tmp_path: Path):
    path = tmp_path / "bad.json"
    data = GameRecord("topiary", 2, {}, 5, ["visit O-N0", "visit O-N1"]).to_json()
    path.write_text(json.dumps(data))
    code, _, err = run(capsys, monkeypatch, ["replay", str(path), "--no-step"])
    assert code == 2
    assert "action 2 of the record ('visit O-N1')" in err
