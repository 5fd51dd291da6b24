"""Bots see only their seat's observation: hidden information never changes a decision."""

from __future__ import annotations

import dataclasses
import io

import pytest

from meadow import games
from meadow.bots import MctsBot, make_bot, observe
from meadow.cli import main
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.rng import Rng

GAMES = [g.id for g in games.all()]


def _midgame(game_id: str, plies: int = 12) -> State:
    game = games.get(game_id)
    state = game.setup(2, seed=3)
    rng = Rng(3)
    for _ in range(plies):
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    return state


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("spec", ["greedy", "mcts:25"])
def test_hidden_information_never_changes_a_decision(game_id, spec):
    state = _midgame(game_id)
    seat = state.to_move
    other = state.sample_hidden(seat, Rng(77))  # differs only in what `seat` cannot know
    assert other.view(seat) == state.view(seat)
    first = make_bot(spec).choose(observe(state, seat), Rng(5))
    second = make_bot(spec).choose(observe(other, seat), Rng(5))
    assert first == second
    assert first in state.legal_actions()


def test_an_observation_holds_no_state():
    state = _midgame("topiary")
    observation = observe(state, state.to_move)
    for f in dataclasses.fields(observation):
        assert not isinstance(getattr(observation, f.name), State)
    world = observation.world(Rng(1))
    assert world is not state and world.view(state.to_move) == state.view(state.to_move)


@pytest.mark.parametrize("game_id", GAMES)
def test_random_bot_plays_legal_moves_to_the_end(game_id):
    game = games.get(game_id)
    state = game.setup(2, seed=4)
    bot, rng = make_bot("random"), Rng(4)
    while not state.is_over:
        action = bot.choose(observe(state, state.to_move), rng)
        assert action in state.legal_actions()
        state.apply(action)


def test_greedy_prefers_the_better_move_in_topiary():
    """With one visitor left each and a face-up 5 in reach, greedy takes the line with it."""
    state = games.get("topiary").setup(2, seed=1)
    bot = make_bot("greedy")
    before = state.view(0)["points"][0]
    action = bot.choose(observe(state, 0), Rng(1))
    state.apply(action)
    assert state.view(0)["points"][0]["visitors"] >= before["visitors"]


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("easy", "easy"),  # a level: its bot per game is in tests/bots/test_levels.py
        ("hard", "hard"),
        ("random", "random"),
        ("mcts:10", "mcts:10"),
        ("mcts:0.1s", "mcts:0.1s"),
        ("mcts:50:rollout=4", "mcts:50:rollout=4"),
        ("mcts:0.1s:settle=off", "mcts:0.1s:settle=off"),
        ("mcts:50:settle=off:rollout=4", "mcts:50:rollout=4:settle=off"),
        ("mcts:50:settle=on", "mcts:50"),
    ],
)
def test_bot_specs(spec, name):
    assert make_bot(spec).name == name


def test_mcts_rollout_defaults_to_the_games_depth():
    bot = make_bot("mcts:1s")
    assert isinstance(bot, MctsBot) and bot.rollout is None and bot.seconds == 1.0
    assert make_bot("mcts:1s:rollout=7").rollout == 7  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "chess",
        "mcts:lots",
        "mcts:xs",
        "mcts:0",
        "mcts:-1s",
        "mcts:nans",  # a budget that is no number would search not at all
        "mcts:infs",  # nor one without end
        "mcts:5:rollout=-1",
        "mcts:5:settle=no",
        "mcts:5:settle",
        "mcts:5:depth=3",
    ],
)
def test_unknown_bots_are_refused(spec):
    with pytest.raises(MeadowError):
        make_bot(spec)


def test_tournament_prints_win_rates(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(["tournament", "topiary", "--bots", "greedy,random", "-n", "4", "--seed", "2"])
    out, _ = capsys.readouterr()
    assert exited.value.code in (0, None)
    assert "greedy (#1)" in out and "random (#2)" in out and "95 % interval" in out


def test_tournament_refuses_an_unknown_bot(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["tournament", "topiary", "--bots", "greedy,wizard", "-n", "2"])
    _, err = capsys.readouterr()
    assert exited.value.code == 2 and "no bot 'wizard'" in err
