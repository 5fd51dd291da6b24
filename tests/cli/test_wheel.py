"""Meadow as a user installs it: the wheel built from this tree, installed with its
dependencies into a fresh virtual environment (nothing of this one's), run from a folder of
its own. What a checkout hides is caught here: a file the wheel leaves out (the games' data,
the pages, the migrations, the documentation), a dependency missing from pyproject.toml, a
path that only resolves next to the source."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALL_SECONDS = 240  # dependencies from the index when the cache is cold: most of the time


def check(command: list[str], cwd: Path, env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def test_the_wheel_installs_and_runs_in_a_fresh_environment(tmp_path):
    # The user's environment, not this test run's: no Meadow settings (CI sets a PostgreSQL
    # URL), no path to the source, and the fresh environment's commands first.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MEADOW_", "PYTHON", "VIRTUAL_ENV"))
    }
    venv = tmp_path / "venv"
    bin_dir = venv / "bin"
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    wheels = tmp_path / "wheels"
    check(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)],
        tmp_path,
        env,
        INSTALL_SECONDS,
    )
    (wheel,) = wheels.glob("meadow_tabletop-*.whl")
    check([sys.executable, "-m", "venv", str(venv)], tmp_path, env, 60)
    check([str(bin_dir / "pip"), "install", "-q", str(wheel)], tmp_path, env, INSTALL_SECONDS)

    home = tmp_path / "elsewhere"
    home.mkdir()
    where = check(
        [str(bin_dir / "python"), "-c", "import meadow; print(meadow.__file__)"], home, env, 30
    )
    assert where.startswith(str(venv)), where
    meadow = str(bin_dir / "meadow")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert check([meadow, "--version"], home, env, 30) == f"meadow {version}\n"
    assert "topiary" in check([meadow, "games"], home, env, 60)
    assert "games/s" in check(
        [meadow, "simulate", "topiary", "-n", "2", "--seed", "1"], home, env, 120
    )
    assert check([meadow, "docs", "operations"], home, env, 30).startswith("# Operating")

    port = free_port()
    env["MEADOW_DATA_DIR"] = str(home / "data")
    log = (tmp_path / "serve.log").open("w")  # a file: a pipe nobody reads fills and blocks
    server = subprocess.Popen(
        [meadow, "serve", "--port", str(port)], cwd=home, env=env, stdout=log, stderr=log
    )
    try:
        deadline = time.monotonic() + 60
        while not answers(f"http://127.0.0.1:{port}/healthz"):
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            assert time.monotonic() < deadline, "no answer at /healthz in 60 s"
            time.sleep(0.2)
        assert (home / "data" / "meadow.sqlite3").is_file()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
