"""Helpers shared by the commands: option parsing and opponent choice."""

from __future__ import annotations

from meadow.core.game import Game
from meadow.core.options import GameOptions, parse_option_pairs


def game_options(game: Game, players: int, pairs: list[str] | None) -> GameOptions:
    """Options from repeated `--option key=value` flags, validated for this game."""
    return game.options(players, parse_option_pairs(pairs or []))
