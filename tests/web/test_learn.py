"""Learn to play, in a browser: from the lobby (or a rules page), a guided first game of each
title is played to its end by following only what the page says to click (the lit target,
or its "play the rest" button); in German as in English, on a phone as on a desk; left and
taken up again."""

from __future__ import annotations

from pathlib import Path

import pytest

from meadow import games
from tests.web.conftest import Player

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def follow_the_guide(player: Player, most: int = 400) -> None:
    """Click what the guide lights, or its button to play the rest, until the game ends."""
    page = player.page
    for _ in range(most):
        if not player.wait_for_turn_or_end(timeout=60_000):
            return
        page.wait_for_selector(".guide-box")
        rest = page.locator(".guide-box .play-rest")
        if rest.count():
            rest.click()
            # The page plays the written moves itself now, to the end.
            page.wait_for_selector(".table[data-over=true]", timeout=240_000)
            return
        click_what_is_lit(player)
    raise AssertionError("the guided game did not end")


def click_what_is_lit(player: Player) -> None:
    """One click on what the guide lights, and wait until the page has taken it."""
    page = player.page
    before = player.table_state()["move"]
    target = page.locator(".table .guide-target")
    assert target.count(), f"the guide lights nothing at move {before}: {player.stalled()}"
    key = target.first.get_attribute("data-key")
    if player.touch:
        target.first.tap()
    else:
        target.first.click()
    # Taken: the move went, or the guide lights the written move's next key.
    page.wait_for_function(
        """([b, k]) => { const t = document.querySelector('.table');
            const lit = t.querySelector('.guide-target');
            return t.dataset.move !== b || !lit || lit.dataset.key !== k; }""",
        arg=[before, key],
    )


def start_from_lobby(player: Player, game: str) -> int:
    player.open("#/")
    player.page.click(f".learn-card button[data-game={game}]")
    player.page.wait_for_selector(".table[data-table] .guide-box")
    return int(player.page.get_attribute(".table[data-table]", "data-table"))


@pytest.mark.parametrize("game", games.ids())
def test_a_guided_game_is_played_to_its_end_by_following_the_page(
    player: Player, game: str, shots: Path
):
    player.sign_up(f"learner-{game[:8]}")
    player.choose_pace("off")
    start_from_lobby(player, game)
    first = player.page.inner_text(".guide-box")
    assert "Welcome to" in first
    if game == "harmonies":
        player.wait_for_turn_or_end()
        player.page.screenshot(path=str(shots / "guided-game.png"))
    follow_the_guide(player)
    end = player.page.wait_for_selector(".guide-box .learn-end")
    assert end is not None and "won" in end.inner_text()
    player.page.wait_for_selector(".result table.scores")
    assert player.errors == []


def test_a_guided_game_in_german_on_a_phone_from_the_rules_page(browser, server):
    context = browser.new_context(**PHONE)
    try:
        player = Player(context.new_page(), server.base)
        player.touch = True
        player.sign_up("lernende")
        player.choose_pace("off")
        player.open("#/profile")
        player.page.select_option("select[name=language]", "de")
        player.page.wait_for_selector("html[lang=de]")
        player.open("#/rules/topiary")
        player.page.click(".rules-learn button.learn")
        player.page.wait_for_selector(".table[data-table] .guide-box")
        assert "Willkommen bei Topiary" in player.page.inner_text(".guide-box")
        # The guide's words and its target are in sight on the phone.
        box = player.page.locator(".guide-box").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844 + 1
        follow_the_guide(player)
        assert "gewonnen" in player.page.inner_text(".guide-box .learn-end")
        assert player.errors == []
    finally:
        context.close()


def test_a_guided_game_left_is_taken_up_again(player: Player):
    player.sign_up("returning-learner")
    player.choose_pace("off")
    table_id = start_from_lobby(player, "harmonies")
    for _ in range(6):
        player.wait_for_turn_or_end()
        click_what_is_lit(player)
    left_at = int(player.table_state()["move"])
    player.open("#/turns")
    assert start_from_lobby(player, "harmonies") == table_id
    assert int(player.table_state()["move"]) >= left_at
    assert player.errors == []
