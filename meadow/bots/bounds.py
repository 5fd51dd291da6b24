"""A bound on one think from outside the bot, whatever the bot does inside it.

Every bot that searches checks its own clock between the steps of its search (`time_limit`,
a level's seconds), and a step is short: a sampled world, a walk down the tree, a rollout.
That holds only as long as every step ends. A step that does not (a rule that loops in one
sampled world, an evaluation stuck on a board nobody foresaw) would hold a server's bot
worker, and the table behind it, for ever. `hard_bound` is the backstop: an interval timer
raises `Overran` in the thinking thread once the bound has passed, wherever the think is,
and the caller plays on without the bot's answer (the server plays a random legal move and
logs it; the ladder stops the game with the position saved).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

# How far past its own bound a bot may run before it is stopped from outside: its own clock
# is read between steps, so a step in progress, and a process's first imports, come on top.
GRACE = 2.0


class Overran(Exception):
    """A think ran past its hard bound and was stopped where it was."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the think ran past its bound of {seconds:g} s and was stopped")
        self.seconds = seconds


def can_bound() -> bool:
    """Whether `hard_bound` can stop a think here: only in a process's main thread, on a
    system with interval timers (not Windows)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def hard_bound(seconds: float) -> Iterator[None]:
    """Raise `Overran` in this thread once `seconds` have passed inside the block.

    Where it cannot (see `can_bound`) the block runs unbounded: the bots' own clocks still
    hold, and a server thinks in worker processes' main threads, where it can."""
    if not can_bound():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Overran(seconds)

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
