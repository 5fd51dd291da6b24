"""What every test run shares: at the end, what did not run and why."""

from __future__ import annotations

import os
from collections import Counter

import pytest

# Every server a test starts hashes passwords at OWASP's least cost for argon2id (19 MiB, two
# passes) rather than Meadow's default (64 MiB, three): the suite signs up people by the
# thousand, and a hash at the default cost takes a fifth of a second of a core. What is
# tested (hashes checked, unknown names refused after the same work) does not depend on it;
# test_auth.py starts a server at the default cost.
os.environ.setdefault("MEADOW_PASSWORD_HASH_MEMORY_KIB", "19456")
os.environ.setdefault("MEADOW_PASSWORD_HASH_ROUNDS", "2")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Tests skipped for a missing service (PostgreSQL, Redis, Chromium, nginx) pass silently
    otherwise: a person running the README's test command is told how many did not run, why,
    and that CI=1 makes them fail instead."""
    reasons: Counter[str] = Counter()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    if not reasons:
        return
    total = sum(reasons.values())
    terminalreporter.write_sep("=", f"{total} test{'s' if total > 1 else ''} did not run")
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count:4d} skipped: {reason}")
    terminalreporter.write_line(
        "     (start what is missing to run them; with CI=1 the service tests fail instead)"
    )
