import json
from pathlib import Path

import pytest

from bench import harmonies_weights as hw
from meadow.games.harmonies import planning


def test_weights_are_named_constants_of_the_evaluation_or_the_planner():
    assert hw.weights(["REACH=0.65", "MAX_WIDTH=64"]) == {"REACH": 0.65, "MAX_WIDTH": 64}
    with pytest.raises(SystemExit, match="NAME=NUMBER"):
        hw.weights(["REACHES=0.65"])
    with pytest.raises(SystemExit, match="NAME=NUMBER"):
        hw.weights(["value=1"])  # a function, not a weight
    with pytest.raises(SystemExit, match="not a number"):
        hw.weights(["REACH=much"])


def test_a_weight_set_reaches_the_evaluation(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(planning, "REACH", planning.REACH)  # restored after the test
    hw.apply_weights({"REACH": 0.5})
    assert planning.reach(2, budget=10) == 0.25


def test_a_run_is_recorded_and_paired_with_the_earlier_run_on_its_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(planning, "NEXT_CARD", planning.NEXT_CARD)
    record = tmp_path / "runs.jsonl"
    common = ["--bots", "greedy,random", "-n", "2", "--seed", "5", "--jobs", "1"]
    hw.main([*common, "--record", str(record)])
    hw.main([*common, "--set", "NEXT_CARD=0.0", "--record", str(record)])
    runs = [json.loads(line) for line in record.read_text().splitlines()]
    assert [r["set"] for r in runs] == [{}, {"NEXT_CARD": 0.0}]
    assert all(len(r["first"]) == len(r["other"]) == 2 for r in runs)
    out = capsys.readouterr().out
    assert "against as shipped: " in out  # the second run beside the first
    assert out.count("  against ") == 1  # one earlier run on these deals


def test_the_paired_difference_is_per_deal():
    before = {"first": [90, 80, 100]}
    after = {"first": [92, 84, 100]}
    assert hw.paired(after, before) == "+2.0 (standard error 1.2)"
