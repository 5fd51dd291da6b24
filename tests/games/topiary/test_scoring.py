"""Every case of reference_cases.json as a test; each case names its source in the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow.games.topiary.scoring import hand_points, score_line

CASES = json.loads((Path(__file__).parent / "reference_cases.json").read_text("utf-8"))


def _line(entries: list) -> list:
    """Face-down 'fd' becomes None; a missing shape gets a shape of its own (the source gave
    only values, so shapes count as pairwise distinct)."""
    line = []
    for i, entry in enumerate(entries):
        if entry == "fd":
            line.append(None)
        else:
            line.append((entry["shape"] or f"unnamed-{i}", entry["value"]))
    return line


def _sculptures(entries: list) -> list:
    return [(e["shape"], e["value"]) for e in entries]


@pytest.mark.parametrize("case", CASES["line_cases"], ids=lambda c: c["id"])
def test_line_case(case: dict):
    score = score_line(_line(case["line"]))
    assert [value for _, value in score.seen] == case["seen_values"]
    assert score.base == case["base"]
    assert score.bonus == case.get("bonus", case.get("bonus_if_shapes_distinct"))
    if "visitor_total" in case:
        assert score.total == case["visitor_total"]


@pytest.mark.parametrize("case", CASES["hand_cases"], ids=lambda c: c["id"])
def test_hand_case(case: dict):
    if "own_visitor_line" in case:
        seen = list(score_line(_line(case["own_visitor_line"])).seen)
    else:
        seen = [s for line in case["own_visitors_seen_tiles"] for s in _sculptures(line)]
    assert hand_points(_sculptures(case["hand"]), seen) == case["hand_points"]


def test_score_sheet_ludolegars():
    """ludolegars.fr 3-player sheet: visitors 13+10+11+5+12+8, four bonuses of 2, total 67.

    The board is not published, so each visitor's line is rebuilt to give the recorded base,
    four of them with one pair of a shape (a bonus of 2, as the sheet shows).
    """
    (case,) = CASES["score_sheet_cases"]
    lines = [
        [("t_rex", 1), ("swan", 3), ("t_rex", 4), ("whale", 5)],  # 13, pair of t_rex
        [("spiral", 1), ("pyramid", 4), ("spiral", 5)],  # 10, pair of spirals
        [("elephant", 2), ("swan", 4), ("elephant", 5)],  # 11, pair of elephants
        [("cone", 2), ("cone", 3)],  # 5, pair of cones
        [("whale", 3), ("t_rex", 4), ("pyramid", 5)],  # 12
        [("icosahedron", 3), ("icosahedron", 1), ("swan", 5)],  # 8 (the 1 is hidden)
    ]
    scores = [score_line(line) for line in lines]
    assert [s.base for s in scores] == case["visitor_base_values"]
    assert [s.bonus for s in scores if s.bonus] == case["bonus_entries"]
    assert sum(s.total for s in scores) + hand_points([], []) == case["total"]
