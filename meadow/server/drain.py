"""Stopping on SIGTERM without losing anything (a rolling restart, a new version).

uvicorn's own stop closes the listening socket, waits for the requests under way and drops
the WebSockets. Meadow's comes first (`MeadowServer.on_tick`), then uvicorn's:

1. `/readyz` answers 503 at once (the signal handler sets `draining`) and the listening
   socket closes: a balancer sends nothing new here. Requests under way on open
   connections are served as before.
2. The process's bots stop and its tables' leases go back (`Tables.hand_over`): the other
   processes host them at their next look, twice a second, not once the leases run out.
3. Moves sent on a socket and being committed are answered first; then every socket is
   closed with 1012 ("service restart"), after what was queued for it. The page reconnects
   (to another process, through the balancer) and reads where its game stands.
4. uvicorn waits for the HTTP requests under way (an HTTP move waits for its commit); the
   shutdown then commits what the log writer holds (`Tables.close`) and sends the news of it.

All of it within `MEADOW_DRAIN_SECONDS`; a watchdog ends the process a little after that if
something still holds it (a database that stopped answering). What was acknowledged was
committed before its answer went out, so nothing acknowledged is lost whatever happens.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn

from meadow.server import metrics
from meadow.server.live import Listener

if TYPE_CHECKING:
    from meadow.server.tables import Tables

log = logging.getLogger("meadow.server")

RESTARTING = 1012  # WebSocket close code "service restart": the page reconnects
WATCHDOG_GRACE = 5.0  # seconds past the drain before the process is ended outright


class Drain:
    """What a stopping process must finish: the sockets open on it and the socket moves
    being answered. One per app, used on its event loop."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.draining = False
        self.deadline: float | None = None
        self.sockets: set[Listener] = set()
        self.moves = 0  # socket moves being played and answered

    def opened(self, listener: Listener) -> None:
        self.sockets.add(listener)
        metrics.SOCKETS.inc()

    def closed(self, listener: Listener) -> None:
        self.sockets.discard(listener)
        metrics.SOCKETS.dec()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Around a socket move, from its receipt to its answer being queued."""
        self.moves += 1
        try:
            yield
        finally:
            self.moves -= 1

    def time_left(self, otherwise: float) -> float:
        """Seconds left to stop in: the drain's, once it has begun, else `otherwise`."""
        if self.deadline is None:
            return otherwise
        return max(self.deadline - time.monotonic(), 1.0)

    async def run(self, tables: Tables, stop_listening: Callable[[], None]) -> float:
        """Steps 1-3 of the module's description; returns the seconds left for the rest."""
        self.draining = True
        self.deadline = deadline = time.monotonic() + self.seconds
        _exit_after(self.seconds + WATCHDOG_GRACE)
        stop_listening()
        log.info("stopping: no new connections, /readyz answers 503 (%.0f s at most)", self.seconds)
        handed = await asyncio.to_thread(tables.hand_over)
        if handed:
            log.info("stopping: %d tables handed to the other processes", handed)
        await _until(lambda: self.moves == 0, deadline)
        sockets = len(self.sockets)
        for listener in list(self.sockets):
            listener.close()
        await _until(lambda: not self.sockets, deadline)
        left = deadline - time.monotonic()
        if self.moves or self.sockets:
            log.warning(
                "stopping: %d socket moves and %d sockets unfinished after %.0f s; cut off",
                self.moves,
                len(self.sockets),
                self.seconds,
            )
        log.info("stopping: %d sockets told to reconnect", sockets)
        return max(left, 0.5)


async def _until(done: Callable[[], bool], deadline: float) -> None:
    while not done() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


def _exit_after(seconds: float) -> None:
    """End the process after `seconds` if it has not ended by itself (a thread stuck on a
    database that no longer answers would hold it for ever)."""

    def watch() -> None:
        time.sleep(seconds)
        log.error("stopping took over %.0f s: the process ends now", seconds)
        logging.shutdown()
        os._exit(1)

    threading.Thread(target=watch, name="drain-watchdog", daemon=True).start()


class MeadowServer(uvicorn.Server):
    """uvicorn's server, with Meadow's drain before its own stop (see the module)."""

    def __init__(self, config: uvicorn.Config, drain: Drain, tables: Callable[[], Tables]) -> None:
        """`tables`: the app's `Tables`, once the app has started."""
        super().__init__(config)
        self.drain = drain
        self.tables = tables
        self.draining: asyncio.Task[float] | None = None
        self.stopped_by: int | None = None  # the first signal that stopped it, if one did

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        with super().capture_signals():
            yield
            # uvicorn raises every signal it caught again once stopped, inside the event
            # loop: a second Ctrl-C (the one that hurries the stop) became a KeyboardInterrupt
            # in the lifespan's clean-up, with two tracebacks. `meadow serve` says how it
            # ended instead, from `stopped_by`.
            self.stopped_by = next(iter(self._captured_signals), None)
            self._captured_signals.clear()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # A signal handler: only flags here. The drain itself starts at the next tick.
        self.drain.draining = True
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        if not self.should_exit or self.force_exit or not self.started:
            return await super().on_tick(counter)
        if self.draining is None:
            self.draining = asyncio.create_task(self.drain.run(self.tables(), self._stop_listening))
        if not self.draining.done():
            return False
        try:
            left = self.draining.result()
        except Exception:
            log.exception("stopping: the drain failed; stopping as uvicorn does")
            left = self.drain.time_left(1.0)
        # What is left of the drain's time bounds uvicorn's wait for the requests under way.
        self.config.timeout_graceful_shutdown = int(left + 0.999)
        return True

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await super().shutdown(sockets)
        if self.force_exit:
            # uvicorn skips the app's own stop after a second Ctrl-C, but Meadow's commits
            # the move log's last lines and hands the tables over (bounded by the drain's
            # time): a hurried stop keeps them too, and its cancelled lifespan no longer
            # logs a traceback.
            await self.lifespan.shutdown()

    def _stop_listening(self) -> None:
        for server in self.servers:
            server.close()
