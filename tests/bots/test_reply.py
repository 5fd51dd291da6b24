"""The reply search (`reply:`): it sees what a move hands the next player, it stays fair,
and its think is bounded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

import pytest

from meadow import games
from meadow.bots import ReplyBot, make_bot, observe
from meadow.bots.levels import Bounded
from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import MeadowError
from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.core.result import Result, rank
from meadow.core.rng import Rng
from tests.bots.test_bots import _midgame
from tests.bots.test_mcts import Word

# A two-player bait. The first player may `grab` 3 points, which opens a prize of 10 to the
# second, or `wait` for 1. The second then `take`s the prize if it is open, or `pass`es.
# One ply on, grab leads by 3 and wait by 1; after the reply, grab trails by 7.
GRAB, WAIT, TAKE, PASS = "grab", "wait", "take", "pass"


class Bait(Game):
    id = "bait"
    title = "Bait"
    min_players = 2
    max_players = 2
    Options = GameOptions

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        return BaitState(self)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return str(view)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, BaitState)
        return [float(points) for points in state.points]


class BaitState(State):
    def __init__(self, game: Bait) -> None:
        self.game_ = game
        self.players = 2
        self.options = GameOptions()
        self.rng = Rng(0)
        self.ply = 0
        self.seat: int | None = 0
        self.points = [0, 0]
        self.open = False
        self._legal: list[Action] | None = None

    @property
    def game(self) -> Game:  # type: ignore[override]
        return self.game_

    def view(self, seat: int | None) -> dict[str, JSON]:
        return {"points": list(self.points), "open": self.open, "seat": self.seat}

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        return self.clone()  # nothing is hidden

    def clone(self) -> Self:
        copy = type(self)(self.game_)
        copy.ply, copy.seat, copy.points, copy.open = self.ply, self.seat, [*self.points], self.open
        return copy

    def to_json(self) -> dict[str, JSON]:
        return self.view(None)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> State:
        raise NotImplementedError

    @staticmethod
    def _parse(text: str) -> Action:
        return Word(text)

    def _generate_legal(self) -> list[Action]:
        if self.seat == 0:
            return [Word(GRAB), Word(WAIT)]
        return [Word(TAKE), Word(PASS)] if self.open else [Word(PASS)]

    def _apply(self, action: Action) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == GRAB:
            self.points[0] += 3
            self.open = True
        elif action.word == WAIT:
            self.points[0] += 1
        elif action.word == TAKE:
            self.points[1] += 10
        self.seat = 1 if self.seat == 0 else None
        return []

    def _why_illegal(self, action: Action) -> str:
        return "not now"

    def _result(self) -> Result:
        scores = tuple(self.points)
        return Result(scores, tuple({"points": p} for p in scores), rank([[p] for p in scores]))


def test_one_ply_takes_the_bait_and_the_reply_search_does_not():
    state = Bait().setup(2, seed=1)
    observation = observe(state, 0)
    assert make_bot("greedy").choose(observation, Rng(1)) == Word(GRAB)
    assert ReplyBot(width=2, seconds=0, worlds=1).choose(observation, Rng(1)) == Word(WAIT)


def test_a_width_of_one_is_the_one_ply_look():
    """With one candidate there is nothing to weigh again: the best by one ply is played."""
    observation = observe(Bait().setup(2, seed=1), 0)
    assert ReplyBot(width=1, seconds=0, worlds=4).choose(observation, Rng(1)) == Word(GRAB)


@pytest.mark.parametrize("game_id", [g.id for g in games.all()])
def test_hidden_information_never_changes_a_decision(game_id):
    state = _midgame(game_id)
    seat = state.to_move
    other = state.sample_hidden(seat, Rng(77))  # differs only in what `seat` cannot know
    assert other.view(seat) == state.view(seat)
    # a budget in worlds, not seconds: the clock cuts no search short
    first = ReplyBot(width=3, seconds=0, worlds=2).choose(observe(state, seat), Rng(5))
    second = ReplyBot(width=3, seconds=0, worlds=2).choose(observe(other, seat), Rng(5))
    assert first == second
    assert first in state.legal_actions()


def test_the_think_is_bounded_by_its_time_limit():
    state = _midgame("renature")
    observation = observe(state, state.to_move)
    cut = ReplyBot(width=8, seconds=0, worlds=1000)
    assert isinstance(cut, Bounded)
    cut.time_limit = 0.0
    assert cut.choose(observation, Rng(1)) == observation.legal[0]  # nothing tried: the first
    free = ReplyBot(width=8, seconds=0, worlds=2).choose(observation, Rng(1))
    assert free != observation.legal[0]  # with time, another action was better


@pytest.mark.parametrize(
    ("spec", "name"),
    [("reply", "reply:8:1s"), ("reply:4", "reply:4:1s"), ("reply:4:0.5s", "reply:4:0.5s")],
)
def test_reply_specs(spec, name):
    assert make_bot(spec).name == name
    assert make_bot("reply:6:20").worlds == 20  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "reply:0",
        "reply:x",
        "reply:8:0",
        "reply:8:0s",
        "reply:8:-1s",
        "reply:8:1s:x",
        "reply:8:nans",
        "reply:8:infs",
    ],
)
def test_bad_reply_specs_are_refused(spec):
    with pytest.raises(MeadowError, match="reply search"):
        make_bot(spec)
