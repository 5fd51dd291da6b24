"""Errors a person can read: every one names the input, the reason and, where it fits, the rule.

All are `ValueError`s so that one handler (CLI, server) maps them to a friendly message; anything
else that escapes is a bug.
"""

from __future__ import annotations


class MeadowError(ValueError):
    """Base of every error Meadow reports to a person."""


class NotationError(MeadowError):
    """The text cannot be read as an action of this game."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        # A pasted page is quoted only in part.
        shown = repr(text) if len(text) <= 60 else repr(text[:59] + "…")
        super().__init__(f"{shown}: {reason}")


class IllegalAction(MeadowError):
    """The action is readable but not allowed now. The state is left untouched."""

    def __init__(self, action: str, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"{action}: {reason}")


class OptionError(MeadowError):
    """An unknown game option, or a bad value for one."""


class SetupError(MeadowError):
    """A game cannot be set up as asked (player count, seed)."""


class UnknownGame(MeadowError):
    """No registered game has this id."""


class RecordError(MeadowError):
    """A game record cannot be read or replayed."""


class GameNotOver(MeadowError):
    """The final result was asked for before the game ended."""
