"""A table's socket: its news for the person's seat as each move is made, and moves played on
it (the same rules as the HTTP routes in `routers.tables`)."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Query, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, ValidationError
from starlette.websockets import WebSocketState

from meadow.core.errors import IllegalAction, MeadowError
from meadow.server import access, chat, outbound
from meadow.server.access import MAX_ID
from meadow.server.connections import TOO_MANY_SOCKETS, Sockets
from meadow.server.deps import DatabaseRoute, session_of, tables
from meadow.server.drain import RESTARTING, Drain
from meadow.server.errors import ApiError
from meadow.server.live import Listener, LiveTable
from meadow.server.routers.tables import TableId, seat_playing
from meadow.server.tables import Tables

router = APIRouter(prefix="/api", tags=["tables"], route_class=DatabaseRoute)


@router.websocket("/tables/{table_id}/ws")
async def watch(
    websocket: WebSocket,
    table_id: TableId,
    since: int = Query(0, ge=0, le=MAX_ID),
    hub: Tables = Depends(tables),
) -> None:
    """News of a table for the connecting person's seat (a spectator if none): first a
    `sync` with every move after `since`, then a `move` message after each move. A seated
    person may also play here: `{"kind": "move", "move": N, "action": "..."}` or
    `{"kind": "undo", "move": N}` (the same rules as the HTTP routes). The answer is the
    move's own news with `"ack": true` (one frame for both), or `{"kind": "ack", "move": N}`
    (an undo, or a move whose news went out before its answer could), or `error`."""
    origin = websocket.headers.get("origin")
    if origin and urlsplit(origin).netloc != websocket.headers.get("host"):
        await websocket.close(code=4403, reason="a socket only from this site's own pages")
        return
    try:  # the database is not touched on the event loop
        user_id, session, muted, live = await asyncio.to_thread(_watcher, hub, websocket, table_id)
    except ApiError as refused:
        await websocket.close(code=4404, reason=refused.message)
        return
    drain: Drain = websocket.app.state.drain
    if drain.draining:  # this process stops: the page tries again, through another
        await websocket.close(code=RESTARTING, reason="the server restarts: reconnect")
        return
    await websocket.accept()
    sockets: Sockets = websocket.app.state.sockets
    if refusal := sockets.take(websocket, user_id):  # so many of one person's or address's
        await websocket.close(code=TOO_MANY_SOCKETS, reason=refusal)
        return
    listener = Listener(user_id, muted, session=session)
    live = hub.subscribe(live, listener, since)
    drain.opened(listener)
    sending = asyncio.create_task(_send_news(websocket, listener))
    try:
        await _converse(websocket, listener, hub, live, user_id, drain)
    except WebSocketDisconnect:
        pass
    finally:
        sockets.give_back(websocket, user_id)
        hub.unsubscribe(live, listener)
        drain.closed(listener)
        sending.cancel()


def _watcher(
    hub: Tables, websocket: WebSocket, table_id: int
) -> tuple[int | None, str | None, frozenset[int], LiveTable]:
    """Who is watching (and in which session: the socket ends with it), what they muted,
    and the table, if they may read it."""
    with hub.db.open() as s:
        session = session_of(websocket, s)
        user_id = session.user_id if session else None
        access.readable(s, table_id, user_id, access.key_of(websocket))
        muted = chat.muted_by(s, user_id)
        token_hash = session.token_hash if session else None
    return user_id, token_hash, muted, hub.current(table_id)


async def _send_news(websocket: WebSocket, listener: Listener) -> None:
    """The one sender on a socket, so its messages go out in the order they were queued:
    the sync, then each move's news, with a move's `ack` after the news of it."""
    try:
        while True:
            text = await listener.queue.get()
            if text is None:  # `Listener.close`: the server is stopping
                await websocket.close(code=RESTARTING, reason="the server restarts: reconnect")
                return
            if not text:  # `Listener.end`
                await websocket.close(code=4403, reason=listener.ended or "")
                return
            await websocket.send_text(text)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the client went; the receiving side ends the conversation


async def _converse(
    websocket: WebSocket,
    listener: Listener,
    hub: Tables,
    live: LiveTable,
    user_id: int | None,
    drain: Drain,
) -> None:
    """Play what the client sends, one at a time, answering each, until the client goes
    (or the server stops: a move that came after the socket was told to close is not
    played; the page reads where the game stands when it reconnects)."""
    # The sender may find the client gone first (while a move was being recorded): Starlette
    # then marks the socket disconnected, and reading from it would raise another error.
    while websocket.application_state is WebSocketState.CONNECTED:
        text = await _received_text(websocket)
        if text is None:
            return
        # Cancelled (a server stopping), a move whose line is being committed is still
        # settled: its commit's callback does that (`Tables.play`).
        if listener.closing:
            continue  # its sender closes the socket, and the next read hears it
        with drain.answering():  # a stopping server first answers the moves it took
            answer = await _play(hub, listener, live, user_id, text)
            if answer is not None:
                listener.send(answer)


async def _received_text(websocket: WebSocket) -> str | None:
    """The next text frame; None once the socket is closed because the client sent a frame
    no page sends (binary). Raises WebSocketDisconnect when the client goes. (A text frame
    of invalid UTF-8 never gets here: the protocol layer closes it with 1007.)"""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        await websocket.close(code=1003, reason="text frames (JSON) only")
    return text


class SocketMove(BaseModel):
    kind: str = Field(pattern="^(move|undo)$")
    move: int = Field(ge=1, le=MAX_ID)
    action: str | None = Field(None, max_length=200)


async def _play(
    hub: Tables, listener: Listener, live: LiveTable, user_id: int | None, text: str
) -> dict[str, Any] | None:
    """One move or undo sent on the socket; the answer is `ack` or `error`, or None when
    the move's news to this socket was its answer."""
    try:
        if len(text) > 1000:
            raise ApiError(413, "a socket message is at most 1000 characters")
        wanted = SocketMove.model_validate_json(text)
        seat = seat_playing(live, user_id)
        if wanted.kind == "undo":  # rare: off the loop, as the HTTP route does it
            await asyncio.to_thread(hub.undo, live.id, seat, wanted.move)
        elif wanted.action is None:
            raise ApiError(422, "a move needs its action")
        elif await hub.play(live, seat, wanted.move, wanted.action, listener):
            return None
        return outbound.message("ack", move=wanted.move)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return outbound.message("error", status=422, error=problems or "invalid message")
    except ApiError as exc:
        return outbound.message("error", status=exc.status, error=exc.message, **exc.extra)
    except IllegalAction as exc:
        return outbound.message("error", status=422, error=str(exc))
    except MeadowError as exc:  # NotationError and the rest: the input cannot be read
        return outbound.message("error", status=400, error=str(exc))
