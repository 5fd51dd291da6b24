"""Levels: a name per strength, a bot per game behind it, and a bound on every think."""

from __future__ import annotations

import json

import pytest

from meadow import games
from meadow.bots import LEVELS, LevelBot, MctsBot, make_bot, observe
from meadow.bots import levels as levels_module
from meadow.bots.levels import (
    LADDER,
    SECONDS,
    check_offered,
    describe,
    offered,
    spec_for,
)
from meadow.core.errors import MeadowError
from meadow.core.rng import Rng
from tests.bots.recorder import Recorder


def test_the_old_level_names_still_work_and_expert_is_above_hard():
    assert {"easy", "medium", "hard"} <= set(LEVELS)
    assert LEVELS.index("expert") == LEVELS.index("hard") + 1
    for level in LEVELS:
        bot = make_bot(level)
        assert isinstance(bot, LevelBot) and bot.name == level


@pytest.mark.parametrize("game_id", games.ids())
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_names_a_bot_in_every_game(game_id, level):
    spec = spec_for(level, game_id)
    assert spec not in LEVELS  # a level's bot is never another level: no loop
    make_bot(spec)


def test_a_game_of_its_own_overrides_only_the_levels_it_names(monkeypatch):
    monkeypatch.setitem(LADDER, "topiary", {"hard": "mcts:7"})
    assert spec_for("hard", "topiary") == "mcts:7"
    assert spec_for("easy", "topiary") == LADDER["default"]["easy"]
    assert spec_for("hard", "mystic_vale") == LADDER["default"]["hard"]


def test_a_level_a_game_does_not_offer_plays_as_the_strongest_below_it(monkeypatch):
    monkeypatch.setitem(LADDER, "topiary", {"medium": "mcts:7", "hard": None, "expert": None})
    assert offered("topiary") == ("beginner", "easy", "medium")
    assert spec_for("expert", "topiary") == spec_for("hard", "topiary") == "mcts:7"
    assert [entry["level"] for entry in describe("topiary")] == ["beginner", "easy", "medium"]
    with pytest.raises(MeadowError, match=r"no hard level.*beginner, easy, medium$"):
        check_offered("hard", "topiary")
    check_offered("medium", "topiary")
    check_offered("mcts:1s", "topiary")  # bots by spec are any game's
    check_offered("hard", "renature")


def test_every_game_offers_beginner_to_hard():
    for game_id in games.ids():
        assert offered(game_id)[:4] == ("beginner", "easy", "medium", "hard")


def test_a_level_plays_each_game_with_that_games_bot_kept_between_moves(monkeypatch):
    monkeypatch.setitem(LADDER, "topiary", {"medium": "mcts:7"})
    bot = LevelBot("medium")
    for game_id in ("topiary", games.ids()[-1]):
        state = games.get(game_id).setup(2, seed=2)
        for _ in range(2):
            action = bot.choose(observe(state, state.to_move), Rng(3))
            assert action in state.legal_actions()
            state.apply(action)
    inner = bot.bot_for("topiary")
    assert isinstance(inner, MctsBot) and inner.iterations == 7
    assert bot.bot_for("topiary") is inner


def test_a_level_bounds_its_bots_think_by_its_seconds_and_the_servers():
    state = games.get("topiary").setup(2, seed=1)
    bot = LevelBot("expert")
    recorder = Recorder()
    bot._bots["topiary"] = recorder
    bot.choose(observe(state, state.to_move), Rng(1))
    bot.time_limit = 0.5  # as a server with a lower bound sets it
    bot.choose(observe(state, state.to_move), Rng(1))
    bot.time_limit = 60.0
    bot.choose(observe(state, state.to_move), Rng(1))
    assert recorder.seen == [SECONDS["expert"], 0.5, SECONDS["expert"]]


def test_unknown_levels_are_refused():
    with pytest.raises(ValueError):
        LevelBot("grandmaster")
    with pytest.raises(KeyError):
        spec_for("grandmaster", "topiary")


def test_only_measured_figures_for_the_current_bot_are_shown(monkeypatch, tmp_path):
    figures = {"elo": 210.0, "low": 150.0, "high": 270.0, "games": 120, "measured": True}
    ladder = {
        "games": {
            "topiary": {
                "anchor": "random",
                "levels": {
                    "easy": figures | {"spec": spec_for("easy", "topiary")},
                    "medium": figures | {"spec": "mcts:50"},  # not the bot it plays now
                    "hard": figures | {"spec": spec_for("hard", "topiary"), "measured": False},
                },
            }
        }
    }
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(ladder))
    monkeypatch.setattr(levels_module, "LADDER_FILE", path)
    levels_module._measured.cache_clear()
    try:
        shown = {entry["level"]: entry for entry in describe("topiary", most_seconds=2.0)}
    finally:
        levels_module._measured.cache_clear()
    assert [entry for entry in shown] == list(offered("topiary"))
    assert shown["easy"]["measured"] and shown["easy"]["elo"] == 210.0
    assert shown["easy"]["anchor"] == "random"
    assert not shown["medium"]["measured"] and "elo" not in shown["medium"]
    assert not shown["hard"]["measured"] and not shown["beginner"]["measured"]
    assert shown["hard"]["seconds"] == 1.0
    monkeypatch.setitem(LADDER, "topiary", {"expert": "mcts:3s"})
    expert = describe("topiary", most_seconds=2.0)[-1]
    assert expert["level"] == "expert"
    assert expert["seconds"] == 2.0  # the server's bound, below the level's own


@pytest.mark.parametrize("game_id", games.ids())
def test_hidden_information_never_changes_a_levels_decision(game_id):
    state = games.get(game_id).setup(2, seed=3)
    rng = Rng(3)
    for _ in range(12):
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    seat = state.to_move
    other = state.sample_hidden(seat, Rng(77))  # differs only in what `seat` cannot know
    first = make_bot("easy").choose(observe(state, seat), Rng(5))
    assert first == make_bot("easy").choose(observe(other, seat), Rng(5))
