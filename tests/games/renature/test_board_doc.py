"""docs/renature-boards.md's example board is read and checked by the loader the game uses:
the page cannot show a board Meadow refuses."""

from __future__ import annotations

import re
from pathlib import Path

from meadow.games.renature import board as board_module

PAGE = Path(__file__).resolve().parents[3] / "docs" / "renature-boards.md"


def test_the_documented_example_board_passes_the_checker(tmp_path: Path):
    found = re.search(r"```json\n(.*?)\n```", PAGE.read_text(encoding="utf-8"), re.DOTALL)
    assert found, "docs/renature-boards.md no longer shows an example board"
    path = tmp_path / "board.json"
    path.write_text(found.group(1), encoding="utf-8")
    board = board_module.load(path)
    assert board_module.count_problems(board, None) == []
