"""Two people at one table, as two browsers (issue 20): from the invitation to the rematch
with no reload anywhere; chat both ways, live, shown as text, muted for whoever muted; the
end of the game says what it did to the ratings; chat is kept after a reload and in the
replay. Screenshots of the chat and the end-of-game panel go to docs/screenshots."""

from __future__ import annotations

import random
import re
from pathlib import Path

from tests.web.conftest import Player, next_mover


def say(player: Player, text: str) -> None:
    player.page.fill(".chat-box input[name=chat]", text)
    player.page.press(".chat-box input[name=chat]", "Enter")


def chat_texts(player: Player) -> list[str]:
    return player.page.locator(".chat-box .chat-text").all_inner_texts()


def wait_for_chat(player: Player, text: str) -> None:
    player.page.wait_for_function(
        "(text) => [...document.querySelectorAll('.chat-box .chat-text')]"
        ".some((n) => n.textContent === text)",
        arg=text,
        timeout=3_000,
    )


# How many chat lines the page shows when it first draws the running table: counted as the
# drawing happens (a mutation observer runs before any later message of the socket).
COUNT_CHAT_AT_START = """() => {
  window.meadowChatAtStart = null;
  const seen = new MutationObserver(() => {
    if (!document.querySelector(".table[data-status=running]")) return;
    window.meadowChatAtStart = document.querySelectorAll(".chat-box .chat-text").length;
    seen.disconnect();
  });
  seen.observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def stayed(player: Player) -> bool:
    """True while the page is the same document it was when `mark` ran: no reload."""
    return player.page.evaluate("window.meadowStayed === true")


def mark(player: Player) -> None:
    player.page.evaluate("window.meadowStayed = true")


def test_from_invitation_to_rematch_without_a_reload(
    browser: object, server: object, shots: Path
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    host, guest = (Player(c.new_page(), server.base) for c in contexts)
    host.sign_up("host-social")
    guest.sign_up("mate-social")
    for player in (host, guest):
        player.choose_pace("off")  # the pace has tests of its own (test_motion.py)
    table = host.create_table("topiary", [""])
    invite = host.page.inner_text("code.invite")
    guest.page.goto(invite)
    guest.page.wait_for_selector("body[data-ready=true]")
    for player in (host, guest):
        mark(player)
    guest.page.click("section.card button")  # take the seat
    guest.page.wait_for_selector(f".table[data-table='{table}']")

    # Chat in the waiting room already, both ways, live.
    say(host, "welcome!")
    wait_for_chat(guest, "welcome!")
    say(guest, "thanks, good luck")
    wait_for_chat(host, "thanks, good luck")

    host.page.wait_for_selector("section.waiting button >> nth=1", timeout=2_000)
    for player in (host, guest):
        player.page.evaluate(COUNT_CHAT_AT_START)
    host.page.locator("section.waiting button").first.click()  # start
    for player in (host, guest):
        player.page.wait_for_selector(".table[data-status=running]")
    # The chat stays through the start: the running table is drawn with it, not with an
    # empty box that fills when the new socket's first message comes; and it stays through
    # every move's redraw.
    for player in (host, guest):
        assert player.page.evaluate("window.meadowChatAtStart") == 2
    assert chat_texts(host) == ["welcome!", "thanks, good luck"]

    # A line that looks like HTML shows as the text that was typed, and runs nothing.
    trap = '<img src=x onerror="window.meadowHacked=1"><b>bold</b>'
    say(guest, trap)
    wait_for_chat(host, trap)
    assert host.page.locator(".chat-box b:has-text('bold'), .chat-box img").count() == 0
    assert host.page.evaluate("window.meadowHacked === undefined")
    # The name and the text of each line are isolated: no character runs over a name.
    assert host.page.evaluate(
        "[...document.querySelectorAll('.chat-box .chat-name, .chat-box .chat-text')]"
        ".every((node) => getComputedStyle(node).unicodeBidi === 'isolate')"
    )

    # Typing survives the opponent's move: the box keeps its text and its focus.
    rng = random.Random(11)
    mover = next_mover([host, guest])
    waiting = guest if mover is host else host
    waiting.page.fill(".chat-box input[name=chat]", "half a senten")
    waiting.page.focus(".chat-box input[name=chat]")
    number = int(mover.table_state()["move"])
    mover.wait_for_turn_or_end()
    mover.play_decision(rng)
    waiting.page.wait_for_selector(f".table[data-move='{number + 1}']")
    assert waiting.page.input_value(".chat-box input[name=chat]") == "half a senten"
    assert waiting.page.evaluate("document.activeElement.name") == "chat"
    waiting.page.fill(".chat-box input[name=chat]", "")

    # The guest mutes the host: the host's next line never shows to the guest.
    guest.page.locator(".chat-line:has-text('welcome!') .chat-mute").click()
    guest.page.wait_for_selector(".chat-line:has-text('welcome!')", state="detached")
    say(host, "can you read me?")
    say(guest, "still here")
    wait_for_chat(host, "still here")
    wait_for_chat(host, "can you read me?")
    guest.page.wait_for_timeout(500)
    assert "can you read me?" not in chat_texts(guest)
    host.page.screenshot(path=str(shots / "chat.png"))

    while (mover := next_mover([host, guest])) is not None:
        mover.play_decision(rng)
    for player in (host, guest):
        player.page.wait_for_selector(".after-game .rating-changes li >> nth=1")
    changes = host.page.locator(".after-game .rating-changes li").all_inner_texts()
    assert all(re.search(r"1500 → \d+ \([+−±]", line) for line in changes), changes
    for line in changes:  # the change is the difference of the two numbers shown (issue 47)
        before, after, sign, amount = re.search(r"(\d+) → (\d+) \(([+−±])([\d.]+)\)", line).groups()
        assert int(after) - int(before) == (-1 if sign == "−" else 1) * float(amount), line
    assert changes == guest.page.locator(".after-game .rating-changes li").all_inner_texts()
    host.page.locator(".after-game").screenshot(path=str(shots / "end-of-game.png"))

    # The host offers a rematch; the guest's page offers to join it at once.
    host.page.click(".after-game button.rematch")
    host.page.wait_for_selector(".table[data-status=open]")
    rematch = int(host.page.get_attribute(".table[data-table]", "data-table"))
    assert rematch != table
    guest.page.wait_for_selector(".after-game .rematch-offer:has-text('A rematch is waiting')")
    # And in sight, wherever the page is scrolled to (issue 47: only the changed button at the
    # bottom of the page said so).
    guest.page.evaluate("() => window.scrollTo(0, 0)")
    offer = guest.page.wait_for_selector(".rematch-banner:has-text('A rematch is waiting')")
    box, height = offer.bounding_box(), guest.page.evaluate("() => innerHeight")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    guest.page.click(".rematch-banner button.rematch")
    guest.page.wait_for_selector(f".table[data-table='{rematch}'][data-status=open]")
    host.page.wait_for_selector("section.waiting button >> nth=1", timeout=2_000)
    assert "mate-social" in host.page.inner_text(".seats")
    host.page.locator("section.waiting button").first.click()
    for player in (host, guest):
        player.page.wait_for_selector(f".table[data-table='{rematch}'][data-status=running]")
        assert stayed(player), "a page was reloaded on the way"
        # Each person's rating, as the game before left it, beside their name (issue 47).
        shown = player.page.locator(".table-head .seat-rating").all_inner_texts()
        assert sorted(shown) == sorted(re.search(r"→ (\d+)", line)[1] for line in changes)

    # Found again from the profile (issue 47): the guest is among the people the host played
    # with, and a new table from there keeps the guest a seat, among the guest's tables.
    host.open("#/profile")
    person = host.page.locator(".played-with li[data-name='mate-social']")
    assert "1 game together" in person.inner_text()
    person.locator("a.invite-again").click()
    host.page.wait_for_selector("#new-table .keep-for:has-text('mate-social')")
    host.page.click("#new-table button[type=submit]")
    host.page.wait_for_selector(".table[data-status=open]")
    kept = int(host.page.get_attribute(".table[data-table]", "data-table"))
    guest.open("#/")
    guest.page.wait_for_selector(f".lists [data-table='{kept}']")
    assert host.errors == [] and guest.errors == []
    for context in contexts:
        context.close()


def test_chat_is_kept_after_a_reload_and_in_the_replay(player: Player) -> None:
    player.sign_up("chatty")
    player.choose_pace("off")  # the pace has tests of its own (test_motion.py)
    table = player.create_table("topiary", ["easy"])
    say(player, "first")
    wait_for_chat(player, "first")
    player.wait_for_turn_or_end()
    player.play_decision(random.Random(5))
    say(player, "second")
    wait_for_chat(player, "second")
    player.page.reload()
    player.page.wait_for_selector(".table[data-status=running]")
    wait_for_chat(player, "second")
    assert chat_texts(player) == ["first", "second"]
    # Through to the end, then the replay: each line beside the step it was said at.
    rng = random.Random(6)
    while player.wait_for_turn_or_end():
        player.play_decision(rng)
    player.open(f"#/replay/{table}")
    player.page.wait_for_selector(".replay .chat-box")
    assert chat_texts(player) == ["first", "second"]  # at the end: everything said
    player.page.click("button.step-first")
    player.page.wait_for_selector(".replay[data-step='0']")
    assert chat_texts(player) == ["first"]  # said before the first move
    assert player.page.locator(".replay .chat-box input").count() == 0  # a replay is read
    assert player.errors == []
