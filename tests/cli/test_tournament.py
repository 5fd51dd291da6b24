"""`meadow tournament` and the ladder stop a game whose bot thinks past the bound."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from meadow.bots.bounds import can_bound
from meadow.cli import tournament
from meadow.cli.tournament import Match, play_match
from meadow.core.errors import MeadowError
from meadow.rl.policy_bot import register_policy


def endless(observation: np.ndarray, mask: np.ndarray) -> int:
    while True:  # a policy that never answers
        pass


@pytest.mark.skipif(not can_bound(), reason="no interval timer here (Windows)")
def test_a_think_that_never_ends_stops_its_game_with_the_position_kept():
    """Issue 22: one ladder game ran on for ten minutes and more at full CPU and was killed,
    with nothing kept to find why. Now the game stops at the bound and keeps the position."""
    register_policy("endless-for-tests", endless)
    match = Match("topiary", 2, {}, ("random", "policy:endless-for-tests"), 5, 0, bound=0.3)
    with pytest.raises(MeadowError) as stopped:
        play_match(match)
    message = str(stopped.value)
    assert "policy:endless-for-tests in seat 1 thought past 0.3 s" in message
    assert "seed 5" in message
    found = re.search(r"position is in (\S+\.json)$", message)
    assert found is not None
    kept = json.loads(Path(found.group(1)).read_text(encoding="utf-8"))
    assert kept["seat"] == 1 and kept["bot"] == "policy:endless-for-tests"
    assert kept["state"]["game"] == "topiary" and kept["state"]["ply"] == kept["ply"]
    assert any("in endless" in frame for frame in kept["stopped_in"])  # where it was stuck
    Path(found.group(1)).unlink()


def test_a_game_that_does_not_end_is_stopped_with_the_position_kept(monkeypatch):
    """Bots that never end a game (neither takes the last points, say) would play for ever."""
    monkeypatch.setattr(tournament, "MOST_PLIES", 7)
    match = Match("topiary", 2, {}, ("random", "random"), 6, 1)
    with pytest.raises(MeadowError) as stopped:
        play_match(match)
    message = str(stopped.value)
    assert "the game reached ply 7 of game 1 (seed 6)" in message
    found = re.search(r"position is in (\S+\.json)$", message)
    assert found is not None
    kept = json.loads(Path(found.group(1)).read_text(encoding="utf-8"))
    assert kept["ply"] == 7 and kept["state"]["ply"] == 7 and kept["stopped_in"] == []
    Path(found.group(1)).unlink()
