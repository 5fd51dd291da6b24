"""Two people in two browsers play one game against each other, live: one invites, the
other follows the link and takes the seat; each sees the other's moves as they happen, and a
reload in the middle of the game picks up where it was."""

from __future__ import annotations

import random
import re

from tests.web.conftest import Player


def test_two_browsers_one_game(browser: object, server: object) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    host, guest = (Player(c.new_page(), server.base) for c in contexts)
    host.sign_up("host-live")
    table = host.create_table("topiary", [""])
    invite = host.page.inner_text("code.invite")
    # A free seat: no start yet, a word on what the game waits for instead.
    assert host.page.locator(".waiting p.hint").count() == 1
    assert host.page.locator(".waiting button").count() == 1  # leaving is all there is
    assert invite.endswith("#/invite/" + invite.rsplit("/", 1)[1])

    # The guest has no account yet: the link leads to signing up, then back to the seat.
    guest.page.goto(invite)
    guest.page.click("section.card button")
    guest.page.wait_for_selector("input[name=password]")
    guest.page.fill("input[name=name]", "guest-live")
    guest.page.fill("input[name=password]", "correct horse")
    guest.page.click("form button[type=submit]")
    guest.page.wait_for_selector("section.card button")
    guest.page.click("section.card button")
    guest.page.wait_for_selector(f".table[data-table='{table}']")

    host.page.reload()
    host.page.wait_for_selector("body[data-ready=true]")
    host.page.locator("section.waiting button").first.click()  # start
    for player in (host, guest):
        player.page.wait_for_selector(".table[data-status=running]")

    rng = random.Random(7)
    decisions = 0
    while host.table_state().get("over") != "true":
        mover = host if host.table_state()["myTurn"] == "true" else guest
        if not mover.wait_for_turn_or_end(timeout=20_000):
            break
        mover.play_decision(rng)
        decisions += 1
        if decisions == 6:  # a reload mid-game: the page resyncs and play goes on
            host.page.reload()
            host.page.wait_for_selector(".table[data-status=running]")
        # Whoever is to move sees it: the other page follows each move without a reload.
        number = mover.table_state()["move"]
        other = guest if mover is host else host
        other.page.wait_for_selector(f".table[data-move='{number}']", timeout=20_000)

    for player in (host, guest):
        player.page.wait_for_selector(".result table.scores")
    totals = [p.page.locator(".result td.total").all_inner_texts() for p in (host, guest)]
    assert totals[0] == totals[1]
    assert host.errors == [] and guest.errors == []
    for context in contexts:
        context.close()


def test_a_table_with_a_clock_shows_the_time_left(player: Player) -> None:
    player.sign_up("clocked")
    player.create_table("topiary", ["easy"], move_seconds=90)
    player.wait_for_turn_or_end()
    shown = player.page.inner_text(".table-head .clock")
    assert re.search(r"clocked: 1:[2-3]\d$", shown), shown
    player.page.wait_for_timeout(2100)  # it counts down while the page is open
    later = player.page.inner_text(".table-head .clock")
    assert later != shown and later.startswith(shown.rsplit(" ", 1)[0]), later


def test_a_lost_connection_shows_a_banner_and_play_resumes(player: Player, server) -> None:
    rng = random.Random(3)
    player.sign_up("reconnecting")
    player.create_table("topiary", ["easy"])
    for _ in range(2):
        player.wait_for_turn_or_end()
        player.play_decision(rng)
    before = int(player.table_state()["move"])
    server.kill()
    player.page.wait_for_selector("#banner:not([hidden])")
    server.start()  # same port, same database: the page reconnects and resyncs by itself
    player.page.wait_for_selector("#banner", state="hidden", timeout=30_000)
    player.wait_for_turn_or_end()
    player.play_decision(rng)
    assert int(player.table_state()["move"]) > before
    assert player.errors == []


def test_the_lobby_shows_new_open_tables_by_itself(browser: object, server: object) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    host, guest = (Player(c.new_page(), server.base) for c in contexts)
    guest.sign_up("lobby-watcher")  # and stays in the lobby
    host.sign_up("lobby-host")
    table = host.create_table("harmonies", [""])
    row = guest.page.locator(f"tr[data-table='{table}']")
    row.wait_for(timeout=15_000)  # no reload: the lobby looks again by itself
    row.locator("button").click()  # join
    guest.page.wait_for_selector(f".table[data-table='{table}']")
    assert guest.page.title().startswith("Harmonies")
    assert host.errors == [] and guest.errors == []
    for context in contexts:
        context.close()
