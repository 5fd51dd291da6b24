"""Computer opponents that never peek: they see a seat's observation, never the state."""

from __future__ import annotations

from meadow.bots.base import Bot, Observation, observe
from meadow.bots.levels import LEVELS, LevelBot
from meadow.bots.mcts import MctsBot
from meadow.bots.reply import ReplyBot
from meadow.bots.simple import GreedyBot, RandomBot
from meadow.bots.turns import TurnBot
from meadow.core.errors import MeadowError


def make_bot(spec: str, trust_imports: bool = False) -> Bot:
    """A bot from its name: random, greedy, mcts:<iterations>, mcts:<seconds>s, either
    optionally followed by :rollout=<decisions> and :settle=off, turn:<width>:<seconds>s,
    reply:<width>:<seconds>s, a level (beginner, easy, medium, hard, expert; see
    meadow.bots.levels), or a trained policy: policy:<name>, or with `trust_imports`
    policy:<module>:<attribute> and policy:<file.py>:<attribute> (see meadow.rl.policy_bot;
    importing runs the module's code, so only callers whose input is the host's own trust
    it).

    Raises:
        MeadowError: an unknown bot or budget, or a policy that cannot be loaded.
    """
    spec = spec.strip()
    if spec in LEVELS:  # the bot behind a level depends on the game: chosen at play
        return LevelBot(spec)
    if spec.startswith("policy:"):
        return _policy_bot(spec.removeprefix("policy:"), trust_imports)
    if spec == "random":
        return RandomBot()
    if spec == "greedy":
        return GreedyBot()
    kind, _, rest = spec.partition(":")
    if kind == "greedy":
        return _careless_greedy(spec, rest)
    if kind == "turn":
        return _turn_bot(spec, rest)
    if kind == "reply":
        return _reply_bot(spec, rest)
    if kind == "mcts":
        return _mcts_bot(spec, rest)
    raise MeadowError(
        f"no bot {spec!r}; bots are the levels ({', '.join(LEVELS)}), random, greedy, "
        "greedy:<share>, mcts:<n>, mcts:<s>s, turn:<width>:<s>s, reply:<width>:<s>s, "
        "policy:<name>"
    )


def _careless_greedy(spec: str, rest: str) -> Bot:
    """greedy:<share>: greedy, but that share of its decisions (0 to 1) played at random."""
    try:
        careless = float(rest)
    except ValueError:
        careless = -1.0
    if not 0 <= careless <= 1:
        raise ValueError(
            f"bot {spec!r}: a careless greedy bot is greedy:<share>, the share of decisions "
            "played at random, from 0 to 1 (greedy:0.3)"
        )
    return GreedyBot(careless=careless)


def _mcts_bot(spec: str, rest: str) -> Bot:
    """mcts:<iterations> or mcts:<seconds>s, then optionally :rollout=<decisions> (random
    decisions past a new node; the game's own by default) and :settle=off (branch on every
    decision, also those the game settles for a search: a development switch, to measure
    what settling is worth)."""
    budget, *settings = rest.split(":")
    try:
        found = dict(setting.split("=", 1) for setting in settings)
        settle = found.get("settle", "on")
        if not set(found) <= {"rollout", "settle"} or settle not in ("on", "off"):
            raise ValueError
        depth = int(found["rollout"]) if "rollout" in found else None
        if depth is not None and depth < 0:
            raise ValueError
        if budget.endswith("s"):
            return MctsBot(seconds=float(budget[:-1]), rollout=depth, settle=settle == "on")
        return MctsBot(iterations=int(budget or "200"), rollout=depth, settle=settle == "on")
    except ValueError:
        raise MeadowError(
            f"bot {spec!r}: the budget is iterations (mcts:500) or seconds (mcts:1s), "
            "optionally with a rollout length (mcts:1s:rollout=10) and settle=off "
            "(mcts:1s:settle=off: branch on the decisions the game settles)"
        ) from None


def _turn_bot(spec: str, rest: str) -> Bot:
    """turn:<width>:<seconds>s[:ahead=<turns>], each part optional (turn, turn:60,
    turn:4:3s:ahead=8); the width is the first beam's, a wider one fills the time left."""
    rest, _, ahead = rest.partition(":ahead=")
    width, _, seconds = rest.partition(":")
    try:
        bot = TurnBot(int(width or "4"), float(seconds.removesuffix("s") or "1"), int(ahead or "0"))
    except ValueError:
        raise MeadowError(
            f"bot {spec!r}: a turn planner is turn:<width>:<seconds>s[:ahead=<turns>] "
            "(turn:4:1s, turn:4:3s:ahead=8): a width of 1 or more, a positive time, "
            "0 or more turns to weigh again"
        ) from None
    return bot


def _reply_bot(spec: str, rest: str) -> Bot:
    """reply:<width>:<seconds>s or reply:<width>:<worlds>, each part optional (reply,
    reply:8, reply:8:1s, reply:8:20): the moves weighed after the others' replies, and in
    how long or in how many worlds."""
    width, _, budget = rest.partition(":")
    try:
        if not budget or budget.endswith("s"):
            return ReplyBot(int(width or "8"), seconds=float(budget.removesuffix("s") or "1"))
        return ReplyBot(int(width or "8"), seconds=0.0, worlds=int(budget))
    except ValueError:
        raise MeadowError(
            f"bot {spec!r}: a reply search is reply:<width>:<seconds>s or "
            "reply:<width>:<worlds> (reply:8:1s, reply:8:20): a width of 1 or more and a "
            "positive budget"
        ) from None


def _policy_bot(rest: str, trust_imports: bool) -> Bot:
    try:  # the research extra brings numpy; the bots above need nothing of it
        from meadow.rl.policy_bot import policy_bot
    except ImportError as exc:
        raise MeadowError(
            f"policy bots need the research extra (pip install 'meadow[rl]'): {exc}"
        ) from None
    return policy_bot(rest, trust_imports)


__all__ = [
    "Bot",
    "GreedyBot",
    "MctsBot",
    "Observation",
    "RandomBot",
    "ReplyBot",
    "TurnBot",
    "make_bot",
    "observe",
]
