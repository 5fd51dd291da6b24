"""A real `meadow serve` and Debian's Chromium driven by Playwright: what a player's browser
does, click by click. Screenshots go to docs/screenshots when MEADOW_SCREENSHOTS=1 (to refresh
the README's pictures), to a temporary folder otherwise."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from tests.server.conftest import Server

CHROMIUM = "/usr/bin/chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Browser tests run on SQLite: the server suite covers PostgreSQL for the same API.
    found = Server(tmp_path_factory.mktemp("web"), None, env={"MEADOW_BOT_WORKERS": "1"})
    found.start()
    yield found
    found.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, and there is no {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    if os.environ.get("MEADOW_SCREENSHOTS"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path


# Where the keyboard's focus is: its key, whether on the board, and the board's choices in
# the order the arrow keys go through them.
FOCUS = """() => {
    const node = document.activeElement;
    const ring = [...document.querySelectorAll('.table .board [data-key][tabindex]')];
    return { key: (node && node.dataset && node.dataset.key) || null,
             onBoard: Boolean(node && node.closest && node.closest('.table .board')),
             ring: ring.map((n) => n.dataset.key) };
}"""


class Player:
    """One person in one browser context: signs up, creates tables, clicks."""

    def __init__(self, page: object, base: str) -> None:
        self.page = page
        self.base = base
        self.touch = False  # a phone: taps, not clicks
        self.keyboard = False  # the keyboard alone: Tab, arrows and Enter, never a click
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))

    def _console(self, message: object) -> None:
        # The browser logs refused requests and sockets that could not connect (while a
        # server restarts); what counts here is what the page itself reports (a missing
        # translation, a conflict between paths).
        network = ("Failed to load resource", "WebSocket connection to")
        if message.type == "error" and not message.text.startswith(network):
            self.errors.append(message.text)

    def open(self, address: str = "#/") -> None:
        """Go to a page and wait until it is drawn (a new address within the site is no
        new document: the page draws it after its requests are answered)."""
        self.page.goto(self.base + "/" + address)
        self.page.wait_for_selector("body[data-ready=true]")
        self.page.wait_for_function("(a) => document.body.dataset.shown === a", arg=address)

    def sign_up(self, name: str, password: str = "correct horse") -> None:
        self.open("#/signup")
        self.page.fill("input[name=name]", name)
        self.page.fill("input[name=password]", password)
        self.page.click("form button[type=submit]")
        self.page.wait_for_selector("#new-table")

    def choose_pace(self, pace: str, animations: bool = True) -> None:
        """Profile: how other seats' moves are shown (off, normal, slow), and animations.
        Tests about something else than the pace choose "off": each of the other side's
        moves then lands at once instead of after its pause (0.9 s at the normal pace),
        which is most of the time a whole game takes in a browser."""
        self.open("#/profile")
        self.page.select_option("select[name=move_pace]", pace)
        self.page.wait_for_selector("body[data-settings=saved]")
        if not animations:
            self.page.uncheck("input[name=animations]")
            self.page.wait_for_selector("html.no-animations")
            self.page.wait_for_selector("body[data-settings=saved]")

    def create_table(
        self,
        game: str,
        seats: list[str],
        options: dict[str, str] | None = None,
        move_seconds: int | None = None,
        game_minutes: int | None = None,
    ) -> int:
        """From the lobby's form: `seats` for seats 2.. ('easy', 'medium', 'hard' or '' for a
        person). Returns the table's number once its page is open."""
        self.open("#/")
        self.page.select_option("#new-table select[name=game]", game)
        self.page.select_option("#new-table select[name=players]", str(len(seats) + 1))
        for number, seat in enumerate(seats, start=1):
            self.page.select_option(f"#new-table select[name=seat{number}]", seat)
        for name, value in (options or {}).items():
            self.page.select_option(f"#new-table select[name={name}]", value)
        if move_seconds is not None:
            self.page.fill("#new-table input[name=move_seconds]", str(move_seconds))
        if game_minutes is not None:
            self.page.fill("#new-table input[name=game_minutes]", str(game_minutes))
        self.page.click("#new-table button[type=submit]")
        self.page.wait_for_selector(".table[data-table]")
        return int(self.page.get_attribute(".table[data-table]", "data-table"))

    def table_state(self) -> dict[str, str]:
        return self.page.eval_on_selector(".table", "t => ({...t.dataset})")

    def stalled(self) -> dict[str, object]:
        """What the table shows: its state, what can be clicked, the bar, the log's latest
        lines (the log lists the latest first)."""
        return self.page.evaluate(
            """() => {
                const t = document.querySelector('.table');
                const text = sel => [...document.querySelectorAll(sel)].map(e => e.textContent);
                return {
                    table: t ? {...t.dataset} : null,
                    choosable: document.querySelectorAll('.choosable').length,
                    bar: text('.actions button').slice(0, 12),
                    log: text('.log-box li').slice(0, 6),
                    notice: text('#notice'),
                };
            }"""
        ) | {"errors": self.errors}

    def wait_for_turn_or_end(self, timeout: float = 60_000) -> bool:
        """True when it is our move (something to click), False when the game is over. Waits
        as long as the page goes on showing moves: a long turn of the computer's is shown
        move by move at the pace. Fails once no move has been shown for `timeout` ms."""
        while True:
            shown = self.page.evaluate(
                "() => { const t = document.querySelector('.table'); return t && t.dataset.move; }"
            )
            try:
                self.page.wait_for_function(
                    """(shown) => {
                        const t = document.querySelector('.table');
                        return t && (t.dataset.over === 'true' || t.dataset.move !== shown ||
                            (t.dataset.myTurn === 'true' && t.querySelector('.choosable')));
                    }""",
                    arg=shown,
                    timeout=timeout,
                )
            except PlaywrightTimeout:
                raise AssertionError(f"no turn and no end in sight: {self.stalled()}") from None
            state = self.table_state()
            if state["over"] == "true":
                return False
            if state["myTurn"] == "true" and self.page.locator(".table .choosable").count():
                return True

    def click_something(self, rng: random.Random) -> str:
        """Click one of the highlighted things (on the board or in the action bar)."""
        choosable = self.page.locator(".table .choosable")
        pick = choosable.nth(rng.randrange(choosable.count()))
        key = pick.get_attribute("data-key") or ""
        # The click itself is what may take at most a few seconds. Playwright's wait after it
        # (for the page to settle) can outlast that on a loaded 2-core machine while Mystic
        # Vale redraws, so the caller waits for its own sign that the click was taken.
        if self.keyboard:
            self.choose_by_keyboard(key)
        elif self.touch:
            pick.tap(timeout=5000, no_wait_after=True)
        else:
            pick.click(timeout=5000, no_wait_after=True)
        return key

    def choose_by_keyboard(self, key: str) -> None:
        """Reach `key` as a person without a mouse would, and choose it: Tab until the focus
        is on the board (or on the button, for a key of the action bar), then the arrow keys
        along the board's choices, then Enter."""
        page = self.page
        for _ in range(80):
            focus = page.evaluate(FOCUS)
            if focus["key"] == key:
                page.keyboard.press("Enter")
                return
            if key.startswith("button:") or not focus["onBoard"]:
                page.keyboard.press("Tab")
                continue
            # On the board: Left or Right, whichever reaches the key in fewer steps.
            ring, at = focus["ring"], focus["ring"].index(focus["key"])
            assert key in ring, f"{key} cannot be reached from the keyboard: {ring}"
            ahead = (ring.index(key) - at) % len(ring)
            arrow, steps = (
                ("ArrowRight", ahead)
                if ahead <= len(ring) / 2
                else ("ArrowLeft", len(ring) - ahead)
            )
            for _ in range(steps):
                page.keyboard.press(arrow)
        raise AssertionError(f"the keyboard did not reach {key}: {page.evaluate(FOCUS)}")

    def play_decision(self, rng: random.Random) -> None:
        """Click highlighted things until the move is sent (the move number changes)."""
        before = self.table_state()["move"]
        for _ in range(12):
            self.click_something(rng)
            self.page.wait_for_function(
                """([before]) => {
                    const t = document.querySelector('.table');
                    return t.dataset.move !== before || t.querySelector('.choosable') ||
                        t.dataset.myTurn !== 'true';
                }""",
                arg=[before],
            )
            state = self.table_state()
            if state["move"] != before or state["myTurn"] != "true":
                return
            if not self.page.locator(".table .picked").count():
                return  # the move was sent; the page waits for the server's answer
        raise AssertionError(f"twelve clicks and still no move at move {before}")


def next_mover(players: list[Player], timeout: float = 30.0) -> Player | None:
    """The player whose page offers a move, once its page has shown every move before it
    (other seats' moves are shown one at a time); None once the game is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for player in players:
            state = player.table_state()
            if state.get("over") == "true":
                return None
            if state["myTurn"] == "true" and player.page.locator(".table .choosable").count():
                return player
        players[0].page.wait_for_timeout(100)
    raise AssertionError("no page offered a move")


@pytest.fixture
def player(browser: object, server: Server) -> Iterator[Player]:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    yield Player(context.new_page(), server.base)
    context.close()
