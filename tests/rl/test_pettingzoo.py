"""The PettingZoo AEC environments: PettingZoo's own checks, rewards, errors, truncation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import meadow.rl
from meadow import games
from meadow.core.errors import IllegalAction, MeadowError, OptionError

# Each game with 2 players and defaults, and one other player count with options changed.
SETUPS = [
    ("topiary", 2, {}),
    ("topiary", 4, {"take": "optional", "draft": True}),
    ("harmonies", 2, {}),
    ("harmonies", 1, {"side": "B", "spirits": True}),
    ("renature", 2, {}),
    ("renature", 3, {"board": "valley"}),
    ("mystic_vale", 2, {}),
    ("mystic_vale", 3, {"vale_of_magic": True, "edition": "german"}),
]


def _name(setup: tuple) -> str:
    game_id, players, options = setup
    return f"{game_id}-{players}p-" + (
        ",".join(f"{k}={v}" for k, v in options.items()) or "default"
    )


@pytest.mark.parametrize("setup", SETUPS, ids=_name)
def test_pettingzoo_api_test_passes(setup):
    game_id, players, options = setup
    with warnings.catch_warnings():
        # PettingZoo warns about every dict observation (as for its own chess and Go)
        warnings.simplefilter("ignore", UserWarning)
        api_test(meadow.rl.env(game_id, players, options), num_cycles=1000)


@pytest.mark.parametrize("setup", SETUPS[::2], ids=_name)
def test_pettingzoo_seed_test_passes(setup):
    game_id, players, options = setup
    seed_test(lambda: meadow.rl.env(game_id, players, options), num_cycles=40)


def _play_out(env, seed: int = 0) -> dict[str, float]:
    """Random masked play to the end; the reward each agent saw last."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return final


def test_win_rewards_follow_the_ranking():
    env = meadow.rl.env("topiary", 3)
    final = _play_out(env, seed=3)
    result = env._game.result()
    winners = result.winners
    for seat in range(3):
        expected = (1.0 if len(winners) == 1 else 0.0) if seat in winners else -1.0
        assert final[f"seat_{seat}"] == expected


def test_score_and_margin_rewards():
    env = meadow.rl.env("harmonies", 2, reward="score")
    final = _play_out(env, seed=4)
    scores = env._game.result().scores
    assert [final["seat_0"], final["seat_1"]] == list(scores)
    env = meadow.rl.env("harmonies", 2, reward="margin")
    final = _play_out(env, seed=4)
    assert final["seat_0"] == scores[0] - scores[1] == -final["seat_1"]
    assert meadow.rl.env("harmonies", 1).reward_mode == "score"  # a solo game has no winner


def test_the_agent_to_move_follows_the_game():
    env = meadow.rl.env("harmonies", 2)
    env.reset(seed=1)
    movers = []
    for _ in range(12):  # take, three tokens, maybe a card and cubes, end: one seat moves on
        agent = env.agent_selection
        movers.append(agent)
        mask = env.observe(agent)["action_mask"]
        assert mask.any()
        other = "seat_1" if agent == "seat_0" else "seat_0"
        assert not env.observe(other)["action_mask"].any()
        env.step(int(np.flatnonzero(mask)[-1]))
    assert movers[:2] == ["seat_0", "seat_0"]
    assert "seat_1" in movers


def test_an_illegal_index_is_refused_with_its_reason():
    env = meadow.rl.env("topiary", 2)
    env.reset(seed=2)
    before = env._game.to_json()
    take = env.encoding.index(env.encoding.actions[56])  # take r0c0: no visitor placed yet
    with pytest.raises(IllegalAction, match=r"index 56 \(take r0c0\): seat 0 must now place"):
        env.step(take)
    assert env._game.to_json() == before
    with pytest.raises(MeadowError, match=r"outside 0\.\.1080"):
        env.step(5000)


def test_bad_settings_are_explained():
    with pytest.raises(OptionError):
        meadow.rl.env("topiary", 2, {"take": "sometimes"})
    with pytest.raises(MeadowError, match="no reward 'points'"):
        meadow.rl.env("topiary", 2, reward="points")
    with pytest.raises(MeadowError, match="solo game has no winner"):
        meadow.rl.env("harmonies", 1, reward="win")
    with pytest.raises(MeadowError, match="max_decisions 0"):
        meadow.rl.env("topiary", 2, max_decisions=0)
    with pytest.raises(MeadowError, match="render mode 'rgb_array'"):
        meadow.rl.env("topiary", 2, render_mode="rgb_array")


def test_a_game_past_the_cap_is_truncated():
    env = meadow.rl.env("mystic_vale", 2, max_decisions=25)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 25


def test_render_shows_the_view_of_the_seat_to_move():
    env = meadow.rl.env("topiary", 2, render_mode="ansi")
    env.reset(seed=1)
    game = games.get("topiary")
    assert env.render() == game.render_text(env._game.view(0))
