"""What a `meadow` command costs before it does anything: the CPU seconds and the peak memory
of `meadow --help`, `--version`, `games` and `play --help` in a fresh interpreter (best of
`--runs`), and how many modules each loads; the machine and its load first.

    python -m bench.cli_start [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys

COMMANDS = (["--help"], ["--version"], ["games"], ["play", "--help"])
COUNT = """
import sys
from meadow.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(len(sys.modules), file=sys.stderr)
"""


def cost(args: list[str]) -> tuple[float, float]:
    """CPU seconds and peak resident MiB of one `python -m meadow ARGS` run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "meadow", *args], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss / 1024


def modules(args: list[str]) -> int:
    done = subprocess.run([sys.executable, "-c", COUNT, *args], capture_output=True, text=True)
    return int(done.stderr.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(
        f"{os.cpu_count()} cores {platform.machine()}, {platform.python_implementation()} "
        f"{platform.python_version()}, load {load}\n"
    )
    print("| command | CPU s (best) | peak MiB | modules |")
    print("|---|---:|---:|---:|")
    for args in COMMANDS:
        figures = [cost(args) for _ in range(runs)]
        best = min(cpu for cpu, _ in figures)
        peak = max(mib for _, mib in figures)
        print(f"| `meadow {' '.join(args)}` | {best:.2f} | {peak:.0f} | {modules(args)} |")


if __name__ == "__main__":
    main()
