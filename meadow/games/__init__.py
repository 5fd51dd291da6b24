"""The registry of games: `meadow.games.get("topiary")`, `meadow.games.all()`.

It lives in `meadow.core.registry` (a record sets up its game by id); this is its name for
the floors above.
"""

from meadow.core.registry import all, get, ids, state_from_json

__all__ = ["all", "get", "ids", "state_from_json"]
