"""A try that several limits count (a chat line: its writer, its address, its table) counts
against all of them or against none (issue 43, 4)."""

from __future__ import annotations

import pytest

from meadow.server.errors import ApiError
from meadow.server.limits import Alone, Hashing, Limits, Rule, TooMany

PERSON = Rule("chat:1", 5, 60, "chat messages")
TABLE = Rule("chat-table:1", 1, 60, "chat messages at this table")


class Unread(Alone):
    """Counters that another process fills between a check and a spend: each read finds
    nothing counted yet."""

    def read(self, key: str) -> tuple[int, float]:
        return 0, 0.0


def counted(limits: Limits, rule: Rule) -> int:
    return Alone.read(limits.counters, rule.key)[0]  # type: ignore[arg-type]


def test_a_try_one_rule_refuses_uses_up_nothing_of_the_others():
    limits = Limits(Alone(), Hashing(1, 0))
    with limits.spending([PERSON, TABLE]):
        pass
    refusal = "too many chat messages at this table: at most 1"
    with pytest.raises(TooMany, match=refusal), limits.spending([PERSON, TABLE]):
        pass
    assert (counted(limits, PERSON), counted(limits, TABLE)) == (1, 1)


def test_a_rule_filled_meanwhile_gives_back_the_counts_made():
    limits = Limits(Unread(), Hashing(1, 0))
    with limits.spending([PERSON, TABLE]):
        pass
    with pytest.raises(TooMany), limits.spending([PERSON, TABLE]):
        pass
    assert (counted(limits, PERSON), counted(limits, TABLE)) == (1, 1)


def test_a_try_refused_for_something_else_counts_for_nothing():
    limits = Limits(Alone(), Hashing(1, 0))
    with pytest.raises(ApiError, match="no table"), limits.spending([PERSON, TABLE]):
        raise ApiError(404, "there is no table 1")
    assert (counted(limits, PERSON), counted(limits, TABLE)) == (0, 0)
