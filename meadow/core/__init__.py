"""The contract every Meadow game meets; see docs/contract.md."""

from meadow.core.actions import JSON, Action, Event
from meadow.core.errors import (
    GameNotOver,
    IllegalAction,
    MeadowError,
    NotationError,
    OptionError,
    RecordError,
    SetupError,
    UnknownGame,
)
from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.core.record import GameRecord
from meadow.core.result import Result, rank
from meadow.core.rng import Rng

__all__ = [
    "JSON",
    "Action",
    "Event",
    "Game",
    "GameNotOver",
    "GameOptions",
    "GameRecord",
    "IllegalAction",
    "MeadowError",
    "NotationError",
    "OptionError",
    "RecordError",
    "Result",
    "Rng",
    "SetupError",
    "State",
    "UnknownGame",
    "rank",
]
