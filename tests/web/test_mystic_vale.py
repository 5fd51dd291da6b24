"""Mystic Vale told in words (issue 47: a harvest was one log line naming cards by number,
"reveals card 12 · card 12 into the field"): the log names each card by what it is, its
advancements or a blank card, with the number drawn on it, a line for each step."""

from __future__ import annotations

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
