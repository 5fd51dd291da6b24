"""German on every page: after switching the language in the profile, no English word is
left on the lobby, the profile, the your-turn list, or any game's table."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from meadow import games
from tests.web.conftest import Player
from tests.web.test_strings import FILES, I18N

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{4,}")
# Words a hard-coded English string would likely hold even if it never was in a string file.
COMMON_ENGLISH = {
    "your",
    "turn",
    "move",
    "moves",
    "game",
    "games",
    "player",
    "players",
    "score",
    "scores",
    "points",
    "table",
    "tables",
    "join",
    "start",
    "create",
    "choose",
    "cancel",
    "undo",
    "pass",
    "round",
    "deck",
    "hand",
    "card",
    "cards",
    "board",
    "with",
    "from",
    "this",
    "that",
    "there",
    "waiting",
    "left",
    "none",
    "open",
    "play",
    "back",
    "next",
    "last",
    "total",
    "place",
}


def names_known_only_in_english() -> set[str]:
    """Card names a source gives only in English (Mystic Vale's S19 vales): shown as written,
    marked `lang=en`, never given an invented German name."""
    vales = json.loads((ROOT / "meadow/games/mystic_vale/data/vales.json").read_text())
    return {v["name"] for v in vales["vales"] if v.get("name_language") == "en"}


def words(language: str) -> set[str]:
    found: set[str] = set()
    for name in FILES:
        for text in json.loads((I18N / language / f"{name}.json").read_text()).values():
            found |= {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", "", text))}
    return found


def english_words_on(player: Player, allowed: set[str]) -> set[str]:
    text = player.page.evaluate(
        """() => document.body.innerText + ' ' +
            [...document.querySelectorAll('svg text, [title], option')]
                .map(n => n.textContent + ' ' + (n.getAttribute('title') || '')).join(' ')"""
    )
    seen = {w.lower() for w in WORD.findall(text)}
    return (seen & ((words("en") | COMMON_ENGLISH) - words("de"))) - allowed


def test_no_english_left_on_german_pages(player: Player) -> None:
    player.sign_up("sprachwechsel")
    player.open("#/profile")
    player.page.select_option("select[name=language]", "de")
    player.page.wait_for_selector("html[lang=de]")
    allowed = {"sprachwechsel"} | {
        w.lower() for name in names_known_only_in_english() for w in WORD.findall(name)
    }
    for address in ("#/", "#/profile", "#/turns"):
        player.open(address)
        player.page.wait_for_selector("main#page > *")
        assert english_words_on(player, allowed) == set(), address
    rng = random.Random(1)
    for game in games.ids():
        player.create_table(game, ["easy"])
        for _ in range(3):  # a few moves, so the move log has lines too
            if not player.wait_for_turn_or_end():
                break
            player.play_decision(rng)
        player.wait_for_turn_or_end()
        assert english_words_on(player, allowed) == set(), game
        if game == "mystic_vale":
            marked = player.page.evaluate(
                """() => [...document.querySelectorAll('text.mv-name')]
                    .map(n => [n.textContent, n.getAttribute('lang')])"""
            )
            # A long name is drawn in lines: a line of an English-only name is one.
            english = names_known_only_in_english()
            shown = [(t, lang) for t, lang in marked if any(t in name for name in english)]
            assert shown and all(lang == "en" for _, lang in shown), marked
    assert player.errors == []


def test_settings_are_kept_with_the_account(player: Player) -> None:
    player.sign_up("settled")
    player.open("#/profile")
    player.page.uncheck("input[name=animations]")
    player.page.wait_for_selector("html.no-animations")
    player.page.check("input[name=colourblind]")
    player.page.wait_for_selector("html.colourblind")
    player.page.select_option("select[name=renature_animals]", "hidden")
    player.page.wait_for_selector("body[data-settings=saved]")
    player.page.reload()  # a fresh page reads them back from the server
    player.page.wait_for_selector("body[data-ready=true]")
    player.open("#/profile")
    assert not player.page.is_checked("input[name=animations]")
    assert player.page.is_checked("input[name=colourblind]")
    assert player.page.input_value("select[name=renature_animals]") == "hidden"
    assert player.page.evaluate("document.documentElement.className") == "no-animations colourblind"
    assert player.errors == []


def test_a_german_browser_is_spoken_to_in_german_until_it_chooses(browser, server) -> None:
    """Issue 20, 10: the first visit speaks the browser's language; an account that never
    chose keeps it; a choice in the profile wins from then on."""
    context = browser.new_context(locale="de-DE", viewport={"width": 1280, "height": 860})
    try:
        player = Player(context.new_page(), server.base)
        player.open("#/login")
        assert player.page.get_attribute("html", "lang") == "de"
        player.sign_up("german-browser")
        assert player.page.get_attribute("html", "lang") == "de"
        player.open("#/profile")
        assert player.page.input_value("select[name=language]") == "de"
        player.page.select_option("select[name=language]", "en")
        player.page.wait_for_function("() => document.documentElement.lang === 'en'")
        player.page.reload()
        player.page.wait_for_selector("body[data-ready=true]")
        assert player.page.get_attribute("html", "lang") == "en"
        assert player.errors == []
    finally:
        context.close()
