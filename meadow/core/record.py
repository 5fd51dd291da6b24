"""Game records: (game, options, players, seed, actions), replayable to the identical state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meadow.core import registry
from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import MeadowError, RecordError
from meadow.core.game import Game, State
from meadow.core.rng import Rng

FORMAT = "meadow-record/1"


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: move `number` (0: the start), its text, the seat that made it,
    the events it caused and the state after it."""

    number: int
    action: str | None
    seat: int | None
    events: list[Event]
    state: State


@dataclass
class GameRecord:
    """Everything needed to replay a game. It holds the seed, so it is for after the game."""

    game: str
    players: int
    options: dict[str, JSON]
    seed: int
    actions: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls, game: Game, players: int, options: dict[str, Any] | None, seed: int
    ) -> tuple[GameRecord, State]:
        """A new game and its (empty) record; append each applied action with `add`."""
        state = game.setup(players, options, seed)
        record = cls(game.id, players, state.options.model_dump(mode="json"), seed)
        return record, state

    @classmethod
    def random(
        cls, game: Game, players: int, options: dict[str, Any] | None, seed: int
    ) -> tuple[GameRecord, State]:
        """A whole game of random moves (drawn from `seed` too), its record and last state."""
        record, state = cls.start(game, players, options, seed)
        rng = Rng(seed).spawn()
        while not state.is_over:
            actions = state.legal_actions()
            action = actions[rng.below(len(actions))]
            state.apply(action)
            record.add(action)
        return record, state

    def add(self, action: Action) -> None:
        self.actions.append(str(action))

    def steps(self) -> Iterator[tuple[int, Action, list[Event], State]]:
        """Replay move by move: (index, action, events, state after it)."""
        state = self.initial_state()
        for index, text in enumerate(self.actions):
            action, events = _play(state, index, text)
            yield index, action, events, state

    def log(self) -> Iterator[tuple[int, int | None, list[Event]]]:
        """The move log: each move's number (from 1), the seat that made it, its events."""
        state = self.initial_state()
        for index, text in enumerate(self.actions):
            seat = state.to_move
            _, events = _play(state, index, text)
            yield index + 1, seat, events

    def step(self, number: int) -> ReplayStep:
        """The game as it stood after move `number` (0: the start), replayed afresh up to
        there, with that move's events: what a replay shows at one step.

        Raises:
            RecordError: `number` is not a move of the record, or a move does not apply.
        """
        if not 0 <= number <= len(self.actions):
            raise RecordError(f"step {number}: the record has moves 0..{len(self.actions)}")
        state = self.initial_state()
        seat: int | None = None
        events: list[Event] = []
        for index, text in enumerate(self.actions[:number]):
            seat = state.to_move
            _, events = _play(state, index, text)
        return ReplayStep(number, self.actions[number - 1] if number else None, seat, events, state)

    def initial_state(self) -> State:
        try:
            return registry.get(self.game).setup(self.players, self.options, self.seed)
        except MeadowError as exc:
            raise RecordError(f"the record cannot set up its game: {exc}") from None

    def replay(self) -> State:
        """The state after every recorded action.

        Raises:
            RecordError: naming the first action that does not apply.
        """
        state = self.initial_state()
        for *_, state in self.steps():  # noqa: B007
            pass
        return state

    def to_json(self) -> dict[str, JSON]:
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "actions": list(self.actions),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a Meadow game record (expected format {FORMAT!r})")
        try:
            record = cls(
                game=data["game"],
                players=data["players"],
                options=dict(data["options"]),
                seed=data["seed"],
                actions=list(data["actions"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"the record lacks or garbles a field: {exc}") from None
        if not all(isinstance(a, str) for a in record.actions):
            raise RecordError("every recorded action must be a text string")
        return record

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        known = backup_kind(raw)
        if known is not None:
            raise RecordError(f"{path} is {known}, not a game record")
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise RecordError(f"{path} is not a game record (not UTF-8 text)") from None
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not JSON: {exc}") from None
        return cls.from_json(data)


def backup_kind(raw: bytes) -> str | None:
    """What a file is, by its first bytes, when it is a server's database or backup (the
    files a host has beside the records): given to a command that reads something else,
    it is named, with the command that reads it."""
    if raw.startswith(b"SQLite format 3\x00"):
        return "an SQLite database (a server's, or a `meadow backup`; `meadow restore` reads it)"
    if raw.startswith(b"PGDMP"):
        return "a PostgreSQL backup (pg_dump's; `meadow restore` reads it)"
    return None


def _play(state: State, index: int, text: str) -> tuple[Action, list[Event]]:
    """Read and apply the record's action `index`, or name it in a RecordError."""
    try:
        action = state.parse_action(text)
        return action, state.apply(action)
    except MeadowError as exc:
        raise RecordError(f"action {index + 1} of the record ({text!r}): {exc}") from None
