"""The whole-turn planner (`turn:`): fair, bounded, and it keeps to its plan."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.bots import TurnBot, make_bot, observe, turns
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.rng import Rng
from meadow.games.harmonies.actions import EndTurn

GAMES = [g.id for g in games.all()]


def _midgame(game_id: str, plies: int = 12, seed: int = 3) -> State:
    state = games.get(game_id).setup(2, seed=seed)
    rng = Rng(seed)
    for _ in range(plies):
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_information_never_changes_a_decision(game_id):
    state = _midgame(game_id)
    seat = state.to_move
    other = state.sample_hidden(seat, Rng(77))  # differs only in what `seat` cannot know
    assert other.view(seat) == state.view(seat)
    # a width that finishes at once, so no beam is cut short by the clock
    first = TurnBot(width=2, seconds=0.001).choose(observe(state, seat), Rng(5))
    second = TurnBot(width=2, seconds=0.001).choose(observe(other, seat), Rng(5))
    assert first == second
    assert first in state.legal_actions()


def test_a_harmonies_turn_is_planned_once_and_played_as_planned():
    state = games.get("harmonies").setup(2, {"spirits": False}, 9)
    seat = state.to_move
    bot = TurnBot(width=4, seconds=0.001)
    first = bot.choose(observe(state, seat), Rng(1))
    assert bot._plan is not None
    planned = [action for _key, action in bot._plan.steps]
    assert planned[0] == first
    played = [first]
    state.apply(first)
    while state.to_move == seat:
        action = bot.choose(observe(state, seat), Rng(len(played)))
        played.append(action)
        state.apply(action)
    assert isinstance(played[-1], EndTurn)
    assert played[:-1] == planned[: len(played) - 1]


def test_a_stranger_position_is_planned_afresh():
    """A plan made for one position is never played in another (here: another deal)."""
    bot = TurnBot(width=2, seconds=0.001)
    one = games.get("harmonies").setup(2, {"spirits": False}, 1)
    bot.choose(observe(one, 0), Rng(1))
    other = games.get("harmonies").setup(2, {"spirits": False}, 2)
    assert bot.choose(observe(other, 0), Rng(1)) in other.legal_actions()


def test_a_server_bound_cuts_the_think_short_with_a_legal_choice():
    state = _midgame("harmonies", plies=3)
    bot = TurnBot(width=64, seconds=30)
    bot.time_limit = 0.0
    assert bot.choose(observe(state, state.to_move), Rng(1)) in state.legal_actions()


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("turn", "turn:4:1s"),
        ("turn:8:0.5s", "turn:8:0.5s"),
        ("turn:4:3s:ahead=8", "turn:4:3s:ahead=8"),
    ],
)
def test_turn_specs(spec, name):
    assert make_bot(spec).name == name


@pytest.mark.parametrize(
    "spec",
    [
        "turn:0",
        "turn:x",
        "turn:8:0s",
        "turn:8:-1s",
        "turn:8:1s:ahead=-1",
        "turn::ahead=x",
        "turn:8:nans",
        "turn:8:infs",
    ],
)
def test_bad_turn_specs_are_refused(spec):
    with pytest.raises(MeadowError, match="turn planner"):
        make_bot(spec)


def test_a_look_ahead_weighs_the_best_turns_again_and_stays_fair(monkeypatch):
    """With `ahead`, the best whole turns are played on in sampled worlds: the choice is
    still one of the seat's legal actions and never depends on hidden information."""
    monkeypatch.setattr(turns, "MAX_WIDTH", 2)  # with the clock stopped: beams of width 2
    monkeypatch.setattr(turns.time, "perf_counter", lambda: 0.0)
    state = _midgame("harmonies", plies=2, seed=8)
    seat = state.to_move
    other = state.sample_hidden(seat, Rng(99))
    first = TurnBot(width=2, seconds=1, ahead=3).choose(observe(state, seat), Rng(4))
    second = TurnBot(width=2, seconds=1, ahead=3).choose(observe(other, seat), Rng(4))
    assert first == second and first in state.legal_actions()


def test_the_look_ahead_weighs_every_turn_on_the_same_worlds_until_its_time(monkeypatch):
    """World after world, each for every candidate turn, until the deadline; a world the
    deadline cut short is left out, and with time to spare the worlds stop at the bound."""
    state = _midgame("harmonies", plies=0)
    legal = state.legal_actions()
    finished = [turns.Line(state, (legal[i],), worth=3.0 - i) for i in range(3)]
    clock = [0.0]
    monkeypatch.setattr(turns.time, "perf_counter", lambda: clock[0])
    leads: list[float] = []

    def play_on(self, world, seat, game):
        clock[0] += step
        # the second turn leads in every world all three reach; the first would lead by far
        # in the third world, which the deadline cuts short before the last turn
        lead = 1000.0 if len(leads) == 6 else float(len(leads) % 3 == 1)
        leads.append(lead)
        return lead

    monkeypatch.setattr(turns.TurnBot, "_play_on", play_on)
    bot = TurnBot(width=2, seconds=1, ahead=3)
    step = 0.125  # eight play-ons fill the second
    chosen = bot._look_ahead(observe(state, state.to_move), finished, Rng(1), deadline=1.0)
    assert len(leads) == 8  # two whole worlds, and two turns of a third
    assert chosen.actions == (legal[1],) and chosen.worth == 1.0

    leads.clear()
    clock[0], step = 0.0, 0.0  # the clock stopped: the bound ends the look
    bot._look_ahead(observe(state, state.to_move), finished, Rng(1), deadline=1.0)
    assert len(leads) == turns.MAX_LOOK_AHEAD_WORLDS * 3
