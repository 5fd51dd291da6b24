"""Refusals the server answers with a 4xx."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request the server refuses: an HTTP status, a message a person can read, and any
    fields a client needs (the current move number on a conflict)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra
