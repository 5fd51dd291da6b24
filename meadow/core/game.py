"""The contract every game meets: `Game` describes and sets up, `State` is the whole truth.

A game writes hooks (`_generate_legal`, `_apply`, `_why_illegal`, ...) for the in-progress case;
this base class owns the checks every game needs the same way: game over, legality, and leaving
the state untouched when an action is refused.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Self

from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import (
    GameNotOver,
    IllegalAction,
    MeadowError,
    NotationError,
    RecordError,
    SetupError,
)
from meadow.core.options import GameOptions, describe_options, parse_options
from meadow.core.result import Result
from meadow.core.rng import MAX_SEED, Rng, new_seed


class Game(ABC):
    """A game as a whole: what it is called, who can play, which options it has."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]
    state_class: ClassVar[type[State]]
    # Random decisions a search plays past a new node before trusting `evaluate`: 0 where the
    # evaluation already sees what matters, more where it misses plans in progress.
    rollout_depth: ClassVar[int] = 30
    # Whether a search rewards the change of a seat's lead from the position it searches
    # from rather than the lead itself: for evaluations that put seats far apart long before
    # the end (Mystic Vale's counts the turns to come), where a reward of the lead would
    # flatten every move alike.
    lead_from_root: ClassVar[bool] = False
    # Whether a host's file in $MEADOW_GAME_DATA replaces the packaged one (meadow.core.data).
    drop_in_data: ClassVar[bool] = True

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def options(
        self, players: int, raw: Mapping[str, Any] | GameOptions | None = None
    ) -> GameOptions:
        """Validated options with defaults filled in.

        Raises:
            OptionError: an unknown option, a bad value, or one that does not fit `players`.
        """
        options = parse_options(self.Options, self.id, raw)
        self._check_options(players, options)
        return options

    def setup(
        self,
        players: int,
        options: Mapping[str, Any] | GameOptions | None = None,
        seed: int | None = None,
    ) -> State:
        """A new game for `players` seats; seat 0 moves first.

        Raises:
            SetupError: an unsupported player count or seed.
            OptionError: see `options`.
        """
        if not isinstance(players, int) or players not in self.player_counts:
            raise SetupError(
                f"{self.title} is for {self.min_players}-{self.max_players} players, "
                f"not {players!r}"
            )
        if seed is None:
            seed = new_seed()
        if not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise SetupError(f"seed {seed!r} must be an integer in 0..{MAX_SEED}")
        return self._setup(players, self.options(players, options), seed)

    def describe(self) -> dict[str, JSON]:
        """What a lobby or `meadow games` shows about this game."""
        return {
            "id": self.id,
            "title": self.title,
            "players": list(self.player_counts),
            "options": describe_options(self.Options),
        }

    def event_text(self, event: Mapping[str, Any]) -> str:
        """One log line for an event as a seat sees it (`Event.for_seat`)."""
        details = ", ".join(
            f"{k}={v}" for k, v in event.items() if k not in ("kind", "seat", "reveals")
        )
        who = "" if event.get("seat") is None else f"seat {event['seat']} "
        return f"{who}{event['kind']}" + (f": {details}" if details else "")

    def evaluate(self, state: State) -> list[float]:
        """Each seat's expected final score if the game ended now, for search bots; the
        final scores once it is over. Games override it with their own estimate."""
        if state.is_over:
            return [float(x) for x in state.result().scores]
        raise NotImplementedError(f"{self.title} has no evaluation for unfinished games")

    def evaluate_seat(self, state: State, seat: int) -> float:
        """One seat's part of `evaluate`, for searches that weigh only their own plans;
        games override it where one seat costs less than all."""
        return self.evaluate(state)[seat]

    def points_now(self, state: State, seat: int) -> dict[str, int]:
        """The seat's points by scoring category as they stand now (its result's categories):
        how the coach says which categories a better move gains. Empty where a game does not
        say."""
        return {}

    def position_key(self, state: State) -> Hashable | None:
        """What tells positions apart for a search that folds equal ones together (two
        orders of the same decisions); None where a game gives no such key."""
        return None

    def settled_choice(self, state: State) -> Action | None:
        """The action a search plays for the pending decision, below its root, instead of
        branching on it; None to branch. For a choice the evaluation judges well that would
        widen the tree under every choice before it: Topiary's tile into the gap after a
        take, where every world's drawn tile and hand make children of their own; Renature's
        plant after each domino placement. Branched, a second's search fills too few of them
        to reach the next turn. A game settles it as `best_by_evaluation` does, or works the
        same choice out from what each action changes, without playing it. Default: never."""
        return None

    def revealed(self, state: State, events: list[Event], seat: int) -> Hashable | None:
        """What `seat` learned by chance in these events (the step that caused them is done
        and `state` is after it): a key that tells two outcomes apart, or None when nothing
        hidden came out. A search branches on it, so that decisions taken after a card is
        turned up are planned per card. Default: None, chance is left to the sampled worlds."""
        return None

    def score_board(self, data: Any) -> dict[str, int]:
        """Score one board of a cardboard game (a score calculator), if the game has one.

        Raises:
            MeadowError: this game has no calculator, or the board is not valid.
        """
        raise MeadowError(f"{self.title} has no score calculator")

    @abstractmethod
    def _setup(self, players: int, options: GameOptions, seed: int) -> State: ...

    def _check_options(self, players: int, options: GameOptions) -> None:  # noqa: B027
        """Refuse options that do not fit the player count (default: all fit)."""

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from `State.to_json()`.

        Raises:
            RecordError: the data is not a state of this game.
        """
        try:
            return self.state_class.from_data(data)
        except (KeyError, TypeError, ValueError, AssertionError, IndexError) as exc:
            raise RecordError(f"not a valid {self.title} state: {exc!r}") from None

    @abstractmethod
    def render_text(self, view: Mapping[str, Any]) -> str:
        """The seat's view drawn as plain text for the terminal (never the state itself)."""


class State(ABC):
    """One game in progress, as plain data. Subclasses hold the fields; see DESIGN.md."""

    game: ClassVar[Game]
    players: int
    options: GameOptions
    rng: Rng
    ply: int
    seat: int | None  # whose decision is pending
    _legal: list[Action] | None  # the legal list, computed once per decision

    # -- the contract -------------------------------------------------------------------

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is pending; `None` once the game is over."""
        return self.seat

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def legal_actions(self) -> list[Action]:
        """Every legal decision for `to_move`, in a stable order (empty when over)."""
        if self.is_over:
            return []
        return list(self._cached_legal())

    def _cached_legal(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._generate_legal()
        return self._legal

    def apply(self, action: Action) -> list[Event]:
        """Perform `action` for `to_move` and return the events it caused.

        Raises:
            IllegalAction: with the reason in game words; the state is unchanged.
        """
        if self.is_over:
            raise IllegalAction(str(action), "the game is over")
        if not _listed(action, self._cached_legal()):
            raise IllegalAction(str(action), self._why_illegal(action))
        self._legal = None
        events = self._apply(action)
        self._legal = None
        self.ply += 1
        return events

    def result(self) -> Result:
        """Final scores, breakdown and ranking.

        Raises:
            GameNotOver: the game is still running.
        """
        if not self.is_over:
            raise GameNotOver(f"{self.game.title} is not over yet (ply {self.ply})")
        return self._result()

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, JSON]:
        """What `seat` may know, JSON-safe; `None` is a spectator."""

    @abstractmethod
    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        """A state that `seat` cannot tell apart from this one, with the hidden parts redrawn."""

    @abstractmethod
    def clone(self) -> Self: ...

    @abstractmethod
    def to_json(self) -> dict[str, JSON]: ...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> State:
        return cls.game.state_from_json(data)

    @classmethod
    @abstractmethod
    def from_data(cls, data: Mapping[str, Any]) -> State:
        """Build a state from `to_json()`'s form (errors are wrapped by `Game`)."""

    def parse_action(self, text: str) -> Action:
        """Read an action in its text form.

        Raises:
            NotationError: the text is not an action of this game.
        """
        if not isinstance(text, str):
            raise NotationError(repr(text), "an action must be given as text")
        return self._parse(text)

    @staticmethod
    @abstractmethod
    def _parse(text: str) -> Action:
        """The game's notation parser."""

    # -- hooks for the game -------------------------------------------------------------

    @abstractmethod
    def _generate_legal(self) -> list[Action]:
        """Every legal decision now, in a stable order (the game is not over)."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Apply an action already known to be legal."""

    @abstractmethod
    def _why_illegal(self, action: Action) -> str:
        """A reason, in game words, why `action` is not legal now (never a hidden fact)."""

    @abstractmethod
    def _result(self) -> Result: ...

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_json() == self.to_json()

    __hash__ = None  # type: ignore[assignment]


def _listed(action: Action, legal: list[Action]) -> bool:
    """Whether `action` is in `legal`. An action taken from the list is that very object,
    so identity is tried first, in C; comparing by value calls each dataclass's `__eq__`."""
    return any(map(is_, legal, repeat(action))) or action in legal


def margins(values: list[float], seat: int) -> float:
    """A seat's lead over the best other seat (negative when behind)."""
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others) if others else values[seat]


def best_by_evaluation(game: Game, state: State) -> Action:
    """The legal action after which the mover's lead by the evaluation is largest (the first
    of equals), each one played on a clone: how a search settles a decision by default."""
    mover = state.to_move
    assert mover is not None
    best, best_lead = None, -math.inf
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        lead = margins(game.evaluate(after), mover)
        if lead > best_lead:
            best, best_lead = action, lead
    assert best is not None
    return best
