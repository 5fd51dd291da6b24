"""Two people in two browsers play one game against each other, live: one invites, the
other follows the link and takes the seat; each sees the other's moves as they happen, and a
reload in the middle of the game picks up where it was."""

from __future__ import annotations

import random
import re

from tests.web.conftest import Player, next_mover


def test_two_browsers_one_game(browser: object, server: object) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    host, guest = (Player(c.new_page(), server.base) for c in contexts)
    host.sign_up("host-live")
    host.choose_pace("off")  # the pace has tests of its own (test_motion.py)
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
    guest.page.fill("input[name=name]", "invited-live")  # guest- is for guests
    guest.page.fill("input[name=password]", "correct horse")
    guest.page.click("form button[type=submit]")
    # Back from signing up, the seat is taken: no second "Take a seat" (issue 47).
    guest.page.wait_for_selector(f".table[data-table='{table}'][data-status=open]")
    assert guest.page.locator(".waiting button", has_text="Leave").count() == 1
    # The guest keeps the default pace: it paces a computer's moves, and the host's land at once.
    guest.open(f"#/table/{table}")

    # The host's waiting room shows the guest and the Start button at once, no reload.
    host.page.wait_for_selector("section.waiting button >> nth=1", timeout=2_000)
    assert "invited-live" in host.page.inner_text(".seats")
    host.page.locator("section.waiting button").first.click()  # start
    for player in (host, guest):
        player.page.wait_for_selector(".table[data-status=running]")

    rng = random.Random(7)
    decisions = 0
    while (mover := next_mover([host, guest])) is not None:
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


def test_with_a_clock_for_the_game_each_seat_shows_its_time_left(player: Player) -> None:
    """Issue 47: the player panels showed no clock during play."""
    player.sign_up("game-clocked")
    player.create_table("topiary", ["easy"], game_minutes=20)
    player.wait_for_turn_or_end()
    clocks = player.page.locator(".table-head .seat-clock")
    assert clocks.count() == 2
    mine = player.page.locator(".table-head .seat-clock[data-seat='0']")
    shown = mine.inner_text()
    assert re.fullmatch(r"(20:00|19:[0-5]\d)", shown), shown
    player.page.wait_for_timeout(2100)  # ours runs while it is our move
    assert mine.inner_text() != shown
    assert player.errors == []


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
    """And a table whose last seat is taken leaves everyone's open list (issue 20, 2: it
    stayed, with a Join button that failed)."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(3)]
    host, guest, third = (Player(c.new_page(), server.base) for c in contexts)
    guest.sign_up("lobby-watcher")  # and stays in the lobby
    third.sign_up("lobby-third")
    host.sign_up("lobby-host")
    table = host.create_table("harmonies", [""])
    row = guest.page.locator(f"tr[data-table='{table}']")
    row.wait_for(timeout=15_000)  # no reload: the lobby looks again by itself
    third.page.locator(f"tr[data-table='{table}'] button").wait_for(timeout=15_000)
    row.locator("button").click()  # join
    guest.page.wait_for_selector(f".table[data-table='{table}']")
    assert guest.page.title().startswith("Harmonies")
    # Full now: gone from the third person's open tables at the lobby's next look (5 s).
    third.page.locator(f"tr[data-table='{table}'] button").wait_for(state="detached", timeout=7_000)
    assert host.errors == [] and guest.errors == [] and third.errors == []
    for context in contexts:
        context.close()


def test_a_refusal_is_gone_once_the_sign_up_succeeds(player: Player) -> None:
    """Issue 20: the error of a refused sign-up stayed on screen over the lobby."""
    player.sign_up("taken-once")
    player.page.click("#nav button.link")  # log out
    player.page.wait_for_selector("#nav a[href='#/signup']")
    player.open("#/signup")
    player.page.fill("input[name=name]", "taken-once")
    player.page.fill("input[name=password]", "correct horse")
    player.page.click("form button[type=submit]")
    player.page.wait_for_selector("#notice.error:not([hidden])")
    player.page.fill("input[name=name]", "free-name")
    player.page.click("form button[type=submit]")
    player.page.wait_for_selector("#new-table")
    assert player.page.locator("#notice").is_hidden()


def test_a_person_timed_out_takes_the_seat_back_with_one_click(player: Player) -> None:
    """Issue 20, 4: after a time-out the seat said "(you)" and a bot played it for good."""
    player.sign_up("slow-player")
    request = player.page.request
    csrf = request.get(player.base + "/api/accounts/me").json()["csrf"]
    headers = {"X-CSRF-Token": csrf}
    body = {
        "game": "topiary",
        "players": 2,
        # Bots that think a while: the game must not be over before the click.
        "seats": [None, "mcts:2s"],
        "move_seconds": 5,
        "grace_seconds": 0,
        "takeover_bot": "mcts:2s",
    }
    table = request.post(player.base + "/api/tables", data=body, headers=headers).json()["id"]
    assert request.post(f"{player.base}/api/tables/{table}/start", headers=headers).ok
    player.open(f"#/table/{table}")
    button = player.page.wait_for_selector("button.reclaim", timeout=20_000)
    assert "plays for slow-player" in player.page.inner_text(".seats")
    button.click()
    player.page.wait_for_selector("button.reclaim", state="detached", timeout=5_000)
    assert "plays for" not in player.page.inner_text(".seats")
    assert player.errors == []


def test_a_game_in_play_is_in_the_lobby_to_watch(browser: object, server: object) -> None:
    """Issue 20, 8: the lobby lists running tables; anyone may watch as a spectator."""
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    try:
        playing, watching = (Player(c.new_page(), server.base) for c in contexts)
        playing.sign_up("plays-a-bot")
        table = playing.create_table("topiary", ["easy"])  # host and bot: started at once
        watching.sign_up("watches")
        watching.open("#/")
        watching.page.click(f"tr[data-table='{table}'] a.watch")
        watching.page.wait_for_selector(f".table[data-table='{table}'][data-status=running]")
        assert "(you)" not in watching.page.inner_text(".seats")  # a spectator
        assert playing.errors == [] and watching.errors == []
    finally:
        for context in contexts:
            context.close()
