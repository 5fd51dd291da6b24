"""The analysed replay in a browser: a person asks for a finished game's analysis, watches
its progress, and gets each seat's accuracy, a graph of each seat's win chance with the marks
on it, a mark on the move's log line, and, on a click on a mark, the board before that move
as its seat saw it with the better move drawn on it."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server
from tests.server.test_analysis import finished_game
from tests.web.conftest import Player


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    quick = {
        "MEADOW_BOT_WORKERS": "1",
        "MEADOW_ANALYSIS_WORLDS": "2",
        "MEADOW_ANALYSIS_CPU_SHARE": "1",
    }
    found = Server(tmp_path_factory.mktemp("web-analysis"), None, env=quick)
    found.start()
    yield found
    found.stop()


def test_the_replay_shows_the_analysis_graph_marks_and_the_better_move(
    player: Player, server: Server, shots: Path
):
    host = server.client().signup(f"played-{secrets.token_hex(3)}")
    table_id = finished_game(host)
    player.sign_up(f"student-{secrets.token_hex(3)}")
    player.open(f"#/replay/{table_id}")
    page = player.page
    page.click(".analysis .ask-analysis")
    graph = page.wait_for_selector(".analysis .chance-graph", timeout=180_000)
    assert graph is not None
    # One line of win chance a seat, and each seat's accuracy by name.
    assert page.locator(".chance-graph .chance-line").count() == 2
    accuracy = page.locator(".analysis .accuracy li").all_inner_texts()
    assert len(accuracy) == 2 and all("accuracy" in line for line in accuracy)
    assert host.name in accuracy[0]
    dots = page.locator(".chance-graph .mark-dot")
    assert dots.count() > 0, "random play and no inaccuracy at all?"
    # The step shown (the last) wears its mark if it was judged; every judged step does.
    analysis = host.get(f"/api/tables/{table_id}/analysis").json()["analysis"]
    judged = {d["move"]: d for d in analysis["decisions"]}
    some = next(iter(sorted(judged)))
    for _ in range(int(page.get_attribute(".replay", "data-step")) - some):
        step = int(page.get_attribute(".replay", "data-step"))
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f".replay[data-step='{step - 1}']")
    badge = page.locator(".replay .log .mark-badge")
    assert badge.count() == 1 and badge.inner_text() == judged[some]["mark"]

    # A mark, clicked: the board before that move as its seat saw it, the better move on it.
    dot = dots.first
    move = int(dot.get_attribute("data-move"))
    dot.click()
    page.wait_for_selector(f".replay[data-lens='{move}'][data-step='{move - 1}']")
    line = page.inner_text(".better-line")
    decision = judged[move]
    assert f"{move}" in line and decision["best"] in line and decision["played"] in line
    # Every Topiary move is made on the board (a space, a tile), so it is drawn there.
    assert page.locator(".board .better-move").count() > 0, decision["best"]
    assert page.locator(".board .played-move").count() > 0, decision["played"]
    page.screenshot(path=str(shots / "replay-analysis.png"), full_page=True)

    # The end-of-game panel at the table: each person's accuracy and biggest mistake, with
    # a link into the replay at that move.
    player.open(f"#/table/{table_id}")
    person = page.wait_for_selector(".after-analysis .accuracy li[data-seat='0']")
    assert person is not None and host.name in person.inner_text()
    assert f"accuracy {analysis['seats'][0]['accuracy']:.1f}" in person.inner_text()
    worst = page.locator(".after-analysis .worst-move")
    if worst.count():
        move = int(worst.first.get_attribute("href").rsplit("/", 1)[1])
        worst.first.click()
        page.wait_for_selector(f".replay[data-step='{move}'] .log .mark-badge")
    assert player.errors == []


def test_the_page_says_how_far_the_analysis_has_come(player: Player, server: Server):
    host = server.client().signup(f"played2-{secrets.token_hex(3)}")
    table_id = finished_game(host, "harmonies")
    player.sign_up(f"student2-{secrets.token_hex(3)}")
    player.open(f"#/replay/{table_id}")
    player.page.click(".analysis .ask-analysis")
    # A Harmonies game takes a while: its progress shows, move by move, before the graph.
    progress = player.page.wait_for_selector(".analysis .progress", timeout=30_000)
    assert progress is not None
    player.page.wait_for_selector(".analysis .chance-graph", timeout=300_000)
    assert player.errors == []


def test_a_hint_at_a_table_that_allows_them_is_drawn_and_can_be_followed(
    player: Player, server: Server
):
    player.sign_up(f"hinted-{secrets.token_hex(3)}")
    player.choose_pace("off")
    player.open("#/")
    player.page.check("#new-table input[name=hints]")
    table_id = player.create_table("harmonies", ["easy"])
    page = player.page
    page.wait_for_selector(".table .tag.hints")
    assert player.wait_for_turn_or_end()
    before = player.table_state()["move"]
    page.click(".actions .ask-hint")
    words = page.wait_for_selector(".hint-words")
    assert words is not None and "Hint:" in words.inner_text()
    # Following the hint: click what it lights, key after key, until the move is sent. After
    # the last key nothing is choosable until the server answers, so each click waits for
    # the next lit key or the move's answer, whichever comes (never for a key that won't).
    settled = """(b) => document.querySelector('.table').dataset.move !== b
        || document.querySelector('.table .hinted.choosable') !== null"""
    for _ in range(6):
        page.wait_for_function(settled, arg=before)
        if player.table_state()["move"] != before:
            break
        page.locator(".table .hinted.choosable").first.click()
    page.wait_for_function("(b) => document.querySelector('.table').dataset.move !== b", arg=before)
    hints = server.client().get(f"/api/tables/{table_id}/analysis").json()["hints"]
    assert hints == [1, 0]
    assert player.errors == []
