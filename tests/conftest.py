"""What every test run shares: at the end, what did not run and why."""

from __future__ import annotations

from collections import Counter

import pytest


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
