"""`meadow score harmonies BOARD.json`: every reference case, and precise errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow.cli import main
from tests.games.harmonies.test_reference_cases import CASES

KEYS = ["trees", "mountains", "fields", "buildings", "water", "animals", "spirit", "total"]


def _score(capsys, tmp_path: Path, board: object) -> tuple[int, str, str]:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board) if not isinstance(board, str) else board)
    with pytest.raises(SystemExit) as exited:
        main(["score", "harmonies", str(path)])
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


@pytest.mark.parametrize("case", [c for c in CASES if c["cells"]], ids=lambda c: c["id"])
def test_every_reference_case_through_the_command(capsys, tmp_path, case):
    code, out, _ = _score(capsys, tmp_path, case)
    assert code == 0
    points = json.loads(out)
    assert list(points) == KEYS
    for key, value in case["expected"].items():
        if key in points:
            assert points[key] == value


def _board(cells: list, **extra: object) -> dict:
    return {"side": "A", "cells": cells, **extra}


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (_board([{"col": 0, "row": 0, "stack": ["purple"]}]), "unknown colour 'purple'"),
        (
            _board([{"col": 0, "row": 0, "stack": ["green", "brown"]}]),
            "brown on green is not a legal stack",
        ),
        (
            _board([{"col": 1, "row": 4, "stack": ["blue"]}]),
            "(col 1, row 4): not a space of board side A",
        ),
        (
            _board([{"col": 0, "row": 0, "stack": []}, {"col": 0, "row": 0, "stack": []}]),
            "listed twice",
        ),
        (_board([], cards=[{"id": 99, "cubes_remaining": 0}]), "cards[0] (id 99): no such card"),
        (_board([], cards=[{"id": 1, "cubes_remaining": 7}]), "cubes_remaining must be 0..3"),
        (_board([], cards=[{"id": 33, "cubes_remaining": 0}]), "Lion is a spirit"),
        (_board([], spirit_card=3), "spirit_card: 3 is not a spirit card"),
        ({"side": "C", "cells": []}, "side: Input should be 'A' or 'B'"),
        ({"cells": []}, "side: Field required"),
        (_board([{"col": "x", "row": 0, "stack": []}]), "cells[0].col"),
        ("{not json", "not valid JSON at line 1, column 2"),
    ],
)
def test_bad_boards_get_a_precise_error(capsys, tmp_path, board, message):
    code, out, err = _score(capsys, tmp_path, board)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


def test_coordinate_set_only_boards_may_lie_off_the_real_board(capsys, tmp_path):
    board = _board(
        [{"col": -1, "row": 0, "stack": ["yellow"]}, {"col": -1, "row": 1, "stack": ["yellow"]}],
        board_scope="coordinate set only",
    )
    code, out, _ = _score(capsys, tmp_path, board)
    assert code == 0 and json.loads(out)["fields"] == 5
