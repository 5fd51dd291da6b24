"""Mystic Vale told in words (issue 47: a harvest was one log line naming cards by number,
"reveals card 12 · card 12 into the field"): the log names each card by what it is, its
advancements or a blank card, with the number drawn on it, a line for each step."""

from __future__ import annotations

import itertools
import random
import re

from tests.web.conftest import Player


def test_the_log_names_cards_by_what_they_are(player: Player) -> None:
    player.sign_up("vale-words")
    player.choose_pace("off")
    player.create_table("mystic_vale", ["easy"])
    rng = random.Random(5)
    for _ in range(6):
        if not player.wait_for_turn_or_end():
            break
        player.play_decision(rng)
    # textContent: the lines of a folded turn are not drawn, and innerText reads only drawn ones.
    lines = player.page.locator("ol.log li .what").all_text_contents()
    said = " ".join(lines)
    named = re.findall(r"(Cursed Land|blank card|[A-Z][\w' -]+) \((\d+)\)", said)
    assert named, lines[:10]
    assert not re.search(r"\b[Cc]ard \d+", said), lines[:10]
    # A line for each step: a harvest and clean-up is many lines, not one joined by dots.
    steps = player.page.locator("ol.log li").evaluate_all(
        "(items) => items.map((li) => li.querySelectorAll('.what .step').length)"
    )
    assert max(steps) >= 3, steps
    assert " · " not in said, lines[:10]
    assert player.errors == []


def test_prep_is_one_step_naming_its_cards(player: Player) -> None:
    """Issue 47 ("summarise what is routine"): Prep put each card into the field with two
    lines, "reveals Cursed Land (4)" and "Cursed Land (4) into the field", a dozen a turn. Now
    a Prep is one step naming the cards in order and the one left on deck."""
    player.sign_up("vale-prep")
    player.choose_pace("off")
    player.create_table("mystic_vale", ["easy"])
    rng = random.Random(7)
    page = player.page
    steps = page.locator("ol.log li .what .step")
    for _ in range(40):
        said = steps.all_text_contents()
        if any(s.startswith("prepares the field") for s in said):
            break
        if not player.wait_for_turn_or_end():
            break
        player.play_decision(rng)
    said = steps.all_text_contents()
    prep = [s for s in said if s.startswith("prepares the field")]
    assert prep, said[-20:]
    cards = r"(?:Cursed Land|Fertile Soil|blank card|[A-Z][\w' +-]+) \(\d+\)"
    assert re.fullmatch(
        rf"prepares the field: {cards}(, {cards})* into the field(, {cards} on deck)?", prep[0]
    ), prep[0]
    # No Prep card is told twice any more, once revealed and once into the field.
    for before, after in itertools.pairwise(said):
        shown = re.fullmatch(rf"reveals ({cards})", before)
        assert not (shown and after == f"{shown.group(1)} into the field"), (before, after)
    assert player.errors == []


def test_a_turn_that_has_ended_is_folded_into_one_line(player: Player) -> None:
    """Issue 47: a Mystic Vale turn can be forty moves; once the next seat has moved, the log
    folds the turn into one line ("Computer (easy): 12 moves") that opens on a click and stays
    open through the moves after."""
    player.sign_up("vale-folds")
    player.choose_pace("off")
    player.create_table("mystic_vale", ["easy"])
    rng = random.Random(6)
    page = player.page
    for _ in range(40):
        if page.locator("ol.log li.turn").count() or not player.wait_for_turn_or_end():
            break
        player.play_decision(rng)
    folded = page.locator("ol.log li.turn").last
    summary = folded.locator("summary")
    assert re.search(r"\d+ moves", summary.inner_text()), summary.inner_text()
    assert not folded.locator("ol.turn-lines li").first.is_visible()
    summary.click()
    first = folded.get_attribute("data-turn")
    assert folded.locator("ol.turn-lines li").first.is_visible()
    # The next move draws the table anew: the turn opened stays open.
    if player.wait_for_turn_or_end():
        player.play_decision(rng)
        again = page.locator(f"ol.log li.turn[data-turn='{first}'] details")
        assert again.get_attribute("open") is not None
    assert player.errors == []


DESK = {"viewport": {"width": 1440, "height": 1000}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# Where the cards of the table are drawn: the field (and the on-deck card), the markets, the
# vales bought.
CARDS = ".mv-field, .mv-ondeck, .mv-market, .mv-fertile, .mv-vales, .mv-owned"

# Per card face on the board: the height of each symbol drawn on it, the size each name is
# drawn at (its font size in CSS px, after the picture's scaling), and whether a stand-in tag
# overlaps a symbol's box.
MEASURE = """(where) => {
    const boxes = (root, sel) => [...root.querySelectorAll(sel)]
        .map((n) => n.getBoundingClientRect()).filter((b) => b.width && b.height);
    const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom &&
        b.top < a.bottom;
    const faces = [...document.querySelectorAll('.board')].flatMap((board) =>
        [...board.querySelectorAll(where)].flatMap((area) => [...area.querySelectorAll('svg')]));
    const symbols = [], names = [], tags = [], overlaps = [];
    for (const face of faces) {
        const marks = boxes(face, '.mv-sym, .mv-timing');
        symbols.push(...marks.map((b) => b.height));
        for (const text of face.querySelectorAll('.mv-name')) {
            const box = text.getBoundingClientRect();
            if (!box.height) continue;
            const scale = text.getScreenCTM().d;
            names.push(Math.min(box.height, parseFloat(getComputedStyle(text).fontSize) * scale));
        }
        for (const tag of boxes(face, '.mv-standin-tag, .mv-standin')) {
            tags.push(tag.height);
            if (marks.some((mark) => meets(tag, mark))) overlaps.push(face.outerHTML.slice(0, 200));
        }
    }
    const board = document.querySelector('.board');
    return { symbols, names, tags, overlaps,
             page: [document.scrollingElement.scrollWidth, window.innerWidth],
             board: [board.scrollWidth, board.clientWidth,
                     board.parentElement.scrollWidth, board.parentElement.clientWidth] };
}"""


def seated_at(browser: object, server: object, layout: dict, name: str, decisions: int) -> Player:
    context = browser.new_context(**layout)
    player = Player(context.new_page(), server.base)
    player.touch = bool(layout.get("has_touch"))
    player.sign_up(name)
    player.choose_pace("off")
    player.create_table("mystic_vale", ["easy"])
    rng = random.Random(12)
    for _ in range(decisions):
        if not player.wait_for_turn_or_end():
            break
        player.play_decision(rng)
    player.wait_for_turn_or_end()
    return player


def test_the_cards_are_drawn_large_enough_to_read_at_a_desk(
    browser: object, server: object
) -> None:
    """Issue: Mystic Vale's cards were small boxes with 9-pixel names and 10-pixel symbols, a
    red "Stand-in" inside the card. At the desk's default size every symbol on the field
    cards, the markets and the vales is at least 14 px tall, each name drawn at 12 px or more,
    the stand-in tag beside the symbols (never on one), and the board still fits the desk."""
    player = seated_at(browser, server, DESK, "vale-desk-size", 10)
    found = player.page.evaluate(MEASURE, CARDS)
    assert len(found["symbols"]) > 20 and len(found["names"]) > 10, found
    assert min(found["symbols"]) >= 14, sorted(found["symbols"])[:10]
    assert min(found["names"]) >= 12, sorted(found["names"])[:10]
    assert found["tags"], "no stand-in value is labelled on a card"
    assert found["overlaps"] == [], found["overlaps"][:3]
    width = DESK["viewport"]["width"]
    assert found["page"] == [width, width], found["page"]
    scroll, client = found["board"][:2]
    assert scroll <= client, found["board"]
    assert player.errors == []
    player.page.context.close()


def test_the_board_fits_a_phone(browser: object, server: object) -> None:
    """On a phone (390 px) the larger cards wrap: neither the page nor the board's frame
    scrolls sideways until the player enlarges the board."""
    player = seated_at(browser, server, PHONE, "vale-phone-size", 4)
    found = player.page.evaluate(MEASURE, CARDS)
    width = PHONE["viewport"]["width"]
    assert found["page"] == [width, width], found["page"]
    board, frame = found["board"][:2], found["board"][2:]
    assert board[0] <= board[1] and frame[0] <= frame[1], found["board"]
    assert player.errors == []
    player.page.context.close()


def test_a_vale_from_the_public_list_says_its_cost_is_printed(player: Player) -> None:
    """Issue 47: the vale costs of a public list (S19) are real values with their source, the
    rest stays labelled stand-in. The base game's vales are all on that list: each vale card
    in the market says its cost and level are printed and its other values stand-ins."""
    player.sign_up("vale-sourced")
    player.create_table("mystic_vale", ["easy"])
    player.wait_for_turn_or_end()
    names = player.page.locator("[data-magnify^='vale:']").evaluate_all(
        "(cards) => cards.map((card) => card.getAttribute('aria-label'))"
    )
    assert len(names) >= 8, names
    assert all("cost and level as printed" in name for name in names), names
    assert player.errors == []
