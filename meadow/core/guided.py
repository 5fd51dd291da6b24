"""A guided first game: a fixed deal, every move of it written down, and notes on the moves
where a newcomer learns something (a kind of decision met for the first time, a scoring
category scoring for the first time, the end).

Each game keeps its guided game as data, `guided.json` in its package (made by
`scripts/make_guided.py`, which plays it and finds where each note belongs). The learner
sits at seat 0 and is shown the written move at each decision; the other seat is played by
the guide bot (`meadow.bots.guide`), which plays the written moves. The notes are keys; their
words are the page's (`meadow/web/i18n/<language>/<game>.json`, under `learn.`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import orjson

from meadow.core import registry
from meadow.core.game import State
from meadow.core.record import GameRecord

LEARNER = 0  # the seat a guided game is played from


@dataclass(frozen=True)
class GuidedGame:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    moves: tuple[str, ...]
    notes: dict[int, tuple[str, ...]]  # move number (from 1) -> note keys, shown before it

    def record(self) -> GameRecord:
        return GameRecord(self.game, self.players, self.options, self.seed, list(self.moves))

    def states(self) -> list[State]:
        """The position before each move, and the final one after them all."""
        state = self.record().initial_state()
        found = [state.clone()]
        for text in self.moves:
            state.apply(state.parse_action(text))
            found.append(state.clone())
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": str(self.seed),
            "moves": list(self.moves),
            "notes": {str(number): list(keys) for number, keys in sorted(self.notes.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GuidedGame:
        return cls(
            game=data["game"],
            players=data["players"],
            options=dict(data["options"]),
            seed=int(data["seed"]),
            moves=tuple(data["moves"]),
            notes={int(n): tuple(keys) for n, keys in data["notes"].items()},
        )


@cache
def guided(game_id: str) -> GuidedGame:
    """The game's guided first game.

    Raises:
        UnknownGame: no such game. FileNotFoundError: the game has none.
    """
    registry.get(game_id)  # names the games there are, for an unknown id
    package = registry.MODULES[game_id.replace("-", "_")]
    text = resources.files(package).joinpath("guided.json").read_bytes()
    return GuidedGame.from_json(orjson.loads(text))
