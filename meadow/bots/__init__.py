"""Computer opponents that never peek: they see a seat's observation, never the state."""

from __future__ import annotations

from meadow.bots.base import Bot, Observation, observe
from meadow.bots.mcts import MctsBot
from meadow.bots.simple import GreedyBot, RandomBot
from meadow.core.errors import MeadowError

LEVELS = {"easy": "greedy", "medium": "mcts:200", "hard": "mcts:1s"}


def make_bot(spec: str) -> Bot:
    """A bot from its name: random, greedy, mcts:<iterations>, mcts:<seconds>s, either
    optionally followed by :rollout=<decisions>, or a level (easy, medium, hard).

    Raises:
        MeadowError: an unknown bot or budget.
    """
    spec = LEVELS.get(spec.strip(), spec.strip())
    if spec == "random":
        return RandomBot()
    if spec == "greedy":
        return GreedyBot()
    kind, _, rest = spec.partition(":")
    if kind == "mcts":
        budget, _, rollout = rest.partition(":rollout=")
        try:
            depth = int(rollout) if rollout else None
            if depth is not None and depth < 0:
                raise ValueError
            if budget.endswith("s"):
                return MctsBot(seconds=float(budget[:-1]), rollout=depth)
            return MctsBot(iterations=int(budget or "200"), rollout=depth)
        except ValueError:
            raise MeadowError(
                f"bot {spec!r}: the budget is iterations (mcts:500) or seconds (mcts:1s), "
                "optionally with a rollout length (mcts:1s:rollout=10)"
            ) from None
    raise MeadowError(
        f"no bot {spec!r}; bots are random, greedy, mcts:<n>, mcts:<s>s, easy, medium, hard"
    )


__all__ = ["Bot", "GreedyBot", "MctsBot", "Observation", "RandomBot", "make_bot", "observe"]
