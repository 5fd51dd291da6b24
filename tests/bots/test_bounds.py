"""A think is bounded from outside the bot: a step that never ends is stopped."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from meadow.bots.bounds import Overran, can_bound, hard_bound

pytestmark = pytest.mark.skipif(not can_bound(), reason="no interval timer here (Windows)")


def test_a_loop_that_never_ends_is_stopped_at_the_bound():
    started = time.monotonic()
    with pytest.raises(Overran) as stopped, hard_bound(0.2):
        while True:
            pass
    assert stopped.value.seconds == 0.2
    assert "0.2 s" in str(stopped.value)
    assert time.monotonic() - started < 10  # stopped, not left to the test run's own timeout


def test_a_think_within_the_bound_is_not_touched_and_nothing_is_left_armed():
    before = signal.getsignal(signal.SIGALRM)
    with hard_bound(5):
        total = sum(range(1000))
    assert total == 499500
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # no alarm left to fire later
    assert signal.getsignal(signal.SIGALRM) is before


def test_off_the_main_thread_the_block_runs_unbounded():
    seen: list[object] = []

    def elsewhere() -> None:
        seen.append(can_bound())
        with hard_bound(0.01):
            time.sleep(0.05)
        seen.append("finished")

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join(5)
    assert seen == [False, "finished"]
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
