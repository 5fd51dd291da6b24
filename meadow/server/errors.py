"""Refusals the server answers with a 4xx."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ApiError(Exception):
    """A request the server refuses: an HTTP status, a message a person can read, and any
    fields a client needs (the current move number on a conflict)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


class Refusal(BaseModel):
    """Every refusal's body: one sentence a person can read."""

    error: str = Field(description="What was refused and why.")
    move: int | None = Field(
        None, description="On a 409 about a move: the number of moves made so far."
    )


_MEANING = {
    400: "The request breaks a rule (which one is said).",
    401: "Sign in first.",
    403: "Not yours to do: another seat's turn, not the host, a missing CSRF token, or a "
    "request from another site's page.",
    404: "No such table, invitation or step.",
    409: "Too late or taken: the table or move number moved on meanwhile.",
    413: "The request body is too large.",
    422: "The request does not match its schema.",
    429: "Too many tries; wait as long as Retry-After says.",
    503: "Busy; try again after Retry-After seconds.",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of a route's refusals, each with the `Refusal` body."""
    return {status: {"model": Refusal, "description": _MEANING[status]} for status in statuses}
