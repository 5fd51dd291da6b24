"""The games Meadow knows, by id: `registry.get("topiary")`, `registry.all()`.

The registry belongs to the ground floor because a record (`meadow.core.record`) names its
game by id and must set it up. It holds each game's module by name and imports it on first
use, as a plug-in: `core` never imports a game's code at import time, the game packages
stand on `core` alone, and `meadow games` stays quick. `meadow.games` offers the same
functions to the floors above.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from meadow.core.errors import RecordError, UnknownGame
from meadow.core.game import Game, State

# Game id -> module that defines `GAME`.
MODULES = {
    "topiary": "meadow.games.topiary",
    "harmonies": "meadow.games.harmonies",
    "renature": "meadow.games.renature",
    "mystic_vale": "meadow.games.mystic_vale",
}


def ids() -> list[str]:
    return list(MODULES)


def get(game_id: str) -> Game:
    """The game with this id.

    Raises:
        UnknownGame: naming the ids that exist.
    """
    module = MODULES.get(game_id.replace("-", "_") if isinstance(game_id, str) else game_id)
    if module is None:
        raise UnknownGame(f"no game {game_id!r}; the games are: {', '.join(MODULES)}")
    game: Game = importlib.import_module(module).GAME
    return game


def all() -> list[Game]:
    return [get(game_id) for game_id in MODULES]


def state_from_json(data: Mapping[str, Any]) -> State:
    """Rebuild any game's state from its `to_json()` form."""
    if not isinstance(data, Mapping) or "game" not in data:
        raise RecordError("not a Meadow game state (no 'game' field)")
    return get(data["game"]).state_from_json(data)
