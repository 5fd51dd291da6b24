"""For each game: a newcomer signs up, sets a table against a computer opponent from the
lobby, and plays the whole game by clicking only what the page highlights; the final scores
are then on the page, and the replay steps through the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from meadow import games
from tests.web.conftest import Player

# Enough decisions to reach the end of any of the four games against one opponent.
MAX_DECISIONS = 600


def lights_something(player: Player) -> bool:
    """Whether the mouse over some line of the move log lights what it names on the board."""
    for line in player.page.locator("ol.log li").all()[:8]:
        line.hover()
        if player.page.locator(".board .spotlight").count():
            player.page.mouse.move(0, 0)
            return True
    return False


def settle(player: Player) -> None:
    """Let the last move's short animation end, so a screenshot shows the board at rest."""
    player.page.wait_for_timeout(1000)


@pytest.mark.parametrize("game", games.ids())
def test_a_whole_game_by_clicking(player: Player, game: str, shots: Path) -> None:
    rng = random.Random(game)
    player.sign_up(f"click-{game.replace('_', '-')}")
    player.create_table(game, ["easy"])
    player.wait_for_turn_or_end()
    settle(player)
    player.page.screenshot(path=str(shots / f"{game}-start.png"))
    decisions = 0
    while player.wait_for_turn_or_end():
        player.play_decision(rng)
        decisions += 1
        if decisions == 12:
            settle(player)
            player.page.screenshot(path=str(shots / f"{game}-middle.png"))
            assert lights_something(player), "no line of the move log names a spot"
        assert decisions < MAX_DECISIONS, "the game did not end"
    scores = player.page.locator(".result table.scores")
    scores.wait_for()
    settle(player)
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
