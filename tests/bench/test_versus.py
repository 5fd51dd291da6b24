"""bench.versus: a bench's tables read back, and two versions' runs shown as ranges."""

from __future__ import annotations

from bench.versus import merge, tables

OLD = """Python 3.11
| game | players | decisions/s | clone µs |
|---|---:|---:|---:|
| topiary | 2 | {a} | 2.5 |
| topiary | 3 | 90,000 | 3.0 |
"""
NEW = """| game | players | decisions/s | clone µs | share |
|---|---:|---:|---:|---:|
| topiary | 2 | {a} | 2.4 | 33 % |
| topiary | 3 | 95,500 | 3.1 | 30 % |
"""


def test_rows_are_known_by_game_and_player_count():
    found = tables(OLD.format(a="80,000"))
    (rows,) = found.values()
    assert set(rows) == {("topiary", "2"), ("topiary", "3")}


def test_each_figure_is_shown_as_old_range_to_new_range():
    old = [tables(OLD.format(a=a)) for a in ("80,000", "84,000")]
    new = [tables(NEW.format(a=a)) for a in ("100,000", "100,000")]
    lines = merge(old, new).splitlines()
    assert lines[2] == "| topiary | 2 | 80,000-84,000 -> 100,000 | 2.5 -> 2.4 | -> 33 % |"
    assert lines[3] == "| topiary | 3 | 90,000 -> 95,500 | 3.0 -> 3.1 | -> 30 % |"
