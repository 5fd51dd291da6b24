"""Every golden game under tests/games/*/playthroughs/ replays to its recorded result."""

from __future__ import annotations

from pathlib import Path

import pytest

from meadow.core.playthrough import read

FILES = sorted(Path(__file__).parent.glob("games/*/playthroughs/*.txt"))


def test_there_are_playthroughs():
    assert FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_playthrough_replays_to_its_result(path: Path):
    playthrough = read(path.read_text("utf-8"))
    state = playthrough.record.replay()
    assert state.is_over
    assert state.result().to_json() == playthrough.result
