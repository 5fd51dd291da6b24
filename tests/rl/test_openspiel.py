"""The pyspiel games: OpenSpiel's own simulation test, resampling, IS-MCTS."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from meadow import games
from meadow.core.errors import MeadowError
from meadow.rl import openspiel
from meadow.rl.encoding import encoding
from tests.rl.helpers import HIDING, hidden

GAMES = games.ids()


def _dealt(game: pyspiel.Game, seed: int = 0) -> pyspiel.State:
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while state.is_chance_node():
        state.apply_action(int(rng.randint(openspiel.DEAL_OUTCOMES)))
    return state


def _advance(state: pyspiel.State, plies: int, seed: int = 0) -> pyspiel.State:
    rng = np.random.RandomState(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_sim_test_passes(game_id):
    game = openspiel.load(game_id, players=2)
    long = game_id in ("renature", "mystic_vale")  # 100-400 decisions a game: one will do
    # serialize: OpenSpiel rebuilds states from their history and compares them
    pyspiel.random_sim_test(game, num_sims=1 if long else 3, serialize=not long, verbose=False)


def test_parameters_pick_players_options_and_reward():
    game = pyspiel.load_game(
        "meadow_harmonies", {"players": 3, "options": "side=B,spirits=true", "reward": "margin"}
    )
    assert game.num_players() == 3
    assert (
        game.num_distinct_actions() == encoding("harmonies", 3, {"side": "B", "spirits": True}).size
    )
    assert game.max_utility() == 300 and game.min_utility() == -300
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    solo = openspiel.load("harmonies", players=1)
    assert solo.num_players() == 1 and solo.max_utility() == 300  # a solo game pays the score
    with pytest.raises(MeadowError, match="no option 'colour'"):
        pyspiel.load_game("meadow_harmonies", {"options": "colour=red"})
    with pytest.raises(MeadowError, match="2-4 players, not 5"):
        openspiel.load("topiary", players=5)


@pytest.mark.parametrize("game_id", GAMES)
def test_tensors_and_strings_come_from_the_seats_view(game_id):
    game = openspiel.load(game_id, players=2)
    state = _advance(_dealt(game), 15)
    coding = encoding(game_id, 2)
    for player in range(2):
        view = state.world.view(player)
        expected = coding.observation(view)
        assert np.array_equal(np.asarray(state.observation_tensor(player)), expected)
        assert np.array_equal(np.asarray(state.information_state_tensor(player)), expected)
        assert state.observation_string(player) == pyspiel_view_string(view)
        assert state.information_state_string(player).endswith(state.observation_string(player))
    assert state.information_state_string(0) != state.information_state_string(1)


def pyspiel_view_string(view: dict) -> str:
    import json

    return json.dumps(view, sort_keys=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_information_states_have_perfect_recall(game_id):
    game = openspiel.load(game_id, players=2)
    state = _advance(_dealt(game), 6)
    player = state.current_player()
    before = state.information_state_string(player)
    other = state.clone()
    state.apply_action(state.legal_actions()[0])
    other.apply_action(other.legal_actions()[-1])
    if state.observation_string(player) == other.observation_string(player):
        # the same view after different actions: only the record of what was told differs
        assert state.information_state_string(player) != other.information_state_string(player)
    assert state.information_state_string(player) != before


@pytest.mark.parametrize("game_id", GAMES)
def test_resampling_keeps_what_the_seat_knows(game_id):
    game = openspiel.load(game_id, players=2, options=HIDING.get(game_id))
    state = _advance(_dealt(game, seed=1), 12, seed=1)
    player = state.current_player()
    changed = 0
    for k in range(4):
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()
        changed += hidden(world.world) != hidden(state.world)
        _advance(world, 3, seed=k)  # the resampled world plays on by itself
    assert changed
    assert not state.is_terminal()


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_ismcts_plays(game_id):
    game = openspiel.load(game_id, players=2)
    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=8,
        random_state=rng,
    )
    state = _advance(_dealt(game), 4)
    for _ in range(2):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_game_past_the_cap_ends_with_nothing_paid():
    game = openspiel.load("mystic_vale", players=2, max_decisions=20)
    assert game.max_game_length() == 20 + openspiel.DEAL_STAGES
    state = _advance(_dealt(game), 100)
    assert state.is_terminal() and state.truncated and state.returns() == [0.0, 0.0]
