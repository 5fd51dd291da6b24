"""What a bot may know: its seat's view, its legal actions, and worlds sampled from them.

A bot never receives the `State`: `observe` hands it an `Observation` whose only way to the
game is `world(rng)`, a fresh determinization from `State.sample_hidden` (a world the seat
cannot tell from the real one). The contract suite shows that those worlds depend only on
what the seat knows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import orjson

from meadow.core.actions import JSON, Action
from meadow.core.game import Game, State
from meadow.core.rng import Rng

if TYPE_CHECKING:
    from meadow.bots.learned import Evaluation


@dataclass(frozen=True)
class Observation:
    game: Game
    seat: int
    view: dict[str, JSON]
    legal: tuple[Action, ...]
    _sample: Callable[[Rng], State]

    def world(self, rng: Rng) -> State:
        """A world consistent with everything this seat knows; a new one on every call."""
        return self._sample(rng)


def observe(state: State, seat: int) -> Observation:
    """The seat's side of the table, and nothing more."""
    private = state.clone()
    return Observation(
        game=state.game,
        seat=seat,
        view=state.view(seat),
        legal=tuple(state.legal_actions()) if state.to_move == seat else (),
        _sample=lambda rng: private.sample_hidden(seat, rng),
    )


class Bot(ABC):
    """A computer opponent; `choose` is given an observation and a generator of its own."""

    name: str

    @abstractmethod
    def choose(self, observation: Observation, rng: Rng) -> Action: ...


class Repeats:
    """The actions a bot chose in each position it decided in, to choose otherwise when the
    same position comes round again.

    Some turns can go round in a circle: in Mystic Vale, two cards that discard a card from
    the field feed each other through an empty deck for ever (push, discard the other,
    reveal it, push it, ...). Nothing is gained by going round, and nothing in the rules
    stops it; a search that sees no harm in it may go round for ever, and the table waits.
    A position is the seat's view with the move count left out, so it is what the seat
    knows and no more; coming back to it means the choice made there changed nothing that
    lasts, so that choice is not made there again while another is left. The memory is
    bounded: it starts afresh past `MOST` positions (a game's worth).
    """

    MOST = 1024

    def __init__(self) -> None:
        self._chosen: dict[int, set[Action]] = {}

    def narrowed(self, observation: Observation) -> Observation:
        """The observation with the actions already chosen in this position taken out of
        its legal list, unless that would leave none."""
        done = self._chosen.get(_position(observation.view))
        if not done:
            return observation
        left = tuple(action for action in observation.legal if action not in done)
        return replace(observation, legal=left) if left else observation

    def chose(self, observation: Observation, action: Action) -> None:
        if len(self._chosen) >= self.MOST:
            self._chosen.clear()
        self._chosen.setdefault(_position(observation.view), set()).add(action)


class Evaluating:
    """A bot that judges positions by an evaluation: its game's hand-written one
    (`Game.evaluate`), or with `learned` set the one its game's model learned by self-play
    (`meadow.bots.learned`), where a model for that game, player count and options is
    shipped and learned the data in use; elsewhere the hand-written one all the same."""

    learned: bool = False

    def use_learned(self) -> None:
        self.learned = True
        self.name += ":eval=learned"  # type: ignore[attr-defined]

    def evaluation(self, observation: Observation) -> Evaluation:
        if not self.learned:
            return observation.game
        from meadow.bots.learned import evaluation_of  # numpy: only for a learned bot

        view = observation.view
        return evaluation_of(observation.game, view["players"], view["options"])  # type: ignore[arg-type]


class CircleFreeBot(Evaluating, Bot):
    """A bot that weighs its actions afresh at every decision, and so could go round a
    circle of positions for ever: it never makes the same choice again in a position that
    came round (`Repeats`). Subclasses decide in `decide`."""

    def __init__(self) -> None:
        self.repeats = Repeats()

    def choose(self, observation: Observation, rng: Rng) -> Action:
        observation = self.repeats.narrowed(observation)
        action = self.decide(observation, rng)
        self.repeats.chose(observation, action)
        return action

    @abstractmethod
    def decide(self, observation: Observation, rng: Rng) -> Action:
        """The action to play, from the observation's legal actions."""


def _position(view: dict[str, JSON]) -> int:
    known = {key: value for key, value in view.items() if key != "ply"}
    return hash(orjson.dumps(known, option=orjson.OPT_SORT_KEYS))
