"""For each game: a newcomer signs up, sets a table against a computer opponent from the
lobby, and plays the whole game choosing only what the page highlights: on a desk (1440 x
1000) with the keyboard alone (Tab, arrow keys, Enter), on a phone (390 x 844) by touch. The
final scores are then on the page. At every decision no page scrolls sideways and the step's
prompt and buttons are in sight; on a phone every target is a thumb wide (44 px, after
enlarging the board where it is finer)."""

from __future__ import annotations

import random
from contextlib import suppress
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from meadow import games
from tests.web.conftest import Player, Server

LAYOUTS = {
    "desk": {"viewport": {"width": 1440, "height": 1000}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
THUMB = 40  # px: the least a target may measure on a phone (the page aims at 44)

# Enough decisions to reach the end of any of the four games against one opponent.
MAX_DECISIONS = 600


def lights_something(player: Player) -> bool:
    """Whether the mouse over some line of the move log lights what it names on the board."""
    for line in player.page.locator("ol.log li").filter(visible=True).all()[:8]:
        line.hover()
        if player.page.locator(".board .spotlight").count():
            player.page.mouse.move(0, 0)
            return True
    return False


def settle(player: Player) -> None:
    """Let the last move's short animation end, so a screenshot shows the board at rest."""
    player.page.wait_for_timeout(1000)


def no_sideways_scroll(player: Player, width: int) -> None:
    scroll, inner = player.page.evaluate(
        "() => [document.scrollingElement.scrollWidth, window.innerWidth]"
    )
    assert (scroll, inner) == (width, width), f"{player.page.url}: {scroll} px wide"


def actions_in_sight(player: Player) -> None:
    top, bottom, height = player.page.evaluate(
        """() => { const box = document.querySelector('.actions').getBoundingClientRect();
                   return [box.top, box.bottom, window.innerHeight]; }"""
    )
    assert top >= 0 and bottom <= height, f"the action bar is at {top:.0f}-{bottom:.0f}"


def smallest_target(player: Player) -> float:
    return player.page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('.board .choosable')]
            .map((n) => n.getBoundingClientRect()).filter((b) => b.width && b.height)
            .map((b) => Math.min(b.width, b.height)), 1e9)"""
    )


def thumb_wide(player: Player) -> None:
    """Every target at least a thumb wide, enlarging the board once if it is finer."""
    if smallest_target(player) < THUMB and player.page.get_attribute(
        ".zoom-toggle", "aria-pressed"
    ) in (None, "false"):
        player.page.tap(".zoom-toggle")
        player.page.wait_for_selector(".board.zoomed")
    assert smallest_target(player) >= THUMB


def own_board_first(player: Player) -> None:
    """Harmonies on a phone: while the tokens taken are placed, the player's own board comes
    before the central board."""
    above = player.page.evaluate(
        """() => {
            if (!document.querySelector('.hm-table.hm-placing')) return null;
            const own = document.querySelector('.hm-boards').getBoundingClientRect().top;
            const central = document.querySelector('[data-spot^="central:"]');
            return own < central.getBoundingClientRect().top;
        }"""
    )
    assert above in (None, True)


@pytest.fixture(params=list(LAYOUTS))
def layout(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def seated(browser: object, server: Server, layout: str) -> Player:
    context = browser.new_context(**LAYOUTS[layout])
    player = Player(context.new_page(), server.base)
    player.touch = layout == "phone"
    player.keyboard = layout == "desk"
    yield player
    context.close()


@pytest.mark.parametrize("game", games.ids())
def test_a_whole_game_by_keyboard_or_touch(
    seated: Player, layout: str, game: str, shots: Path
) -> None:
    player = seated
    width = LAYOUTS[layout]["viewport"]["width"]
    suffix = "" if layout == "desk" else "-phone"
    rng = random.Random(game)
    player.sign_up(f"{layout}-{game.replace('_', '-')}")
    player.choose_pace("off")  # the pace has tests of its own (test_motion.py)
    player.create_table(game, ["easy"])
    player.wait_for_turn_or_end()
    settle(player)
    if layout == "desk":
        player.page.screenshot(path=str(shots / f"{game}-start.png"))
    decisions = 0
    while player.wait_for_turn_or_end():
        no_sideways_scroll(player, width)
        actions_in_sight(player)
        if layout == "phone":
            thumb_wide(player)
            own_board_first(player)
        player.play_decision(rng)
        decisions += 1
        if decisions == 12:
            settle(player)
            player.page.screenshot(path=str(shots / f"{game}-middle{suffix}.png"))
            if layout == "desk":
                assert lights_something(player), "no line of the move log names a spot"
        assert decisions < MAX_DECISIONS, "the game did not end"
    scores = player.page.locator(".result table.scores")
    scores.wait_for()
    settle(player)
    if layout == "desk":
        player.page.screenshot(path=str(shots / f"{game}-end.png"), full_page=True)
    assert scores.locator("tr[data-seat]").count() == 2
    final = scores.locator("td.total").all_inner_texts()
    assert all(text.lstrip("-").isdigit() for text in final)
    assert player.errors == []

    # The replay ends where the game ended, and goes back to the set-up.
    player.page.click(".replay-link")
    player.page.wait_for_selector(".replay .result table.scores")
    assert player.page.locator(".replay .result td.total").all_inner_texts() == final
    assert "null" not in player.page.inner_text(".replay")
    player.page.click(".replay-controls .step-first")
    player.page.wait_for_selector(".replay[data-step='0']")
    assert player.page.locator(".replay .result").count() == 0
    # Issue 20: every step but the last printed the word "null" under the board.
    for step in range(1, 4):
        player.page.keyboard.press("ArrowRight")
        player.page.wait_for_selector(f".replay[data-step='{step}']")
        assert "null" not in player.page.inner_text(".replay"), f"step {step}"
    assert player.errors == []
    no_sideways_scroll(player, width)
    for page in ("#/", "#/profile", "#/turns", f"#/rules/{game}"):
        player.open(page)
        no_sideways_scroll(player, width)


def test_the_board_can_be_enlarged_on_a_desk(player: Player) -> None:
    """Issue 47: the zoom was a phone's only. On a desk it enlarges the board within its
    frame, which scrolls; the page still does not scroll sideways."""
    player.sign_up("desk-zoom")
    player.choose_pace("off")
    player.create_table("harmonies", ["easy"])
    player.wait_for_turn_or_end()
    page = player.page
    before = page.locator(".board").bounding_box()
    page.click(".zoom-toggle")
    page.wait_for_selector(".board.zoomed")
    after = page.locator(".board").bounding_box()
    assert after["width"] >= 1.4 * before["width"], (before, after)
    assert page.get_attribute(".zoom-toggle", "aria-pressed") == "true"
    no_sideways_scroll(player, 1280)
    page.click(".zoom-toggle")
    page.wait_for_selector(".board:not(.zoomed)")
    assert player.errors == []


# Records whether the game's style sheet was in force when its board's first card was drawn.
FIRST_CARD = """
new MutationObserver((changes, observer) => {
    if (!document.querySelector('.hm-card')) return;
    const sheets = [...document.styleSheets].map((sheet) => sheet.href || '');
    window.styledAtFirstCard = sheets.some((href) => href.endsWith('/games/harmonies.css'));
    observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


def test_a_board_is_never_drawn_before_its_style_sheet(player: Player) -> None:
    """The game's style sheet is held back: the board waits for it, never shown unstyled (a
    CI run found a Harmonies card 912 px wide, a whole row, measured in that moment)."""
    page = player.page
    page.add_init_script(FIRST_CARD)
    held: list[tuple[object, object]] = []

    def hold(route: object) -> None:
        if route.request.method != "GET":
            route.continue_()
            return
        held.append((route, route.fetch()))

    page.route("**/games/harmonies.css", hold)
    player.sign_up("styled-first")
    player.open("#/")
    page.select_option("#new-table select[name=game]", "harmonies")
    page.select_option("#new-table select[name=seat1]", "easy")
    page.click("#new-table button[type=submit]")
    while not held:  # Playwright's handler runs while the page is waited on
        page.wait_for_timeout(50)
    with suppress(PlaywrightTimeout):  # a board drawn without its sheet is drawn by now
        page.wait_for_selector(".hm-card", timeout=3000)
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_selector(".hm-display .hm-card")
    assert page.evaluate("window.styledAtFirstCard") is True
    card = page.locator(".hm-display .hm-card").first.bounding_box()
    assert card["width"] < page.viewport_size["width"] / 4, card
    page.unroute("**/games/harmonies.css")
    assert player.errors == []
