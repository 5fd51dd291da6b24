"""The page's and the games' strings: every key in both languages, nothing left empty, and
every placeholder kept in the translation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from meadow import games
from meadow.core.guided import guided

I18N = Path(__file__).resolve().parents[2] / "meadow" / "web" / "i18n"
FILES = ["app", *games.ids()]


def strings(language: str, name: str) -> dict[str, str]:
    return json.loads((I18N / language / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", FILES)
def test_every_key_in_both_languages(name: str) -> None:
    english, german = strings("en", name), strings("de", name)
    assert sorted(set(english) - set(german)) == []
    assert sorted(set(german) - set(english)) == []


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("language", ["en", "de"])
def test_no_empty_string(name: str, language: str) -> None:
    assert [k for k, v in strings(language, name).items() if not v.strip()] == []


@pytest.mark.parametrize("name", FILES)
def test_placeholders_kept(name: str) -> None:
    english, german = strings("en", name), strings("de", name)
    field = re.compile(r"\{(\w+)\}")
    differ = {
        key: (sorted(field.findall(text)), sorted(field.findall(german[key])))
        for key, text in english.items()
        if key in german and sorted(field.findall(text)) != sorted(field.findall(german[key]))
    }
    assert differ == {}


@pytest.mark.parametrize("game", games.all(), ids=lambda g: g.id)
def test_every_option_has_a_label(game: object) -> None:
    """The lobby's form draws each option from the game's description: label, help, choices."""
    for language in ("en", "de"):
        table = strings(language, game.id)
        assert "title" in table
        for option in game.describe()["options"]:
            needed = [f"option.{option['name']}", f"option.{option['name']}.help"]
            needed += [f"option.{option['name']}.{c}" for c in option["choices"] or []]
            assert [key for key in needed if key not in table] == [], language


@pytest.mark.parametrize("game_id", games.ids())
def test_every_note_of_the_guided_game_is_written(game_id: str) -> None:
    """A guided game written again (scripts/make_guided.py) may meet a decision the one before
    did not (Mystic Vale's harvest abilities after its vale cards changed): each of its notes
    must be in the game's strings, in both languages, or the page shows a missing key."""
    notes = {key for keys in guided(game_id).notes.values() for key in keys}
    for language in ("en", "de"):
        assert sorted(notes - set(strings(language, game_id))) == [], language
