"""The lobby's computer seats: each level offered by what it is worth (a plain description,
and its measured strength where there is one), and a seated level shown by its name."""

from __future__ import annotations

import json

from meadow.bots.levels import LEVELS, offered
from tests.web.conftest import Player

MEASURED = {
    "measured": True,
    "elo": 210.4,
    "low": 150.2,
    "high": 270.9,
    "games": 120,
    "anchor": "random",
}


def show_medium_as_measured(player: Player) -> None:
    """The server's game list, with Topiary's medium level measured and no other level."""

    def answer(route: object) -> None:
        described = route.fetch().json()
        for game in described:
            for level in game["levels"]:
                for key in ("elo", "low", "high", "games", "anchor"):
                    level.pop(key, None)
                level["measured"] = False
                if game["id"] == "topiary" and level["level"] == "medium":
                    level |= MEASURED
        route.fulfill(status=200, content_type="application/json", body=json.dumps(described))

    player.page.route("**/api/games", answer)


def seat_choice(player: Player) -> list[tuple[str, str]]:
    return player.page.eval_on_selector_all(
        "#new-table select[name=seat1] option", "os => os.map(o => [o.value, o.textContent])"
    )


def test_each_level_is_offered_by_what_it_is_worth(player: Player) -> None:
    show_medium_as_measured(player)
    player.sign_up("ladder-reader")
    player.page.select_option("#new-table select[name=game]", "topiary")
    choices = seat_choice(player)
    assert [value for value, _ in choices] == [*offered("topiary"), ""]  # no expert here
    texts = dict(choices)
    assert texts["beginner"].startswith("Computer (beginner) — for learning the rules")
    assert texts["hard"] == "Computer (hard) — strong: for experienced players"
    assert "mcts" not in " ".join(texts.values())
    # A new seat starts at easy, which nobody measured here: the page says so.
    assert player.page.input_value("#new-table select[name=seat1]") == "easy"
    hint = player.page.locator("#new-table .level-strength").first
    assert hint.text_content() == (
        "A relaxed game: mostly takes the best move in sight. Strength not measured yet in "
        "this game. Thinks at most 1 s a move."
    )
    player.page.select_option("#new-table select[name=seat1]", "medium")
    assert hint.text_content() == (
        "For players who know the game. Strength: about +210 Elo (+150 to +271) where "
        "random moves = 0, from 120 games between computers. Thinks at most 1 s a move."
    )
    # Another game has its own levels: Harmonies has an expert, its medium is not measured.
    player.page.select_option("#new-table select[name=game]", "harmonies")
    assert [value for value, _ in seat_choice(player)] == [*LEVELS, ""]
    assert "expert" in dict(seat_choice(player))["expert"]
    player.page.select_option("#new-table select[name=seat1]", "expert")
    assert "at most 3 s a move" in hint.text_content()
    player.page.select_option("#new-table select[name=seat1]", "medium")
    assert "not measured" in hint.text_content()
    assert player.errors == []


def test_a_seated_level_shows_by_its_name(player: Player) -> None:
    player.sign_up("ladder-host")
    table = player.create_table("harmonies", ["expert", ""])  # a free seat: the table waits
    player.open("#/")
    row = player.page.locator(f"tr[data-table='{table}']").first
    row.wait_for()
    assert "Computer (expert)" in row.inner_text()
    assert player.errors == []
