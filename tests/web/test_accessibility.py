"""Play by keyboard and screen reader (issue 47): axe-core (the npm package, loaded into the
page) finds no serious or critical WCAG 2.2 AA violation on the lobby, the table of each
game, the replay, the profile and the rules pages; Tab reaches the board, the focus is drawn,
every choice has a name that is words (not the page's internal key), Escape steps back a
pick, and another seat's move is said in the polite live region. The whole game by keyboard
alone is in test_play.py (on a desk)."""

from __future__ import annotations

import json
import os
import random
import re
import secrets
from pathlib import Path

import pytest

from meadow import games
from tests.server.test_analysis import finished_game
from tests.web.conftest import FOCUS, Player, Server

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.0, 2.1 and 2.2, levels A and AA, as axe-core tags its rules.
STANDARD = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@pytest.fixture
def axe(player: Player) -> None:
    """axe-core in every page the player opens from now on (as a script the browser runs
    before the page's own: the site's content security policy allows no inline script)."""
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI must check accessibility, and there is no {AXE} (npm ci)")
        pytest.skip(f"no axe-core at {AXE} (npm ci --prefix tests/web/axe)")
    player.page.add_init_script(path=str(AXE))


def assert_no_serious_violation(player: Player, where: str = "") -> None:
    found = serious_violations(player)
    assert not found, f"{where or player.page.url}:\n" + "\n".join(found)


def serious_violations(player: Player) -> list[str]:
    """What axe-core finds on the page as it stands, serious or critical only, one line each
    (the rule, its impact, how many elements, and the first it names)."""
    page = player.page
    found = page.evaluate(
        "(tags) => axe.run(document, { runOnly: { type: 'tag', values: tags } })", STANDARD
    )
    lines = []
    for violation in found["violations"]:
        if violation["impact"] not in ("serious", "critical"):
            continue
        targets = [json.dumps(node["target"]) for node in violation["nodes"][:3]]
        count = len(violation["nodes"])
        lines.append(f"{violation['id']} ({violation['impact']}, {count}): {', '.join(targets)}")
    return lines


def open_table(player: Player, game: str) -> int:
    player.sign_up(f"a11y-{game.replace('_', '-')}-{secrets.token_hex(3)}")
    player.choose_pace("off")
    table_id = player.create_table(game, ["easy"])
    assert player.wait_for_turn_or_end()
    return table_id


def tab_to_board(player: Player) -> dict[str, object]:
    """Tab from the top of the page until the focus is on the board; where it is then."""
    player.page.locator("body").focus()
    for _ in range(40):
        player.page.keyboard.press("Tab")
        focus = player.page.evaluate(FOCUS)
        if focus["onBoard"]:
            return focus
    raise AssertionError(f"40 presses of Tab never reached the board: {focus}")


def test_lobby_profile_and_rules_pages_pass_axe(player: Player, axe: None) -> None:
    player.open("#/")
    assert_no_serious_violation(player)
    player.sign_up(f"a11y-{secrets.token_hex(3)}")
    for address in ["#/", "#/profile", *(f"#/rules/{game}" for game in games.ids())]:
        player.open(address)
        assert_no_serious_violation(player, address)
    assert player.errors == []


def test_a_replay_passes_axe_and_shows_the_log_so_far(
    player: Player, server: Server, axe: None
) -> None:
    host = server.client().signup(f"replayed-{secrets.token_hex(3)}")
    table_id = finished_game(host)
    moves = len(host.get(f"/api/tables/{table_id}/record").json()["actions"])
    player.sign_up(f"a11y-replay-{secrets.token_hex(3)}")
    player.open(f"#/replay/{table_id}")
    page = player.page
    page.wait_for_selector(".board")
    assert_no_serious_violation(player)
    # Issue 47: the replay showed only the step's own line; now the log up to the step.
    assert page.locator(".replay ol.log li").count() == moves
    # The last line names the winner, in every game (the page says the end itself).
    last = page.locator(".replay ol.log li").first.inner_text()
    assert re.search(r"The game is over: .+ (wins with|share first place with) \d+ points", last)
    page.click(".replay-controls .step-back")
    page.wait_for_selector(f".replay[data-step='{moves - 1}']")
    assert page.locator(".replay ol.log li").count() == moves - 1
    assert page.locator(".replay ol.log li").first.get_attribute("data-number") == str(moves - 1)
    assert player.errors == []


@pytest.mark.parametrize("game", games.ids())
def test_each_table_passes_axe_and_its_choices_are_named_and_reached_by_tab(
    player: Player, axe: None, game: str
) -> None:
    open_table(player, game)
    assert_no_serious_violation(player)
    focus = tab_to_board(player)
    # One stop for the board in the tab order; every choice a button named in words, as
    # Chromium's accessibility tree has it.
    ring = player.page.evaluate(
        "() => [...document.querySelectorAll('.board [data-key][tabindex]')]"
        ".map((n) => n.dataset.key)"
    )
    assert ring, "nothing on the board can be chosen"
    assert player.page.locator(".board [data-key][tabindex='0']").count() == 1
    tree = player.page.locator(".board").aria_snapshot()
    buttons = re.findall(r'\bbutton "([^"]*)"', tree)
    assert len(buttons) >= len(ring), tree[:2000]
    unnamed = [name for name in buttons if not name.strip() or name in ring]
    assert not unnamed, f"choices without a name in words: {unnamed[:5]}"
    # The focus is drawn: a ring in the site's green, not the browser's default.
    ring = player.page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); "
        "return [s.outlineStyle, s.outlineColor, s.outlineWidth]; }"
    )
    assert ring == ["solid", "rgb(61, 122, 58)", "3px"], (focus, ring)
    assert player.errors == []


def test_arrows_enter_and_escape_pick_and_step_back(player: Player) -> None:
    # Renature: laying a domino is two picks (the domino, then its space), so there is a pick
    # to take back.
    open_table(player, "renature")
    page = player.page
    first = tab_to_board(player)
    page.keyboard.press("ArrowRight")
    moved = page.evaluate(FOCUS)
    assert moved["key"] != first["key"] and moved["onBoard"]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(FOCUS)["key"] == first["key"]
    for _ in range(len(first["ring"])):
        if page.evaluate(FOCUS)["key"].startswith("domino:"):
            break
        page.keyboard.press("ArrowRight")
    domino = page.evaluate(FOCUS)["key"]
    assert domino.startswith("domino:"), first["ring"]
    page.keyboard.press("Enter")
    page.wait_for_selector(f'.board [data-key="{domino}"].picked')
    # The redraw keeps the keyboard on the board, its ring drawn.
    focus = page.evaluate(FOCUS)
    assert focus["onBoard"] and focus["key"], focus
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.board .picked')")
    assert page.evaluate(FOCUS)["onBoard"]
    assert player.errors == []


def test_the_other_seats_move_is_said_in_the_live_region(player: Player) -> None:
    open_table(player, "topiary")
    region = player.page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    rng = random.Random(1)
    while player.table_state()["myTurn"] == "true":  # our whole turn
        player.play_decision(rng)
    # Then the computer's: its name and what it did, in words.
    player.page.wait_for_function("() => document.querySelector('#announce').textContent !== ''")
    said = region.text_content() or ""
    assert said.startswith("Computer (easy): ") and len(said) > 20, said
    assert player.errors == []
