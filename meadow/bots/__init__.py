"""Computer opponents that never peek: they see a seat's observation, never the state."""

from __future__ import annotations

from meadow.bots.base import Bot, Observation, observe
from meadow.bots.levels import LEVELS
from meadow.bots.mcts import MctsBot
from meadow.bots.names import LevelBot, make_bot
from meadow.bots.reply import ReplyBot
from meadow.bots.simple import GreedyBot, RandomBot
from meadow.bots.turns import TurnBot

__all__ = [
    "LEVELS",
    "Bot",
    "GreedyBot",
    "LevelBot",
    "MctsBot",
    "Observation",
    "RandomBot",
    "ReplyBot",
    "TurnBot",
    "make_bot",
    "observe",
]
