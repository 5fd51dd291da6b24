"""Game records: (game, options, players, seed, actions), replayable to the identical state."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import MeadowError, RecordError
from meadow.core.game import Game, State

FORMAT = "meadow-record/1"


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

    def add(self, action: Action) -> None:
        self.actions.append(str(action))

    def steps(self) -> Iterator[tuple[int, Action, list[Event], State]]:
        """Replay move by move: (index, action, events, state after it)."""
        state = self.initial_state()
        for index, text in enumerate(self.actions):
            try:
                action = state.parse_action(text)
                events = state.apply(action)
            except MeadowError as exc:
                raise RecordError(f"action {index + 1} of the record ({text!r}): {exc}") from None
            yield index, action, events, state

    def initial_state(self) -> State:
        from meadow import games  # the registry imports games; core must not at import time

        try:
            return games.get(self.game).setup(self.players, self.options, self.seed)
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
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not JSON: {exc}") from None
        return cls.from_json(data)
