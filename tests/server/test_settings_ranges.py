"""Issue 48: every numeric setting has its range, and a value outside it is one line naming
the variable, the value and the range, before the server starts (no "Meadow on ...", no
database made)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meadow.cli.serve import allowed, settings
from meadow.core.errors import MeadowError
from meadow.server.settings import Settings

NUMERIC = [
    name
    for name, field in Settings.model_fields.items()
    if field.annotation in (int, float, "int", "float")
]


def bounds(name: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in Settings.model_fields[name].metadata:
        for key in ("ge", "gt", "le", "lt"):
            if getattr(item, key, None) is not None:
                found[key] = getattr(item, key)
    return found


def test_the_walk_finds_the_numeric_settings():
    assert {"port", "bot_workers", "lease_ms", "session_days", "max_body_bytes"} <= set(NUMERIC)
    assert len(NUMERIC) > 40


@pytest.mark.parametrize("name", NUMERIC)
def test_every_numeric_setting_has_a_range(name: str):
    found = bounds(name)
    assert {"ge", "gt"} & set(found), f"MEADOW_{name.upper()} has no lower bound"
    assert {"le", "lt"} & set(found), f"MEADOW_{name.upper()} has no upper bound"


@pytest.mark.parametrize("name", NUMERIC)
@pytest.mark.parametrize("absurd", ["-1", "0", "1000000000000"])
def test_an_absurd_value_is_one_line_naming_it(monkeypatch, name: str, absurd: str):
    found = bounds(name)
    low = found.get("ge", found.get("gt"))
    high = found.get("le", found.get("lt"))
    inside = (float(absurd) > low or ("ge" in found and float(absurd) == low)) and float(
        absurd
    ) <= high
    variable = f"MEADOW_{name.upper()}"
    monkeypatch.setenv(variable, absurd)
    if inside:  # 0 is allowed for a queue, for instance
        settings()
        return
    with pytest.raises(MeadowError) as refused:
        settings()
    line = str(refused.value)
    assert "\n" not in line
    assert line == f"{variable} {absurd}: out of range, {allowed(Settings, name)}"


def test_the_range_in_words():
    assert allowed(Settings, "bot_workers") == "1 to 256"
    assert allowed(Settings, "bot_max_seconds") == "more than 0, up to 600"


def test_bot_workers_zero_is_refused_before_the_server_starts(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-c", "from meadow.cli import main; main()", "serve"],
        capture_output=True,
        text=True,
        env={**os.environ, "MEADOW_BOT_WORKERS": "0"},
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: MEADOW_BOT_WORKERS 0: out of range, 1 to 256"
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "meadow-data").exists()


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("MEADOW_REDIS_URL", "http://cache:6379", "is not a Redis URL"),
        ("MEADOW_PUBLIC_URL", "meadow.example", "is not an address a browser opens"),
        ("MEADOW_LOG_FORMAT", "yaml", "Input should be 'text' or 'json'"),
    ],
)
def test_urls_and_choices_are_checked(monkeypatch, variable: str, value: str, message: str):
    monkeypatch.setenv(variable, value)
    with pytest.raises(MeadowError) as refused:
        settings()
    assert str(refused.value).startswith(f"{variable}: ")
    assert message in str(refused.value)
