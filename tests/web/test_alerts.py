"""Turn alerts and the "computer is thinking" hint (issue 20, 7).

A turn alert is a browser notification and a short sound when the move comes to a player
whose tab is hidden, each only if turned on in the profile. Playwright cannot hide a tab: an
init script makes `document.hidden` say what the test wants (`window.__alerts.hidden`), and
puts recorders in place of `Notification` and `AudioContext`. It also counts each time the
table's `data-my-turn` goes from false to true, so a test knows when the move came back to it
without trusting the code under test."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Server
from tests.web.conftest import Player

FAKES = """
(() => {
  const fake = window.__fake || {};
  const alerts = { hidden: false, notifications: [], tones: [], came: 0 };
  window.__alerts = alerts;
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true,
    get: () => alerts.hidden,
  });
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true,
    get: () => (alerts.hidden ? "hidden" : "visible"),
  });
  if (fake.notifications === false) {
    delete window.Notification;
  } else {
    class RecordedNotification {
      constructor(title, options = {}) {
        this.title = title;
        this.body = options.body;
        this.tag = options.tag;
        this.closed = false;
        this.hidden = document.hidden;
        alerts.notifications.push(this);
      }
      close() {
        this.closed = true;
      }
      static requestPermission() {
        RecordedNotification.permission = fake.answer || "granted";
        return Promise.resolve(RecordedNotification.permission);
      }
    }
    RecordedNotification.permission = fake.permission || "granted";
    window.Notification = RecordedNotification;
  }
  class RecordedAudio {
    constructor() {
      this.state = "running";
      this.currentTime = 0;
      this.destination = {};
    }
    resume() {
      return Promise.resolve();
    }
    createGain() {
      const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {}, value: 1 };
      return { gain: param, connect: (to) => to };
    }
    createOscillator() {
      const tone = { type: "", pitch: null };
      tone.frequency = { setValueAtTime: (v) => (tone.pitch = v), value: 440 };
      tone.connect = (to) => to;
      tone.start = () => alerts.tones.push(tone.pitch || tone.frequency.value);
      tone.stop = () => {};
      return tone;
    }
  }
  window.AudioContext = RecordedAudio;
  window.webkitAudioContext = RecordedAudio;
  // Each time a table's data-my-turn turns from false to true: the move came to this seat.
  new MutationObserver((records) => {
    for (const r of records) {
      const now = r.target.getAttribute("data-my-turn");
      if (r.oldValue === "false" && now === "true") alerts.came += 1;
    }
  }).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ["data-my-turn"],
    attributeOldValue: true,
  });
})();
"""


@pytest.fixture
def contexts(browser: object) -> Iterator[list[object]]:
    """Browser contexts made by the test, closed after it however it ends."""
    made: list[object] = []
    yield made
    for context in made:
        context.close()


def faked(browser: object, server: Server, made: list[object], **fake: Any) -> Player:
    """A player in a context of its own, with the hidden tab and the recorders in place.
    `fake`: `permission` (what the browser says now), `answer` (to a request),
    `notifications=False` for a browser without the API."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    made.append(context)
    context.add_init_script(script=f"window.__fake = {json.dumps(fake)};\n{FAKES}")
    return Player(context.new_page(), server.base)


ALERTS_ON = {"turn_notification": True, "turn_sound": True}


def recorded(player: Player) -> dict[str, Any]:
    return player.page.evaluate(
        """() => ({
            notifications: window.__alerts.notifications.map((n) => ({
                title: n.title, body: n.body, hidden: n.hidden })),
            tones: window.__alerts.tones,
            came: window.__alerts.came,
        })"""
    )


def hide(player: Player, hidden: bool) -> None:
    player.page.evaluate("(h) => { window.__alerts.hidden = h; }", hidden)


def api(player: Player, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    request = player.page.request
    csrf = request.get(player.base + "/api/accounts/me").json()["csrf"]
    answer = request.fetch(
        player.base + path, method=method, data=body, headers={"X-CSRF-Token": csrf}
    )
    assert answer.ok, answer.text()
    return answer.json() if answer.status != 204 else None


def turn_comes_back(player: Player, rng: random.Random) -> None:
    """Play this seat's decisions until its turn is over and the move has come back to it."""
    came = recorded(player)["came"]
    for _ in range(8):
        assert player.wait_for_turn_or_end(timeout=30_000), "the game ended first"
        if recorded(player)["came"] > came:
            return
        player.play_decision(rng)
    raise AssertionError("eight decisions and the move never came back")


def tick(player: Player, name: str) -> None:
    """Tick a settings box, and wait until it is saved and the profile drawn again."""
    page = player.page
    page.eval_on_selector(f"input[name={name}]", "box => box.classList.add('before')")
    page.click(f"input[name={name}]")
    page.wait_for_selector(f"input[name={name}]:not(.before)")  # drawn again once saved
    page.wait_for_selector("body[data-settings=saved]")


def test_turn_alert_settings_are_off_by_default_and_kept(browser: object, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        context.grant_permissions(["notifications"])  # the real API: the browser allows it
        player = Player(context.new_page(), server.base)
        player.sign_up("alert-settings")
        player.open("#/profile")
        assert not player.page.is_checked("input[name=turn_notification]")
        assert not player.page.is_checked("input[name=turn_sound]")
        tick(player, "turn_notification")
        tick(player, "turn_sound")
        assert player.page.is_checked("input[name=turn_notification]")
        assert player.page.is_checked("input[name=turn_sound]")
        player.page.reload()  # a fresh page reads them back from the server
        player.page.wait_for_selector("body[data-ready=true]")
        player.open("#/profile")
        assert player.page.is_checked("input[name=turn_notification]")
        assert player.page.is_checked("input[name=turn_sound]")
        settings = api(player, "GET", "/api/accounts/me")["settings"]
        assert settings["turn_notification"] is True and settings["turn_sound"] is True
        assert player.errors == []
    finally:
        context.close()


@pytest.mark.parametrize(
    ("fake", "said"),
    [
        ({"permission": "default", "answer": "denied"}, "The browser did not allow notifications"),
        ({"notifications": False}, "This browser cannot show notifications."),
    ],
    ids=["refused", "no-api"],
)
def test_a_refused_notification_stays_off_and_says_why(
    browser: object, server: Server, contexts: list[object], fake: dict[str, Any], said: str
) -> None:
    player = faked(browser, server, contexts, **fake)
    player.sign_up(f"alert-{'refused' if 'answer' in fake else 'no-api'}")
    player.open("#/profile")
    tick(player, "turn_notification")
    assert not player.page.is_checked("input[name=turn_notification]")
    notice = player.page.wait_for_selector("#notice:not([hidden])")
    assert said in notice.inner_text()
    assert api(player, "GET", "/api/accounts/me")["settings"]["turn_notification"] is False
    assert player.errors == []


def test_a_notification_and_a_sound_when_the_move_comes_to_a_hidden_tab(
    browser: object, server: Server, contexts: list[object]
) -> None:
    rng = random.Random(20)
    player = faked(browser, server, contexts)
    player.sign_up("alert-on")
    api(player, "PUT", "/api/accounts/me/settings", ALERTS_ON)
    player.page.reload()  # the page reads the settings anew
    player.page.wait_for_selector("body[data-ready=true]")
    table = player.create_table("topiary", ["easy"])
    player.wait_for_turn_or_end()

    # Looking at the page: the move comes back and nothing rings.
    turn_comes_back(player, rng)
    assert recorded(player)["notifications"] == [] and recorded(player)["tones"] == []

    # In the background: one notification and two tones when the move comes back, none for
    # the echoes of this seat's own decisions before that.
    hide(player, True)
    turn_comes_back(player, rng)
    seen = recorded(player)
    assert seen["notifications"] == [
        {"title": "Topiary", "body": f"Your move at table {table}", "hidden": True}
    ]
    assert len(seen["tones"]) == 2 and seen["tones"][0] < seen["tones"][1]
    # A click on it brings the window forward and closes it.
    closed = player.page.evaluate(
        "() => { const n = window.__alerts.notifications[0]; n.onclick(); return n.closed; }"
    )
    assert closed is True
    assert player.errors == []


def test_no_alert_with_the_settings_off_nor_for_a_spectator(
    browser: object, server: Server, contexts: list[object]
) -> None:
    rng = random.Random(21)
    player = faked(browser, server, contexts)
    player.sign_up("alert-off")  # the settings as they come: off
    table = player.create_table("topiary", ["easy"])
    watcher = faked(browser, server, contexts)
    watcher.sign_up("alert-watcher")
    api(watcher, "PUT", "/api/accounts/me/settings", ALERTS_ON)
    watcher.page.reload()
    watcher.page.wait_for_selector("body[data-ready=true]")
    watcher.open(f"#/table/{table}")
    watcher.page.wait_for_selector(f".table[data-table='{table}'][data-status=running]")
    player.wait_for_turn_or_end()
    hide(player, True)
    hide(watcher, True)
    turn_comes_back(player, rng)
    move = player.table_state()["move"]
    watcher.page.wait_for_selector(f".table[data-move='{move}']", timeout=20_000)
    assert recorded(player)["notifications"] == [] and recorded(player)["tones"] == []
    assert recorded(watcher)["notifications"] == [] and recorded(watcher)["tones"] == []
    assert player.errors == [] and watcher.errors == []


def bot_thinking(player: Player, rng: random.Random) -> dict[str, Any]:
    """Play this seat's decisions until the bot's seat shows the mark. What the page showed
    at that moment, read at once (the bot's move may come any time after): the mark's text
    and animation, how many marks there were, and the move number."""
    for _ in range(12):
        found = player.page.wait_for_function(
            """() => {
                const t = document.querySelector('.table');
                const mark = t.querySelector("ul.seats li[data-seat='1'] .thinking");
                if (mark) return {
                    text: mark.textContent,
                    animation: getComputedStyle(mark).animationName,
                    marks: t.querySelectorAll('.thinking').length,
                    move: t.dataset.move,
                };
                return t.dataset.myTurn === 'true' && t.querySelector('.choosable') && {mine: true};
            }""",
            timeout=30_000,
        ).json_value()
        if "mine" not in found:
            return found
        player.play_decision(rng)
    raise AssertionError("twelve decisions and the bot never thought for long")


def test_a_computer_thinking_a_while_shows_it_on_its_seat(player: Player) -> None:
    rng = random.Random(22)
    player.sign_up("waits-for-bot")
    # A bot that takes two seconds a decision: the mark shows after 0.7 s of silence.
    body = {"game": "topiary", "players": 2, "seats": [None, "mcts:2s"]}
    table = api(player, "POST", "/api/tables", body)["id"]
    api(player, "POST", f"/api/tables/{table}/start")
    player.open(f"#/table/{table}")
    player.wait_for_turn_or_end()
    page = player.page
    page.wait_for_timeout(1000)
    assert page.locator(".thinking").count() == 0  # our own move: nobody is thinking

    shown = bot_thinking(player, rng)
    assert shown["text"] == "thinking…" and shown["animation"] == "thinking"
    assert shown["marks"] == 1  # on the bot's seat only

    # Gone the moment the bot's move arrives (checked in the page, as the move is drawn).
    left = page.wait_for_function(
        """(before) => {
            const t = document.querySelector('.table');
            return t.dataset.move !== before && {marks: t.querySelectorAll('.thinking').length};
        }""",
        arg=shown["move"],
        timeout=10_000,
    ).json_value()
    assert left == {"marks": 0}

    # Still, with the animations turned off, or with reduced motion.
    page.evaluate("() => document.documentElement.classList.add('no-animations')")
    assert bot_thinking(player, rng)["animation"] == "none"
    page.evaluate("() => document.documentElement.classList.remove('no-animations')")
    page.emulate_media(reduced_motion="reduce")
    assert bot_thinking(player, rng)["animation"] == "none"
    assert player.errors == []
