"""The ladder's Elo fit on results made up to know the answer, and a tiny ladder run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.ladder import Pairing, fit_elo, main, pairs_of, report, write_package
from meadow.bots.levels import spec_for


def games(i: int, j: int, wins: int, losses: int, ties: int = 0) -> list[tuple[int, int, float]]:
    return [(i, j, 1.0)] * wins + [(i, j, 0.0)] * losses + [(i, j, 0.5)] * ties


def test_76_percent_is_about_200_elo():
    ratings = fit_elo(games(1, 0, 760, 240), 2)
    assert ratings[0].elo == 0.0
    assert ratings[1].elo == pytest.approx(200, abs=3)
    assert ratings[1].low < 200 < ratings[1].high


def test_ties_count_half():
    assert fit_elo(games(1, 0, 0, 0, ties=50), 2)[1].elo == pytest.approx(0, abs=1e-6)
    half = fit_elo(games(1, 0, 40, 20, ties=40), 2)[1].elo
    assert half == pytest.approx(fit_elo(games(1, 0, 60, 40), 2)[1].elo, abs=1e-6)


def test_a_level_that_wins_every_game_gets_a_finite_rating_with_a_wide_interval():
    rating = fit_elo(games(1, 0, 20, 0), 2)[1]
    assert 300 < rating.elo < 1500
    assert rating.high - rating.low > 400
    closer = fit_elo(games(1, 0, 15, 5), 2)[1]
    assert rating.elo > closer.elo


def test_intervals_shrink_with_more_games():
    widths = [
        (lambda r: r.high - r.low)(fit_elo(games(1, 0, 6 * k, 4 * k), 2)[1]) for k in (1, 4, 16)
    ]
    assert widths[0] > widths[1] > widths[2]
    assert widths[1] == pytest.approx(widths[0] / 2, rel=0.1)  # as 1 / sqrt(games)


def test_one_fit_over_every_pair_orders_a_ladder_and_anchors_any_entrant():
    results = (
        games(1, 0, 76, 24)  # 1 over 0 by about 200
        + games(2, 1, 76, 24)  # 2 over 1 by about 200
        + games(2, 0, 91, 9)  # 2 over 0 by about 400
    )
    ratings = fit_elo(results, 3)
    assert [r.elo for r in ratings] == pytest.approx([0, 200, 400], abs=15)
    moved = fit_elo(results, 3, anchor=1)
    assert moved[1].elo == 0.0
    assert moved[2].elo - moved[0].elo == pytest.approx(ratings[2].elo, abs=1e-6)


def test_unconnected_results_are_refused():
    with pytest.raises(ValueError):
        fit_elo(games(1, 0, 5, 5), 3)


def test_the_package_ladder_marks_standins_as_not_measured(tmp_path):
    pairings = [Pairing(0, 1, games=2, wins=1.5, scores=([10, 12], [8, 9]))]
    ratings = fit_elo(games(1, 0, 1, 1), 2)
    out = report(
        "topiary",
        ["easy", "medium"],
        ["easy", "mcts:5"],  # the level itself, and a stand-in
        pairings,
        ratings,
        [(1.0, 10), (0.0, 0)],
        0,
        "python -m bench.ladder topiary",
    )
    path = tmp_path / "ladder.json"
    write_package(out, path)
    levels = json.loads(path.read_text())["games"]["topiary"]["levels"]
    assert levels["easy"]["measured"] is True and levels["easy"]["seconds_per_decision"] == 0.1
    assert levels["easy"]["spec"] == spec_for("easy", "topiary")
    assert levels["medium"]["measured"] is False and levels["medium"]["spec"] == "mcts:5"


def test_a_tiny_ladder_runs_to_its_report(tmp_path, capsys):
    out_file = tmp_path / "out.json"
    main(["topiary", "--levels", "easy", "--random", "-n", "2", "--out", str(out_file)])
    out = json.loads(out_file.read_text())
    assert out["anchor"] == "random" and out["levels"]["random"]["elo"] == 0.0
    assert [(p["a"], p["b"], p["games"]) for p in out["pairs"]] == [("random", "easy", 2)]
    assert out["levels"]["easy"]["decisions"] > 0
    assert "random v easy" in capsys.readouterr().out


def test_neighbours_play_by_default_and_every_pair_on_request():
    assert pairs_of(4, "neighbours") == [(0, 1), (1, 2), (2, 3)]
    assert len(pairs_of(4, "all")) == 6


def test_a_recorded_ladder_resumes_without_playing_a_game_twice(tmp_path, capsys):
    record = tmp_path / "record.jsonl"
    args = ["topiary", "--levels", "beginner,easy", "--record", str(record)]
    main([*args, "-n", "2"])
    first = record.read_text().splitlines()
    assert len(first) == 2
    assert {json.loads(line)["bots"][1] for line in first} == {spec_for("easy", "topiary")}
    with record.open("a") as file:
        file.write('{"key": "a line cut short by a cra')  # a run killed mid-write
    main([*args, "-n", "4", "--out", str(tmp_path / "out.json")])
    lines = record.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 5  # two more games, none played again
    assert all(json.loads(line)["bots"] for line in lines[3:])  # each whole on its line
    out = json.loads((tmp_path / "out.json").read_text())
    assert out["pairs"][0]["games"] == 4  # the fit covers recorded and new games
    assert "2 games recorded, 2 to play" in capsys.readouterr().err


def test_a_record_of_other_bots_does_not_count(tmp_path):
    record = tmp_path / "record.jsonl"
    main(["topiary", "--levels", "beginner,easy", "--record", str(record), "-n", "2"])
    out_file = tmp_path / "out.json"
    main(
        [
            *("topiary", "--levels", "beginner,easy", "--record", str(record), "-n", "2"),
            *("--as", "easy=random", "--out", str(out_file)),
        ]
    )
    assert len(record.read_text().splitlines()) == 4  # random v random is another pairing
    assert json.loads(out_file.read_text())["pairs"][0]["games"] == 2


def test_a_game_stopped_ends_the_ladder_with_its_reason_and_no_traceback(
    tmp_path, monkeypatch, capsys
):
    from meadow.cli import tournament

    monkeypatch.setattr(tournament, "MOST_PLIES", 5)  # inherited by the forked workers
    record = tmp_path / "games.jsonl"
    args = ["topiary", "--levels", "easy", "--random", "-n", "2", "--record", str(record)]
    with pytest.raises(SystemExit) as ended:
        main(args)
    message = str(ended.value.code)
    assert message.startswith("\nbench.ladder: the game reached ply 5 of game ")
    assert f"the games finished before it are in {record}" in message
    assert "Traceback" not in capsys.readouterr().err
    kept = message.split("the position is in ")[1].split(";")[0]
    assert json.loads(Path(kept).read_text())["ply"] == 5
    Path(kept).unlink()
