"""Test servers forked from a warm process: `meadow serve` with its imports already done.

The suite starts about two hundred servers, and each spent two of its three seconds of CPU
importing FastAPI, SQLAlchemy, pydantic and the games before it served a request. A
`multiprocessing` fork server imports them once per test worker; each server is then a fork of
it that runs the same command line (`meadow serve --port N`) with its own environment and log.
What a server does after its imports (settings, migrations, the app, the lifespan, signals,
exit codes, its bot workers) is the same as from a fresh `python -m meadow serve`; the command
line's own start is tested by `tests/cli`, which still runs it fresh.

A server whose environment names other game data or models (`MEADOW_GAME_DATA`, the old
`MEADOW_DATA`, `MEADOW_MODELS`) starts fresh, as does any server while this worker's own
environment names them: a warm process must not hold what such a server would read otherwise.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from multiprocessing import util  # noqa: F401  (its exit hook first: it runs after ours)

# Settings a module could have read before the fork; the ones the games and bots read lazily
# are listed for safety all the same.
COLD_ONLY = ("MEADOW_GAME_DATA", "MEADOW_DATA", "MEADOW_MODELS")
PRELOAD = ["meadow.cli", "meadow.cli.serve", "meadow.server.main", "meadow.bots"]

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)
_started: list[multiprocessing.process.BaseProcess] = []


def may_start_warm(env: Mapping[str, str]) -> bool:
    return not any(name in env or name in os.environ for name in COLD_ONLY)


class WarmProcess:
    """A forked server, answering as much of `subprocess.Popen` as the tests use."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self._process = process

    @property
    def pid(self) -> int:
        assert self._process.pid is not None
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.exitcode  # negative for a signal, as Popen's

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        code = self.returncode
        if code is None:
            raise subprocess.TimeoutExpired(f"meadow serve (pid {self.pid})", timeout or 0)
        return code

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


def start(argv: Sequence[str], env: Mapping[str, str], log: str) -> WarmProcess:
    """`meadow <argv>` forked from the warm process, with exactly `env`, writing to `log`."""
    process = _context.Process(target=_run, args=(list(argv), dict(env), log), name="meadow")
    process.start()
    _started.append(process)
    return WarmProcess(process)


def _run(argv: list[str], env: dict[str, str], log: str) -> None:
    os.environ.clear()
    os.environ.update(env)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    # Line-buffered, as a child's pipe to a file would be flushed line by line by the logs.
    sys.stdout = sys.stderr = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
    from meadow.cli import main

    sys.argv = ["meadow", *argv]
    main(argv)


@atexit.register
def _stop_leftovers() -> None:
    """A server a test left running must not keep its worker from ending (multiprocessing
    waits for every child it started at exit)."""
    for process in _started:
        if process.is_alive():
            process.terminate()
            process.join(10)
            if process.is_alive():
                process.kill()
                process.join()
