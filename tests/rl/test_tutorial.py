"""docs/research.md: its Python blocks run, and its tables are what the code builds."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from meadow.rl import describe

DOC = Path(__file__).parents[2] / "docs" / "research.md"
SKIP = "<!-- sketch: not run -->"


def _blocks() -> list[tuple[int, str]]:
    """(line, code) of each Python block not marked as a sketch."""
    text = DOC.read_text("utf-8")
    found = []
    for match in re.finditer(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)\n```", text, re.S):
        if match["before"].strip() != SKIP:
            found.append((text.count("\n", 0, match.start("code")) + 1, match["code"]))
    return found


BLOCKS = _blocks()


def test_the_tutorial_has_its_blocks():
    assert len(BLOCKS) >= 5  # encoding, PettingZoo, Gymnasium, OpenSpiel, policy bot
    assert any("ISMCTSBot" in code for _, code in BLOCKS)
    assert any("agent_iter" in code for _, code in BLOCKS)


@pytest.mark.parametrize("line, code", BLOCKS, ids=[f"line {line}" for line, _ in BLOCKS])
def test_a_tutorial_block_runs(line, code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{DOC}:{line}", "exec"), {"__name__": "tutorial"})
    assert out.getvalue().strip(), "each block shows its result"


def test_the_layout_tables_are_what_the_code_builds():
    text = DOC.read_text("utf-8")
    begin, end = "<!-- layout: begin -->\n", "\n<!-- layout: end -->"
    documented = text[text.index(begin) + len(begin) : text.index(end)]
    generated = "\n\n".join(describe.section(game_id) for game_id in describe.games.ids())
    assert documented == generated, "regenerate with: python -m meadow.rl.describe"
