"""Which bots a table may seat on this server, and how long any bot may think.

A seat's bot is chosen by whoever sets up the table, a stranger on a public server: its
budget is the host's to bound, or one table could hold every bot worker for ever.

A level (meadow.bots.levels) is seated by its name; which bot plays it is the game's, and
its think is bounded like any other: by the level's own seconds and by `max_seconds` (the
thinking worker passes the bound on, see meadow.server.thinking)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from meadow.bots import LEVELS
from meadow.bots.levels import check_offered
from meadow.core.errors import MeadowError
from meadow.rl.players import make_player
from meadow.server.errors import ApiError

# "guide" plays a guided first game's written moves (meadow.bots.guide), greedy elsewhere.
PLAIN = frozenset({*LEVELS, "random", "greedy", "guide"})


@dataclass(frozen=True)
class BotRules:
    """The bots a table may seat: the levels, random, greedy, registered policies, and MCTS
    within the budgets the host allows. `max_seconds` also bounds every think, whatever
    the bot (a table stored before a budget was lowered included)."""

    max_iterations: int = 2000
    max_seconds: float = 3.0
    max_rollout: int = 200

    def check(self, spec: str, game_id: str) -> str:
        """The bot `spec` names, as it will be seated at a table of `game_id`.

        Raises:
            ApiError: 400 with the reason, for a bot or budget this server does not allow,
                or a level the game does not offer.
        """
        spec = spec.strip()
        try:
            check_offered(spec, game_id)
        except MeadowError as exc:
            raise ApiError(400, str(exc)) from None
        if spec in PLAIN:
            return spec
        kind, _, rest = spec.partition(":")
        if kind == "mcts":
            self._check_mcts(spec, rest)
        elif kind != "policy":
            raise ApiError(400, f"no bot {spec!r}: {self.allowed()}")
        try:
            make_player(spec)  # policies: only registered names load without trusted imports
        except (MeadowError, ValueError) as exc:
            raise ApiError(400, f"bot {spec!r}: {exc}") from None
        return spec

    def _check_mcts(self, spec: str, rest: str) -> None:
        budget, _, rollout = rest.partition(":rollout=")
        if rollout and not (rollout.isdigit() and int(rollout) <= self.max_rollout):
            raise ApiError(400, f"bot {spec!r}: a rollout is 0-{self.max_rollout} decisions")
        if budget.endswith("s"):
            seconds = _number(budget[:-1])
            if seconds is None or not 0 < seconds <= self.max_seconds:
                raise ApiError(
                    400, f"bot {spec!r}: this server allows 0-{self.max_seconds:g} s of thought"
                )
        elif not (budget.isdigit() and 1 <= int(budget) <= self.max_iterations):
            raise ApiError(
                400, f"bot {spec!r}: this server allows 1-{self.max_iterations} iterations"
            )

    def allowed(self) -> str:
        return (
            f"bots are {', '.join(sorted(PLAIN))}, mcts:<1-{self.max_iterations}> "
            f"or mcts:<up to {self.max_seconds:g}>s, and policy:<name>"
        )


def _number(text: str) -> float | None:
    """A finite decimal number, or None (`inf`, `nan` and `1e9` are numbers to float())."""
    if not text.replace(".", "", 1).isdigit():
        return None
    value = float(text)
    return value if math.isfinite(value) else None
