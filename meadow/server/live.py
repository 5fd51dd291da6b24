"""A table in play, in memory: its state, its log and who is listening."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from meadow.core.actions import Event
from meadow.core.game import Game, State
from meadow.core.record import GameRecord
from meadow.server.clocks import Clock


@dataclass(eq=False)  # each socket is itself: kept in sets, removed by identity
class Listener:
    """A WebSocket waiting for news of a table for the person who opened it (None: a visitor
    not signed in). Which seat its news is built for is asked of the table each time
    (`LiveTable.seat_of`): a person who leaves a seat hears as a spectator from then on, and
    a seat taken by someone else is never heard through an older socket. Made on the
    socket's event loop; news may come from any thread."""

    user_id: int | None
    muted: frozenset[int] = frozenset()  # whose chat this person does not read
    # Each message as sent, then None once the socket is to be closed (`close`).
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.get_running_loop)
    thread: int = field(default_factory=threading.get_ident)
    closing: bool = False  # the server is stopping: no more moves are taken on this socket
    ended: str | None = None  # why the server closes the socket (`end`)
    # The token hash of the session it was opened in: once that session ends (a sign-out
    # everywhere, a reset, an undone address change), so does the socket (`moderation`).
    session: str | None = None
    # The view this socket was last sent: (its seat, the move number), so that the next
    # line's news may patch it (`Telling.tell`); None: none, or not known.
    seen: tuple[int | None, int] | None = None

    def end(self, reason: str) -> None:
        """Close the socket once what is queued has gone: its person may no longer hear the
        table (banned, or the account deleted). No message is empty: the sender knows."""
        self.ended = reason
        self.send_text("")

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """A message encoded already (once for every listener of one seat)."""
        self._queue(text)

    def close(self) -> None:
        """The server is stopping: what was queued goes out, then the socket is closed with
        a code that tells the page to reconnect (to another process)."""
        self.closing = True
        self._queue(None)

    def _queue(self, text: str | None) -> None:
        if threading.get_ident() == self.thread:
            self.queue.put_nowait(text)
        else:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, text)


def encode(message: dict[str, Any]) -> str:
    # Views may key a dict by a number (a seat): JSON makes it a string, as json.dumps did.
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


UNDO = "#undo"  # the log's mark for an undo: no game's notation starts with '#'


@dataclass
class Entry:
    """One line of the move log: a move (its events kept for resync) or an undo."""

    number: int
    seat: int
    action: str
    events: list[Event]
    note: str | None = None
    undoes: int | None = None  # for an undo: the number of the move it took back


@dataclass
class LiveTable:
    id: int
    game: Game
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    seats: list[tuple[int | None, str | None]]  # per seat: (user id, bot)
    clock: Clock
    takeover_bot: str
    mode: str = "live"
    hints: bool = False  # the coach suggests moves on request; never rated
    state: State | None = None
    log: list[Entry] = field(default_factory=list)
    standing: list[Entry] = field(default_factory=list)  # the moves not undone, in order
    takeover_notes: dict[int, str] = field(default_factory=dict)  # for the bot's first move
    lock: threading.RLock = field(default_factory=threading.RLock)
    # The number of the line being committed: checked and applied to a copy of the state,
    # not yet in the log. No other line may be proposed meanwhile.
    pending: int | None = None
    # The number a bot's think is queued or under way for: asked once, not at every look.
    bot_asked: int | None = None
    # Left the process's memory (`Tables.forget_if_done`): whoever still holds it reads
    # the table anew.
    gone: bool = False
    # Read back while resting out of its host's memory (`Tables.rest_idle`): its due time
    # is still written, until its host holds it again.
    resting: bool = False
    touched: datetime = field(default_factory=lambda: datetime.now(UTC))  # last asked for
    listeners: list[Listener] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)  # the latest lines (`server.chat`)
    chat_seen: int = 0  # the number of the last chat line told here
    # The view last built for each seat (None: the spectators) and the move it is of: what
    # the next line's patch for that seat is worked out from (`Telling.tell`).
    views: dict[int | None, tuple[int, dict[str, Any]]] = field(default_factory=dict)

    def seat_of(self, user_id: int | None) -> int | None:
        for number, (user, _bot) in enumerate(self.seats):
            if user is not None and user == user_id:
                return number
        return None

    @property
    def busy(self) -> bool:
        """Watched here, or a line or a bot's think under way: it must stay in memory."""
        return bool(self.listeners) or self.pending is not None or self.bot_asked is not None

    @property
    def moves_made(self) -> int:
        """Log lines so far: the next move must carry this number plus one."""
        return len(self.log)

    def record(self) -> GameRecord:
        actions = [entry.action for entry in self.standing]
        return GameRecord(self.game.id, self.players, self.options, self.seed, actions)

    def state_before_last(self) -> State:
        """The state before the last standing move: the set-up through the others."""
        state = self.record().initial_state()
        for entry in self.standing[:-1]:
            state.apply(state.parse_action(entry.action))
        return state

    def rebuild(self) -> None:
        """The state from the set-up through the standing moves (after an undo)."""
        record = self.record()
        state = record.initial_state()
        for entry in self.standing:
            entry.events = state.apply(state.parse_action(entry.action))
        self.state = state
