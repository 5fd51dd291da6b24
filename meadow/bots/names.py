"""Bots by name: the spec a person, a host or the ladder writes (`make_bot`), and the
level that plays each game with its own bot (`LevelBot`)."""

from __future__ import annotations

from meadow.bots.base import Bot, Evaluating, Observation
from meadow.bots.guide import GuideBot
from meadow.bots.levels import LEVELS, SECONDS, Bounded, spec_for
from meadow.bots.mcts import MctsBot
from meadow.bots.reply import ReplyBot
from meadow.bots.simple import GreedyBot, RandomBot
from meadow.bots.turns import TurnBot
from meadow.core.actions import Action
from meadow.core.errors import MeadowError
from meadow.core.rng import Rng


def make_bot(spec: str) -> Bot:
    """One of Meadow's bots from its name: random, greedy, mcts:<iterations>,
    mcts:<seconds>s, either optionally followed by :rollout=<decisions> and :settle=off,
    turn:<width>:<seconds>s, reply:<width>:<seconds>s, each of greedy, mcts, turn and
    reply optionally with :eval=learned (`meadow.bots.learned`), or a level (beginner, easy, medium,
    hard, expert; see meadow.bots.levels). A trained policy (policy:<name>) is a player of
    the research floor above: `meadow.rl.players.make_player` makes both.

    Raises:
        MeadowError: an unknown bot or budget.
    """
    spec = spec.strip()
    if spec in LEVELS:  # the bot behind a level depends on the game: chosen at play
        return LevelBot(spec)
    plain, learned = _evaluation_setting(spec)
    bot = _plain_bot(plain)
    if learned:
        if not isinstance(bot, Evaluating):
            raise MeadowError(
                f"bot {spec!r}: only greedy, mcts, turn and reply judge positions by an "
                "evaluation, so only they take :eval=learned"
            )
        bot.use_learned()
    return bot


def _evaluation_setting(spec: str) -> tuple[str, bool]:
    """A spec without its `:eval=learned` or `:eval=hand` (wherever it stands among the
    settings), and whether the learned evaluation was asked for."""
    parts = spec.split(":")
    asked = [part for part in parts if part.startswith("eval=")]
    if not asked:
        return spec, False
    if len(asked) > 1 or asked[0] not in ("eval=learned", "eval=hand"):
        raise MeadowError(
            f"bot {spec!r}: the evaluation is eval=learned (the model learned by self-play, "
            "where one is shipped) or eval=hand (the game's own), once"
        )
    return ":".join(part for part in parts if part not in asked), asked[0] == "eval=learned"


def _plain_bot(spec: str) -> Bot:
    if spec.startswith("policy:"):
        raise MeadowError(
            f"bot {spec!r}: a trained policy is made by meadow.rl.players.make_player"
        )
    if spec == "random":
        return RandomBot()
    if spec == "greedy":
        return GreedyBot()
    if spec == "guide":
        return GuideBot()
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


class LevelBot(Bot):
    """A level: plays each game with that game's bot for the level, made once and kept.

    A bot that can be bounded in time (one with a `time_limit`) never thinks longer than
    the level's seconds, nor than `time_limit` when a server sets it."""

    def __init__(self, level: str) -> None:
        if level not in LEVELS:
            raise ValueError(f"no level {level!r}; the levels are {', '.join(LEVELS)}")
        self.name = level
        self.level = level
        self.time_limit: float | None = None
        self._bots: dict[str, Bot] = {}

    def bot_for(self, game_id: str) -> Bot:
        """The bot this level plays `game_id` with (made on first use)."""
        bot = self._bots.get(game_id)
        if bot is None:
            bot = make_bot(spec_for(self.level, game_id))
            self._bots[game_id] = bot
        return bot

    def choose(self, observation: Observation, rng: Rng) -> Action:
        bot = self.bot_for(observation.game.id)
        if isinstance(bot, Bounded):
            limit = SECONDS[self.level]
            if self.time_limit is not None:
                limit = min(limit, self.time_limit)
            bot.time_limit = limit
        return bot.choose(observation, rng)
