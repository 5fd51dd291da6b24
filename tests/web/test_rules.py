"""Rules at hand (issue 21, item 4): each game's rules page, in Meadow's own words and in both
languages, opened from the table's header with that table's options marked; the scoring
summary that otherwise shows only at the end; Mystic Vale's symbols there and no longer on
the table."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from meadow import games
from tests.web.conftest import Player
from tests.web.test_language import COMMON_ENGLISH, WORD, words
from tests.web.test_strings import strings

RULES = Path(__file__).resolve().parents[2] / "meadow" / "web" / "rules"
LANGUAGES = ("en", "de")
SECTIONS = ("goal", "setup", "turn", "end", "scoring")
KINDS = ("p", "h", "ul", "ol", "score")

# What the tests choose in the lobby: something other than the default for every game.
CHOSEN: dict[str, dict[str, Any]] = {
    "topiary": {"take": "optional", "one_tile_diagonals": False},
    "harmonies": {"side": "B", "spirits": True},
    "renature": {"board": "valley"},
    "mystic_vale": {"edition": "german", "vale_of_magic": True},
}
# Names the legend shows that nothing else on a Mystic Vale table shows as text.
LEGEND_ONLY = ("timing.on_purchase", "timing.persistent", "timing.spoil_prevention")


def rules(game: str, language: str) -> dict[str, Any]:
    return json.loads((RULES / f"{game}.{language}.json").read_text(encoding="utf-8"))


def shape(value: Any) -> Any:
    """A rules file with its sentences taken out: what both languages must share."""
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return [shape(item) for item in value]
    if isinstance(value, dict):
        return {k: v if k in ("when", "score") else shape(v) for k, v in value.items()}
    return value


def plain(value: Any) -> str:
    """An option value as the page writes it (JavaScript's String(): true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def applies(when: dict[str, Any], options: dict[str, Any]) -> bool:
    """Whether a block marked `when` holds for these options (the page's own reading)."""
    return all(
        plain(options[name]) in {plain(v) for v in (w if isinstance(w, list) else [w])}
        for name, w in when.items()
    )


def described(game: str) -> list[dict[str, Any]]:
    return games.get(game).describe()["options"]


def choices(option: dict[str, Any]) -> list[Any]:
    return [True, False] if option["type"] == "boolean" else option["choices"]


def chosen_options(game: str) -> dict[str, Any]:
    return {o["name"]: CHOSEN[game].get(o["name"], o["default"]) for o in described(game)}


def all_words(language: str) -> set[str]:
    found: set[str] = set()
    for game in games.ids():
        text = json.dumps(rules(game, language), ensure_ascii=False)
        found |= {w.lower() for w in WORD.findall(text)}
    return found


# -- the files ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", games.ids())
def test_both_languages_have_the_same_rules(game: str) -> None:
    """Every section, block, list item, option value and symbol in English is in German, in
    the same place and for the same options."""
    assert shape(rules(game, "en")) == shape(rules(game, "de"))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", games.ids())
def test_the_rules_file_fits_the_game(game: str, language: str) -> None:
    found = rules(game, language)
    options = {o["name"]: o for o in described(game)}
    assert sorted(found["sections"]) == sorted(SECTIONS)
    for section, blocks in found["sections"].items():
        assert blocks, section
        for block in blocks:
            kinds = [k for k in block if k in KINDS]
            assert len(kinds) == 1, block
            assert set(block) <= {*kinds, "text", "when"}, block
            assert ("text" in block) == (kinds == ["score"]), block
            for name, wanted in block.get("when", {}).items():
                allowed = [plain(v) for v in choices(options[name])]
                values = wanted if isinstance(wanted, list) else [wanted]
                assert all(plain(v) in allowed for v in values), block
    # Each option is explained, only with values it has; each category has its label.
    assert sorted(found["options"]) == sorted(options)
    for name, words_ in found["options"].items():
        assert set(words_) <= {"about", "values"}
        assert set(words_.get("values", {})) <= {plain(v) for v in choices(options[name])}
    labels = strings(language, game)
    scored = {b["score"] for b in found["sections"]["scoring"] if "score" in b}
    assert [key for key in sorted(scored) if f"score.{key}" not in labels] == []
    assert ("legend" in found) == (game == "mystic_vale")


@pytest.mark.parametrize("game", games.ids())
def test_the_scoring_summary_matches_the_engine(game: str) -> None:
    """For the defaults and every value of every option: a random game to its end, and each
    category of its result is explained where it can score, and nothing more."""
    summary = rules(game, "en")["sections"]["scoring"]
    variants = [{}] + [{o["name"]: v} for o in described(game) for v in choices(o)]
    for variant in variants:
        full = games.get(game).options(2, variant).model_dump(mode="json")
        state = games.get(game).setup(2, variant, seed=7)
        rng = random.Random(7)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        categories = set(result.breakdown[0])
        here = {b["score"] for b in summary if "score" in b and applies(b.get("when", {}), full)}
        assert here <= categories, variant
        unexplained = categories - here
        assert all(points[key] == 0 for points in result.breakdown for key in unexplained), variant


# -- the page -----------------------------------------------------------------------------


def open_table(player: Player, game: str, options: dict[str, Any]) -> int:
    """A table against the easy computer, with `options` chosen in the lobby's form."""
    player.open("#/")
    player.page.select_option("#new-table select[name=game]", game)
    player.page.select_option("#new-table select[name=players]", "2")
    player.page.select_option("#new-table select[name=seat1]", "easy")
    for name, value in options.items():
        if isinstance(value, bool):
            player.page.set_checked(f"#new-table input[name={name}]", value)
        else:
            player.page.select_option(f"#new-table select[name={name}]", value)
    player.page.click("#new-table button[type=submit]")
    player.page.wait_for_selector(".table[data-table] .table-head")
    return int(player.page.get_attribute(".table[data-table]", "data-table"))


def follow_rules_link(player: Player, game: str, table: int) -> Player:
    """Click the table header's Rules link; the rules open in a tab of their own."""
    link = player.page.locator(".table-head a.rules-link")
    assert link.get_attribute("target") == "_blank"
    context = player.page.context
    opened: list[Player] = []
    context.on("page", lambda page: opened.append(Player(page, player.base)))
    with context.expect_page():
        link.click()
    (tab,) = opened
    address = f"#/rules/{game}?table={table}"
    tab.page.wait_for_selector("body[data-ready=true]")
    tab.page.wait_for_function("(a) => document.body.dataset.shown === a", arg=address)
    return tab


def visible_words(player: Player) -> set[str]:
    # The same text as tests/web/test_language.py reads: what shows, titles and options.
    text = player.page.evaluate(
        """() => document.body.innerText + ' ' +
            [...document.querySelectorAll('svg text, [title], option')]
                .map(n => n.textContent + ' ' + (n.getAttribute('title') || '')).join(' ')"""
    )
    return {w.lower() for w in WORD.findall(text)}


def text_outside_pictures(player: Player, selector: str) -> list[str]:
    """Every piece of text under `selector` but in SVG (whose <title>s name card symbols),
    shown or folded away."""
    return player.page.evaluate(
        """(selector) => {
            const root = document.querySelector(selector);
            const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            const found = [];
            while (walker.nextNode()) {
                const node = walker.currentNode;
                if (!node.parentElement.closest('svg')) found.push(node.textContent.trim());
            }
            return found;
        }""",
        selector,
    )


@pytest.mark.parametrize("game", games.ids())
def test_rules_from_the_table_mark_its_options(player: Player, game: str) -> None:
    player.sign_up(f"rules-{game.replace('_', '-')}")
    table = open_table(player, game, CHOSEN[game])
    options = chosen_options(game)
    sent = player.page.evaluate(f"fetch('/api/tables/{table}').then(r => r.json())")
    assert sent["options"] == options  # the lobby's form sent what the test chose
    if game == "mystic_vale":
        player.page.wait_for_selector(".mv-header")
        names = {strings("en", game)[key] for key in LEGEND_ONLY}
        assert names.isdisjoint(text_outside_pictures(player, ".table")), (
            "the legend is still on the table"
        )

    tab = follow_rules_link(player, game, table)
    page = tab.page
    found = rules(game, "en")
    root = page.locator(f".rules[data-game={game}][data-table='{table}']")
    assert root.count() == 1
    expected = [*SECTIONS, "options", *(["legend"] if game == "mystic_vale" else [])]
    assert (
        page.eval_on_selector_all("[data-section]", "s => s.map(n => n.dataset.section)")
        == expected
    )
    for section in SECTIONS:
        assert page.locator(f"[data-section={section}] h2 + *").count() == 1
    # The scoring summary: every category, in the file's order.
    scores = page.eval_on_selector_all(
        "[data-section=scoring] [data-score]", "s => s.map(n => n.dataset.score)"
    )
    assert scores == [b["score"] for b in found["sections"]["scoring"] if "score" in b]
    # Each option shows its values, this table's one marked, and only that one.
    for option in described(game):
        values = page.locator(f"[data-option={option['name']}] li[data-value]")
        assert values.count() == len(choices(option))
        marked = page.locator(f"[data-option={option['name']}] li[data-chosen=true]")
        assert marked.count() == 1, option["name"]
        assert marked.get_attribute("data-value") == plain(options[option["name"]])
    # Text that holds only for some option values says whether it holds at this table.
    for section, blocks in found["sections"].items():
        wanted = [plain(applies(b["when"], options)) for b in blocks if "when" in b]
        shown = page.eval_on_selector_all(
            f"[data-section={section}] .rules-conditional", "s => s.map(n => n.dataset.applies)"
        )
        assert shown == wanted, section
    assert page.locator(".rules-standin").count() == len(found["standin"])
    if game == "mystic_vale":
        rows = page.locator("[data-section=legend] tr[data-symbol]")
        assert rows.count() == len(found["legend"])
        for row in rows.all():
            key = row.get_attribute("data-symbol")
            assert row.locator("svg g").count() >= 1, key  # drawn by mystic_vale.js
            assert row.locator("td").last.inner_text() == found["legend"][key]
    # Back to the table from the rules.
    assert page.get_attribute(".rules-table a", "href") == f"#/table/{table}"
    assert tab.errors == []
    assert player.errors == []
    page.close()


def test_german_rules_hold_no_english(player: Player) -> None:
    english = (words("en") | all_words("en") | COMMON_ENGLISH) - words("de") - all_words("de")
    player.sign_up("regelleser")
    player.open("#/profile")
    player.page.select_option("select[name=language]", "de")
    player.page.wait_for_selector("html[lang=de]")
    for game in games.ids():
        table = open_table(player, game, CHOSEN[game])
        assert player.page.inner_text(".table-head a.rules-link") == "Regeln"
        tab = follow_rules_link(player, game, table)
        tab.page.wait_for_selector(".rules [data-section=options]")
        assert (visible_words(tab) & english) - {"regelleser"} == set(), game
        assert tab.errors == []
        tab.page.close()
    # And without a table: the sentence about the lobby instead of the marks.
    player.open("#/rules/renature")
    assert (visible_words(player) & english) - {"regelleser"} == set()
    assert player.errors == []


def test_rules_without_a_table_or_an_account(player: Player) -> None:
    """Anyone may read the rules; a table that cannot be read, or that plays another game,
    leaves the rules unmarked and says why."""
    player.open("#/rules/harmonies")
    player.page.wait_for_selector(".rules[data-game=harmonies] [data-section=options]")
    assert player.page.locator("[data-chosen]").count() == 0
    assert player.page.locator("[data-applies]").count() == 0
    assert player.page.locator(".rules-when").count() > 0  # the conditions are named still
    player.open("#/rules/topiary?table=999999")
    player.page.wait_for_selector(".rules[data-game=topiary] .rules-table")
    assert "999999" in player.page.inner_text(".rules-table")
    assert player.page.locator("[data-chosen]").count() == 0
    player.open("#/rules/chess")
    assert player.page.locator(".rules").count() == 0
    assert player.errors == []


def test_the_replay_links_its_rules(player: Player) -> None:
    player.sign_up("rules-replay")
    player.choose_pace("off")  # the pace has tests of its own (test_motion.py)
    table = open_table(player, "topiary", {"take": "optional"})
    rng = random.Random(3)
    while player.wait_for_turn_or_end():
        player.play_decision(rng)
    player.open(f"#/replay/{table}")
    player.page.wait_for_selector(".replay .table-head a.rules-link")
    tab = follow_rules_link(player, "topiary", table)
    marked = tab.page.locator("[data-option=take] li[data-chosen=true]")
    assert marked.get_attribute("data-value") == "optional"
    assert tab.errors == []
    assert player.errors == []
