"""The computer's levels as the lobby learns them, and the server's bound on a level's think."""

from __future__ import annotations

import httpx
import pytest

from meadow import games
from meadow.bots import LEVELS, make_bot
from meadow.bots.base import Bot
from meadow.bots.levels import SECONDS, offered
from meadow.bots.names import LevelBot
from meadow.server import thinking
from tests.bots.recorder import Recorder
from tests.server.conftest import own_server


def test_each_game_lists_its_levels_with_this_servers_bound(
    tmp_path_factory: pytest.TempPathFactory,
):
    with own_server(tmp_path_factory, "sqlite", MEADOW_BOT_MAX_SECONDS="2") as server:
        described = httpx.get(server.base + "/api/games").json()
    assert {g["id"] for g in described} == set(games.ids())
    for game in described:
        assert [entry["level"] for entry in game["levels"]] == list(offered(game["id"]))
        for entry in game["levels"]:
            assert entry["seconds"] == min(SECONDS[entry["level"]], 2.0)
            if entry["measured"]:  # figures only beside the flag that vouches for them
                assert entry["low"] <= entry["elo"] <= entry["high"] and entry["games"] > 0
            else:
                assert "elo" not in entry


@pytest.mark.parametrize("level", LEVELS)
def test_a_levels_think_stays_within_the_servers_bound(monkeypatch, level):
    """The worker bounds a level as it bounds MCTS: the level passes the bound to its bot."""
    recorder = Recorder()

    def level_with_recorder(spec: str) -> Bot:
        bot = make_bot(spec)
        assert isinstance(bot, LevelBot)
        bot._bots["topiary"] = recorder
        return bot

    monkeypatch.setattr(thinking, "make_player", level_with_recorder)
    if hasattr(thinking, "_KEPT"):  # a worker may keep its bots: start as a fresh worker
        monkeypatch.setattr(thinking, "_KEPT", type(thinking._KEPT)())
    state = games.get("topiary").setup(2, seed=1)
    move = thinking.think("topiary", state.to_json(), state.to_move, level, 0.25).move
    assert move == str(state.legal_actions()[0])
    assert recorder.seen == [min(SECONDS[level], 0.25)]
