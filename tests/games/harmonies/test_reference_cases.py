"""All 45 reference cases of reference_cases.json, through the calculator (the same scoring
code the game uses). Each case names its source in the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow.games.harmonies import components as c
from meadow.games.harmonies.calculator import score_board
from meadow.games.harmonies.scoring import islands, river_length, solo_suns, water

CASES = json.loads((Path(__file__).parent / "reference_cases.json").read_text("utf-8"))["cases"]
LANDSCAPES = ("trees", "mountains", "fields", "buildings", "water")


def _stacks(case: dict) -> dict:
    return {(cell["col"], cell["row"]): tuple(cell["stack"]) for cell in case["cells"]}


@pytest.mark.parametrize("case", [c for c in CASES if c["cells"]], ids=lambda c: c["id"])
def test_reference_case(case: dict):
    points = score_board(case)
    expected = case["expected"]
    for key in (*LANDSCAPES, "animals", "spirit", "total"):
        if key in expected:
            assert points[key] == expected[key], key
    if "landscapes" in expected:
        assert sum(points[k] for k in LANDSCAPES) == expected["landscapes"]
    if "animals_plus_spirit" in expected:
        assert points["animals"] + points["spirit"] == expected["animals_plus_spirit"]
    if "river_length" in expected:
        assert river_length(_stacks(case)) == expected["river_length"]
    if "solo_suns" in expected:
        spirit = c.cards()[case["spirit_card"]] if "spirit_card" in case else None
        assert solo_suns(points["total"], case["side"], spirit) == expected["solo_suns"]


def test_rulebook_p8_islands_example():
    """Rulebook p.8 (side B): blue tokens split the board into 4 islands, 4 x 5 = 20.

    The picture is in perspective and was not transcribed, so this is a side-B board built
    here with 10 blue tokens and 4 islands, scored by the same function."""
    (case,) = [c for c in CASES if c["id"] == "rulebook_p8_islands_example"]
    side = c.board("B")
    blue = {(1, 0), (1, 1), (1, 2), (3, 0), (3, 1), (3, 2), (5, 0), (5, 1), (5, 2), (6, 3)}
    stacks = {cell: ("blue",) if cell in blue else () for cell in side.cells}
    assert len(blue) == 10
    assert islands(stacks) == case["expected"]["islands"]
    assert water(stacks, "B") == case["expected"]["water"]


def test_every_case_is_covered():
    assert len(CASES) == 45
