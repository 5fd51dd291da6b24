"""Everything that leaves the server about a game goes through here, built for one recipient:
a seat (0, 1, ...) or a spectator (None). Views and events are filtered by the game itself
(`State.view`, `Event.for_seat`); an action's text reaches only the seat that chose it (a
discarded domino, say, is nobody else's business). Message kinds are a closed list: building
an unknown kind is an error, never a pass-through."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from meadow.core.actions import Action, Event
from meadow.core.game import State
from meadow.server import patch

KINDS = frozenset({"sync", "move", "undo", "seat", "ack", "error", "chat", "chat_hidden"})


def message(kind: str, **fields: Any) -> dict[str, Any]:
    if kind not in KINDS:
        raise ValueError(f"unknown outbound message kind {kind!r}")
    return {"kind": kind, **fields}


def position(
    state: State, seat: int | None, moves_made: int, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Where the game stands for `seat`: its view (`view`, if built already), whose turn,
    and its own choices, in notation (`legal`) and structured (`choices`, what a page needs
    to offer them as clicks: `choices[i]` is `legal[i]`'s fields, its notation left out,
    since `legal[i]` is that already)."""
    mine = seat is not None and state.to_move == seat
    legal = state.legal_actions() if mine else []
    data: dict[str, Any] = {
        "move": moves_made,
        "to_move": state.to_move,
        "over": state.is_over,
        "view": state.view(seat) if view is None else view,
        "legal": [str(a) for a in legal],
        "choices": [_choice(a) for a in legal],
    }
    if state.is_over:
        data["result"] = state.result().to_json()
    return data


@lru_cache(maxsize=65536)
def _choice(action: Action) -> dict[str, Any]:
    # Actions are frozen values and the same few recur move after move: build each form once.
    # Callers only serialise the result, never change it.
    return {key: value for key, value in action.to_json().items() if key != "text"}


def move_events(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    return [event.for_seat(seat) for event in events]


def log_line(entry: Any, seat: int | None) -> dict[str, Any]:
    """One line of the move log as `seat` may read it (for resync)."""
    line: dict[str, Any] = {"number": entry.number, "seat": entry.seat}
    if entry.undoes is not None:
        line["undoes"] = entry.undoes
    else:
        line["events"] = move_events(entry.events, seat)
        if seat == entry.seat:
            line["action"] = entry.action
    if entry.note:
        line["note"] = entry.note
    return line


def undo_message(
    state: State,
    seat: int | None,
    number: int,
    mover: int,
    undone: int,
    view: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return message(
        "undo", number=number, seat=mover, undoes=undone, **position(state, seat, number, view)
    )


def move_message(
    state: State,
    seat: int | None,
    number: int,
    mover: int,
    action_text: str,
    events: list[Event],
    note: str | None = None,
    view: dict[str, Any] | None = None,
) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "number": number,
        "seat": mover,
        "events": move_events(events, seat),
        **position(state, seat, number, view),
    }
    if seat == mover:
        fields["action"] = action_text
    if note:
        fields["note"] = note
    return message("move", **fields)


def patched(news: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    """A move's news with its view given as the patch from `before`, the view of the same
    recipient that the socket holds (`meadow.server.patch`): the move's events and the
    mover's choices as they are, the view's few changes instead of the whole of it."""
    fields = {key: value for key, value in news.items() if key != "view"}
    fields["patch"] = patch.diff(before, news["view"])
    return fields
