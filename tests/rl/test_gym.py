"""The single-agent Gymnasium wrapper: Gymnasium's checker, bots at the other seats."""

from __future__ import annotations

import contextlib
import io

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from meadow import games
from meadow.bots import RandomBot
from meadow.core.errors import IllegalAction, MeadowError
from meadow.rl.encoding import encoding
from meadow.rl.gym import ENV_IDS, MeadowGymEnv


@pytest.mark.parametrize("game_id", games.ids())
def test_gymnasium_check_env_passes(game_id):
    env = gymnasium.make(ENV_IDS[game_id], players=2, render_mode="ansi")
    with contextlib.redirect_stdout(io.StringIO()):  # the render check prints the board
        check_env(env.unwrapped)


def _episode(env: MeadowGymEnv, seed: int) -> tuple[float, dict, int]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps, done = 0, False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        assert np.array_equal(observation["action_mask"], env.action_masks())
        assert legal.size, "the agent is asked only when it has a decision"
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        done = terminated or truncated
        steps += 1
    return reward, info, steps


@pytest.mark.parametrize("game_id", games.ids())
def test_an_episode_is_one_seat_against_bots(game_id):
    env = MeadowGymEnv(game_id, players=3 if game_id != "harmonies" else 2, opponents="random")
    reward, info, steps = _episode(env, seed=2)
    assert env._game.is_over and info["scores"] == list(env._game.result().scores)
    assert reward in (-1.0, 0.0, 1.0)
    assert steps < env.decisions  # the bots moved too


def test_the_seat_and_the_opponents_are_chosen():
    env = MeadowGymEnv("topiary", players=3, seat=None, opponents=["greedy", RandomBot()])
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    env.reset(seed=0)
    assert sorted(b.name for b in env._bots.values()) == ["greedy", "random"]
    trained = MeadowGymEnv("topiary", players=2, opponents="policy:tests.rl.policies:first_legal")
    _episode(trained, seed=1)  # a policy from training can be the opponent (self-play)
    with pytest.raises(MeadowError, match="one for each of the 2 other seats"):
        MeadowGymEnv("topiary", players=3, opponents=["random"] * 3)
    with pytest.raises(MeadowError, match="seats 0-1"):
        MeadowGymEnv("topiary", players=2, seat=2)
    with pytest.raises(MeadowError, match="no bot 'grumpy'"):
        MeadowGymEnv("topiary", players=2, opponents="grumpy")


def test_the_score_reward_is_the_final_score():
    env = MeadowGymEnv("harmonies", players=1, reward="score")
    reward, info, _ = _episode(env, seed=5)
    assert reward == info["scores"][0]


def test_an_illegal_index_ends_the_episode_or_raises():
    env = MeadowGymEnv("topiary", players=2)
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(56)  # take r0c0 before any visitor
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "take r0c0" in info["illegal"] and "must now place a visitor" in info["illegal"]
    with pytest.raises(MeadowError, match="episode is over"):
        env.step(0)
    strict = MeadowGymEnv("topiary", players=2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalAction, match="must now place a visitor"):
        strict.step(56)


def test_a_long_game_is_truncated():
    env = MeadowGymEnv("mystic_vale", players=2, max_decisions=30)
    observation, _ = env.reset(seed=3)
    truncated = False
    while not truncated:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, _ = env.step(action)
        assert not terminated
    assert reward == 0.0 and env.decisions >= 30


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_many_games_step_at_once_in_a_vector_environment(mode):
    """Gymnasium's own vector environments run Meadow's: one step plays a decision in each
    game, a finished game starts again on the step after (its last mask is all 0, and the
    action given with it is not played)."""
    envs = gymnasium.make_vec(
        "meadow/Topiary-v0", num_envs=3, vectorization_mode=mode, players=2, opponents="random"
    )
    try:
        observation, _ = envs.reset(seed=4)
        size = encoding("topiary", 2).observation_size
        assert observation["observation"].shape == (3, size)
        rng = np.random.default_rng(4)
        ended = 0
        for _ in range(400):
            masks = observation["action_mask"]
            actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
            observation, reward, terminated, truncated, _ = envs.step(np.array(actions))
            ended += int(terminated.sum())
            assert not truncated.any()
            assert set(np.unique(reward)) <= {-1.0, 0.0, 1.0}
        assert ended >= 3  # every game ended at least once, some twice: a Topiary game is short
    finally:
        envs.close()
