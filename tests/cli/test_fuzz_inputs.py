"""Issue 25: the files a person gives the command line, fed random bytes and random mutations
of valid files. Whatever comes in, the answer is exit 0 or a one-line error (exit 2): never a
traceback, never "internal error" (exit 70)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meadow.cli import main

ROOT = Path(__file__).resolve().parents[2]
BOARD = json.loads((ROOT / "meadow/games/renature/data/board_base.json").read_text("utf-8"))
HARMONIES = {
    "side": "A",
    "cells": [{"col": 0, "row": 0, "stack": ["green", "brown"]}],
    "cards": [{"id": 1, "cubes_remaining": 0}],
}
CARDS_CSV = "kind,id,name,set,level,cost,mana,beast,copies\nadvancement,aurora,,,,8,0,1,\n"
# A bounded number of examples: the suite runs in CI on every push.
bounded = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> Any:
    """`document` with one to three places replaced by random JSON, or deleted."""
    doc = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 3))):
        node = doc
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            child = node[draw(st.sampled_from(keys))]
            if not isinstance(child, dict | list) or not child:
                break
            node = child
        if isinstance(node, dict | list) and node:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            key = draw(st.sampled_from(keys))
            if draw(st.booleans()):
                node[key] = draw(json_values)
            else:
                del node[key]
        else:
            doc = draw(json_values)
    return doc


def check(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(SystemExit) as exited:
        main(args)
    out, err = capsys.readouterr()
    code = exited.value.code or 0
    assert "Traceback" not in out + err
    assert code in (0, 2), err
    if code == 2:
        lines = [line for line in err.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        assert len(lines[0]) < 2000  # an excerpt at most, never the whole input


def _write(tmp_path: Path, name: str, content: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode()
    path.write_bytes(content)
    return path


@bounded
@given(raw=st.binary(max_size=300))
def test_random_bytes(capsys, monkeypatch, tmp_path, raw):
    path = _write(tmp_path, "input", raw)
    check(capsys, monkeypatch, ["score", "harmonies", str(path)])
    check(capsys, monkeypatch, ["renature", "check-board", str(path)])
    out = tmp_path / "out"
    check(capsys, monkeypatch, ["mystic-vale", "import-cards", str(path), "--out", str(out)])


@bounded
@given(doc=mutated(HARMONIES))
def test_mutated_harmonies_boards(capsys, monkeypatch, tmp_path, doc):
    path = _write(tmp_path, "board.json", json.dumps(doc))
    check(capsys, monkeypatch, ["score", "harmonies", str(path)])


@bounded
@given(doc=mutated(BOARD))
def test_mutated_renature_boards(capsys, monkeypatch, tmp_path, doc):
    path = _write(tmp_path, "board.json", json.dumps(doc))
    check(capsys, monkeypatch, ["renature", "check-board", str(path)])


@st.composite
def mutated_csv(draw: st.DrawFn) -> str:
    rows = [line.split(",") for line in CARDS_CSV.strip().split("\n")]
    for _ in range(draw(st.integers(1, 4))):
        row = draw(st.integers(0, len(rows) - 1))
        cell = draw(st.integers(0, len(rows[row]) - 1))
        rows[row][cell] = draw(
            st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
            | st.sampled_from(["", "advancement", "vale", "aurora", "-1", "99", "base", ";"])
        )
    if draw(st.booleans()):
        rows.append(list(rows[-1]))  # a row twice
    separator = draw(st.sampled_from([",", ";", "\t"]))
    return "\n".join(separator.join(row) for row in rows) + "\n"


@bounded
@given(text=mutated_csv(), bom=st.booleans())
def test_mutated_card_csvs(capsys, monkeypatch, tmp_path, text, bom):
    raw = ("\ufeff" if bom else "").encode() + text.encode("utf-8", "surrogatepass")
    path = _write(tmp_path, "cards.csv", raw)
    out = tmp_path / "out"
    check(capsys, monkeypatch, ["mystic-vale", "import-cards", str(path), "--out", str(out)])
