"""Levels of play: a name a person chooses (easy, hard, ...) and, per game, the bot behind it.

A level is what a player is offered; the bot behind it may differ from game to game (a
game with a planner of its own puts its spec in `LADDER`). `LevelBot` (`meadow.bots.names`)
picks the bot by the game of the observation it is shown, so a level is a bot spec like
any other for `make_bot`, the server, `meadow tournament` and `meadow play`.

How strong each level is, measured by `bench/ladder.py`, is in `ladder.json` next to this
file; `ratings(game_id)` reads it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from meadow.core.errors import MeadowError

# Weakest first: the order the lobby offers them in.
LEVELS: tuple[str, ...] = ("beginner", "easy", "medium", "hard", "expert")

# The bot behind each level, per game id; "default" for every game not named. A game's
# entry may name only some levels: the others come from "default". None: the game does not
# offer that level, as it would be no stronger than the one below. Edit freely: specs are
# anything `make_bot` accepts except a level.
LADDER: dict[str, dict[str, str | None]] = {
    "default": {
        "beginner": "random",
        "easy": "greedy",
        "medium": "mcts:200",
        "hard": "mcts:1s",
        "expert": "mcts:3s",
    },
    # A Harmonies turn is several decisions worth only together: planned whole (docs/ai.md).
    # Its medium searches 500 iterations: without rollouts, about the time 200 took with.
    "harmonies": {"medium": "mcts:500", "hard": "turn:4:1s", "expert": "turn:4:3s:ahead=8"},
    # Topiary's search with its placements settled is strong from a tenth of a second on
    # (mcts:0.1s came within 46 Elo of hard): greedy sits between it and a careless greedy.
    # Its evaluation, not its time, bounds it: 3 s played no better than 1 s (expert against
    # hard, 60 games: -12 Elo), so it offers no expert.
    "topiary": {"easy": "greedy:0.3", "medium": "greedy", "expert": None},
    # Greedy and a second of search are some 200 Elo apart in Renature and 300 in Mystic
    # Vale, and 200 iterations sat in between, less than 150 from either: greedy is the
    # medium, and the easy level a careless greedy. Mystic Vale offers no expert: against
    # its hard, a tree search of 3 s won 14 of 30 games and the reply search 10 of 20 at
    # 1 s and 4 of 8 at 3 s, where a step of 150 needs 70 %.
    # Renature's hard weighs its best moves after the others' replies and its own next turn:
    # its tree search, too wide to reach the replies, was worth 144 Elo over greedy. It
    # offers no expert: 3 s of that search won 12 of 20 against 1 s, 3 s of the tree search
    # 12.5 of 30.
    "renature": {"easy": "greedy:0.3", "medium": "greedy", "hard": "reply:8:1s", "expert": None},
    "mystic_vale": {"easy": "greedy:0.3", "medium": "greedy", "expert": None},
}

# The most any one decision of a level may take, in seconds, whatever its bot's budget
# (an iteration budget in a slow game included). A server's own bound lowers it further.
SECONDS: dict[str, float] = {
    "beginner": 1.0,
    "easy": 1.0,
    "medium": 1.0,
    "hard": 1.0,
    "expert": 3.0,
}

LADDER_FILE = Path(__file__).with_name("ladder.json")


@runtime_checkable
class Bounded(Protocol):
    """A bot whose any one think can be cut short after `time_limit` seconds."""

    time_limit: float | None


def _listed(level: str, game_id: str) -> str | None:
    if level not in LEVELS:
        raise KeyError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
    return LADDER.get(game_id, {}).get(level, LADDER["default"][level])


def offered(game_id: str) -> tuple[str, ...]:
    """The levels a person may choose in `game_id`, weakest first."""
    return tuple(level for level in LEVELS if _listed(level, game_id) is not None)


def spec_for(level: str, game_id: str) -> str:
    """The bot spec behind `level` in the game `game_id`. A level the game does not offer
    plays as the strongest level below it that it does: a table seated before the game
    stopped offering it plays on.

    >>> spec_for("beginner", "renature")
    'random'
    """
    spec = _listed(level, game_id)
    if spec is not None:
        return spec
    below = [other for other in offered(game_id) if LEVELS.index(other) < LEVELS.index(level)]
    return spec_for(below[-1], game_id)


def check_offered(spec: str, game_id: str) -> None:
    """Refuse a level that `game_id` does not offer; any other bot spec passes.

    Raises:
        MeadowError: naming the levels the game offers.
    """
    if spec in LEVELS and spec not in offered(game_id):
        raise MeadowError(
            f"{game_id} has no {spec} level (it would play no better than the level below); "
            f"its levels are {', '.join(offered(game_id))}"
        )


def seconds(level: str, most: float | None = None) -> float:
    """A level's longest think per decision, under a server's bound `most` if given."""
    return SECONDS[level] if most is None else min(SECONDS[level], most)


@cache
def _measured() -> dict[str, Any]:
    if not LADDER_FILE.exists():
        return {}
    data: dict[str, Any] = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    return data


def ratings(game_id: str) -> dict[str, dict[str, Any]]:
    """What `bench/ladder.py` measured of each level in `game_id`: elo, low, high, games,
    spec, seconds_per_decision, measured (False for figures from a stand-in bot), command,
    date. Levels never measured are missing."""
    return dict(_measured().get("games", {}).get(game_id, {}).get("levels", {}))


def describe(game_id: str, most_seconds: float | None = None) -> list[dict[str, Any]]:
    """The levels `game_id` offers as the lobby shows them, weakest first: name, seconds per
    decision at most, and the measured rating if there is one (`measured` says so)."""
    measured = ratings(game_id)
    anchor = _measured().get("games", {}).get(game_id, {}).get("anchor")
    out: list[dict[str, Any]] = []
    for level in offered(game_id):
        entry: dict[str, Any] = {"level": level, "seconds": seconds(level, most_seconds)}
        if "eval=learned" in spec_for(level, game_id).split(":"):
            from meadow.bots.learned import status  # numpy: only where a level learned

            # "in use", or "stale" (the host's game data is not what it learned) or "none":
            # then the level plays by the hand-written evaluation, and the lobby says so
            entry["evaluation"] = status(game_id)["learned"]
        figures = measured.get(level)
        # Figures count only for the bot that plays the level now, at its own budget.
        if figures and figures.get("measured") and figures.get("spec") == spec_for(level, game_id):
            entry |= {
                "measured": True,
                "elo": figures["elo"],
                "low": figures["low"],
                "high": figures["high"],
                "games": figures["games"],
                "anchor": anchor,
            }
        else:
            entry["measured"] = False
        out.append(entry)
    return out
