"""The registry of games: `meadow.games.get("topiary")`, `meadow.games.all()`."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from meadow.core.errors import RecordError, UnknownGame
from meadow.core.game import Game, State

# Game id -> module that defines `GAME`. Imported on first use, so `meadow games` stays quick.
_MODULES = {
    "topiary": "meadow.games.topiary",
    "harmonies": "meadow.games.harmonies",
    "renature": "meadow.games.renature",
    "mystic_vale": "meadow.games.mystic_vale",
}


def ids() -> list[str]:
    return list(_MODULES)


def get(game_id: str) -> Game:
    """The game with this id.

    Raises:
        UnknownGame: naming the ids that exist.
    """
    module = _MODULES.get(game_id.replace("-", "_") if isinstance(game_id, str) else game_id)
    if module is None:
        raise UnknownGame(f"no game {game_id!r}; the games are: {', '.join(_MODULES)}")
    game: Game = importlib.import_module(module).GAME
    return game


def all() -> list[Game]:
    return [get(game_id) for game_id in _MODULES]


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild any game's state from its `to_json()` form."""
    if not isinstance(data, Mapping) or "game" not in data:
        raise RecordError("not a Meadow game state (no 'game' field)")
    return get(data["game"]).state_from_json(data)
