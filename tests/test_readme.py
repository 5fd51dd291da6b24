"""The README states how many tests the suite has and how long it runs; the count it states
is checked here against the tests collected, so that it cannot drift far from the truth."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
STATED = re.compile(r"(\d[\d,]*)\s+tests\s+\(the browser tests")


def stated_count(text: str) -> int:
    """The number of tests the README's test section names.

    >>> stated_count("about 20 minutes: 17 for the 2,357 tests (the browser tests ...")
    2357
    """
    found = STATED.search(text)
    assert found, "the README no longer says how many tests there are"
    return int(found.group(1).replace(",", ""))


def test_the_readme_states_the_number_of_tests_within_a_fifth(request: pytest.FixtureRequest):
    config = request.config
    chosen = config.getoption("keyword") or config.getoption("markexpr")
    if chosen or config.getoption("deselect") or set(config.args) - {"tests", "meadow"}:
        pytest.skip("a part of the suite was asked for: the README counts the whole")
    collected = len(request.session.items)
    stated = stated_count(README.read_text(encoding="utf-8"))
    assert 0.8 * collected <= stated <= 1.2 * collected, (
        f"the README says {stated} tests, the suite has {collected}: update its figures"
    )
