"""Issue 48: any interruption, anywhere (Ctrl-C, a second Ctrl-C, SIGTERM), ends a command
with one line on standard error and the exit code of the signal, no traceback from it or
from its worker processes, and what can be kept is kept."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from meadow.core.record import GameRecord

MEADOW = [sys.executable, "-c", "from meadow.cli import main; main()"]


class Running:
    """A `meadow` process in its own process group, as a terminal runs it: Ctrl-C there
    reaches every process of the group, worker processes included."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [*MEADOW, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=True,
        )
        self.out = bytearray()
        self.err = bytearray()
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, into: bytearray) -> None:
        while chunk := os.read(stream.fileno(), 4096):
            into.extend(chunk)

    def wait_for(self, text: str, where: str = "out", timeout: float = 60) -> None:
        seen = self.out if where == "out" else self.err
        deadline = time.monotonic() + timeout
        while text.encode() not in seen:
            assert self.process.poll() is None, (bytes(self.out), bytes(self.err))
            assert time.monotonic() < deadline, (text, bytes(self.out), bytes(self.err))
            time.sleep(0.05)

    def signal(self, sig: int) -> None:
        os.killpg(self.process.pid, sig)

    def end(self, timeout: float = 60) -> tuple[int, str, str]:
        code = self.process.wait(timeout=timeout)
        for reader in self._readers:
            reader.join(timeout=10)
        return code, self.out.decode(), self.err.decode()


def one_line(code: int, err: str, expected_code: int, line: str) -> None:
    assert "Traceback" not in err, err
    assert code == expected_code, (code, err)
    lines = [x for x in err.splitlines() if x.strip()]
    assert lines == [line], err


@pytest.mark.parametrize(
    ("sig", "code", "line"),
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated")],
)
def test_play_keeps_the_record_when_interrupted_at_the_prompt(tmp_path: Path, sig, code, line):
    saved = tmp_path / "game.json"
    running = Running(["play", "topiary", "--seed", "3", "--save", str(saved)], tmp_path)
    running.wait_for("your move>")
    running.process.stdin.write(b"1\n")
    running.process.stdin.flush()
    time.sleep(0.5)
    running.wait_for("your move>")
    running.signal(sig)
    exit_code, out, err = running.end()
    one_line(exit_code, err, code, line)
    record = GameRecord.load(saved)
    assert record.actions, "the move played before the interruption is kept"
    record.replay()
    assert f"record saved to {saved}" in out


def test_play_keeps_the_record_when_interrupted_while_the_computer_thinks(tmp_path: Path):
    saved = tmp_path / "game.json"
    args = ["play", "renature", "--seat", "1", "--bot", "mcts:600s", "--save", str(saved)]
    running = Running(args, tmp_path)
    running.wait_for("against mcts:600s")
    time.sleep(1)
    running.signal(signal.SIGINT)
    exit_code, _, err = running.end()
    one_line(exit_code, err, 130, "interrupted")
    assert GameRecord.load(saved).actions == []


def test_a_tournament_interrupted_has_no_worker_tracebacks(tmp_path: Path):
    args = ["tournament", "renature", "--bots", "greedy,greedy", "-n", "400", "--jobs", "2"]
    running = Running(args, tmp_path)
    time.sleep(4)  # the workers are playing
    running.signal(signal.SIGINT)
    exit_code, _, err = running.end()
    one_line(exit_code, err, 130, "interrupted")


def test_a_long_command_interrupted_is_one_line(tmp_path: Path):
    running = Running(["simulate", "mystic_vale", "-n", "100000"], tmp_path)
    time.sleep(3)
    running.signal(signal.SIGINT)
    exit_code, _, err = running.end()
    one_line(exit_code, err, 130, "interrupted")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("gap", [0.01, 0.5])
def test_serve_stopped_by_ctrl_c_twice_exits_quietly(tmp_path: Path, gap: float):
    running = Running(["serve", "--port", str(_free_port())], tmp_path)
    running.wait_for("Uvicorn running", where="err")
    running.signal(signal.SIGINT)
    time.sleep(gap)
    running.signal(signal.SIGINT)
    exit_code, _, err = running.end()
    assert "Traceback" not in err, err
    # A second Ctrl-C that comes as the process exits meets Python's own handler again:
    # the process ends by the signal, which a shell shows as 130 too.
    assert exit_code in (130, -signal.SIGINT), err
    assert err.splitlines()[-1] == "interrupted"
    # The app's own stop ran (it commits the move log) even though the stop was hurried.
    assert "Application shutdown complete" in err
