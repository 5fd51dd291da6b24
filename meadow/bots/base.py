"""What a bot may know: its seat's view, its legal actions, and worlds sampled from them.

A bot never receives the `State`: `observe` hands it an `Observation` whose only way to the
game is `world(rng)`, a fresh determinization from `State.sample_hidden` (a world the seat
cannot tell from the real one). The contract suite shows that those worlds depend only on
what the seat knows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from meadow.core.actions import JSON, Action
from meadow.core.game import Game, State
from meadow.core.rng import Rng


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


def margins(values: list[float], seat: int) -> float:
    """A seat's lead over the best other seat (negative when behind)."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others) if others else values[seat]
