"""The differential harness: equal versions agree, a changed rule is found at its first step."""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.differential import ROOT, compare, configurations


def test_every_option_value_and_player_count_is_played():
    configs = configurations("harmonies")
    assert {players for players, _ in configs} == {1, 2, 3, 4}
    assert {options["spirits"] for _, options in configs} == {True, False}
    assert {options["side"] for _, options in configs} == {"A", "B"}
    boards = {options["board"] for _, options in configurations("renature")}
    assert boards == {"base", "valley", "valley_variant"}


def test_options_a_player_count_refuses_are_left_out_of_it():
    from meadow import games

    topiary = games.get("topiary")
    configs = configurations("topiary")
    removed = {players for players, options in configs if options["removed_shape"] != "random"}
    assert removed and 4 not in removed  # with 4 players every motif set is in play
    for players, options in configs:
        topiary.setup(players, options, 0)


def test_a_version_agrees_with_itself():
    assert compare("topiary", 0, 6, ROOT, jobs=1) == []


def test_a_changed_rule_is_shown_at_the_first_step_it_changes(tmp_path: Path):
    old = tmp_path / "old"
    shutil.copytree(ROOT / "meadow", old / "meadow", ignore=shutil.ignore_patterns("web"))
    game = old / "meadow" / "core" / "game.py"
    source = game.read_text()
    assert "self.ply += 1" in source
    game.write_text(source.replace("self.ply += 1", "self.ply += 2"))  # an "old" version
    problems = compare("topiary", 0, 4, old, jobs=1)
    assert len(problems) == 4
    assert problems[0].startswith("topiary game 0, step 1:")  # the views after the first move
    before, now = problems[0].split("\n")[1:]
    assert '"ply": 2' in before and '"ply": 1' in now
    # a run in parts: games 10..11 are games 10 and 11, not 0 and 1 again
    later = compare("topiary", 10, 2, old, jobs=1)
    assert [p.split(",")[0] for p in later] == ["topiary game 10", "topiary game 11"]
