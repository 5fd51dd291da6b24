"""People and moderation in the browser (issue 23, 6 and 7): an address confirmed from its
mailed link, a forgotten password set anew from the link the log-in page sends, and the
admins' page (only admins see it): a chat line hidden leaves another person's open table
page at once, a ban takes effect. The server's e-mail goes to a local SMTP sink."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Server
from tests.server.test_admin import cli
from tests.server.test_mail import Sink, listening
from tests.web.conftest import Player


@pytest.fixture(scope="module")
def sink() -> Iterator[Sink]:
    with listening(Sink()) as found:
        yield found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, sink: Sink) -> Iterator[Server]:
    env = {
        "MEADOW_BOT_WORKERS": "1",
        "MEADOW_SMTP_HOST": "127.0.0.1",
        "MEADOW_SMTP_PORT": str(sink.port),
        "MEADOW_PUBLIC_URL": "http://meadow.test",
    }
    found = Server(tmp_path_factory.mktemp("web-people"), None, env=env)
    found.start()
    yield found
    found.stop()
    found.assert_logs_clean()


def link(sink: Sink, address: str, page: str, count: int) -> str:
    """The page (#/confirm/..., #/reset/...) of the `count`th mail to `address`."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        mails = [m for m in sink.messages if m["To"] == address]
        if len(mails) >= count:
            found = re.search(rf"#/{page}/[\w-]+", mails[count - 1].get_payload())
            assert found
            return found.group(0)
        time.sleep(0.1)
    raise AssertionError(f"no mail {count} to {address}")


def give_address(player: Player, address: str, password: str | None = "correct horse") -> None:
    """Fill in the profile's address (and the current password, which moving it takes)."""
    player.page.fill("input[name=email]", address)
    if password is not None:
        player.page.fill("form:has(input[name=email]) input[name=password]", password)
    player.page.click("form:has(input[name=email]) button[type=submit]")


def test_a_forgotten_password_is_set_anew_from_the_mailed_link(player: Player, sink: Sink):
    name = f"forgetful-{secrets.token_hex(3)}"
    address = f"{name}@example.org"
    player.sign_up(name)
    player.open("#/profile")
    give_address(player, address)
    player.page.wait_for_selector(f".address-state .pending:has-text('{address}')")

    player.open(link(sink, address, "confirm", 1))
    player.page.wait_for_selector(f"#confirmed:has-text('{address}')")
    player.open("#/profile")
    player.page.wait_for_selector(f".address-state .confirmed:has-text('{address}')")

    player.page.click("nav button.link")  # log out
    player.page.wait_for_selector("form input[name=password]")
    player.page.click("a.forgot")
    player.page.wait_for_selector("#forgot")
    player.page.fill("#forgot input[name=email]", address)
    player.page.click("#forgot button[type=submit]")
    player.page.wait_for_selector("#forgot [data-sent=yes]")

    player.open(link(sink, address, "reset", 2))
    player.page.fill("#reset input[name=new]", "a brand new one")
    player.page.click("#reset button[type=submit]")
    player.page.wait_for_selector("#new-table")  # signed in, in the lobby
    player.page.click("nav button.link")
    player.page.wait_for_selector("form input[name=password]")
    player.page.fill("input[name=name]", name)
    player.page.fill("input[name=password]", "a brand new one")
    player.page.click("form button[type=submit]")
    player.page.wait_for_selector("#new-table")
    # The link worked once.
    player.open(link(sink, address, "reset", 2))
    player.page.fill("#reset input[name=new]", "yet another one")
    player.page.click("#reset button[type=submit]")
    player.page.wait_for_selector("#notice.error:has-text('was used already')")
    assert player.errors == []


def test_a_changed_address_takes_the_password_and_the_old_one_takes_it_back(
    player: Player, sink: Sink
):
    name = f"keeper-{secrets.token_hex(3)}"
    old, new = f"{name}@example.org", f"{name}-new@example.org"
    player.sign_up(name)
    player.open("#/profile")
    give_address(player, old)
    player.open(link(sink, old, "confirm", 1))
    player.page.wait_for_selector(f"#confirmed:has-text('{old}')")

    player.open("#/profile")
    give_address(player, new, password=None)
    player.page.wait_for_selector("#notice.error:has-text('needs your current password')")
    give_address(player, new)
    player.page.wait_for_selector(f".address-state .pending:has-text('{new}')")

    player.open(link(sink, old, "undo-address", 2))
    player.page.click("#undo-address button[type=submit]")
    player.page.wait_for_selector(f"#undo-address [data-undone=yes]:has-text('{old}')")
    player.open("#/profile")  # signed out here too
    player.page.wait_for_selector("form input[name=password]")
    assert player.errors == []


def test_a_page_left_before_its_answer_came_stays_left(player: Player, sink: Sink):
    """The profile's save answered after the person had opened the mailed link: the link's
    page stays, not drawn over by the profile (a CI run on a loaded machine found it so; any
    page that draws itself again after a request does it only while it is shown)."""
    name = f"hasty-{secrets.token_hex(3)}"
    address = f"{name}@example.org"
    player.sign_up(name)
    player.open("#/profile")
    answers: list[tuple[object, object]] = []

    def hold_the_answer(route: object) -> None:
        if route.request.method != "PUT":
            route.continue_()
            return
        answers.append((route, route.fetch()))  # the server acts now; the page hears later

    player.page.route("**/api/accounts/me", hold_the_answer)
    give_address(player, address)
    confirm = link(sink, address, "confirm", 1)
    while not answers:  # Playwright's handler runs while the page is waited on
        player.page.wait_for_timeout(50)
    player.open(confirm)
    player.page.wait_for_selector(f"#confirmed:has-text('{address}')")
    route, answer = answers[0]
    route.fulfill(response=answer)
    player.page.wait_for_selector(f"#notice:has-text('{address}')")  # the save's own notice
    assert player.page.evaluate("location.hash") == confirm  # not sent back to the profile
    player.page.wait_for_timeout(300)  # a page drawn again would be drawn by now
    assert player.page.evaluate("document.body.dataset.shown") == confirm
    assert player.page.locator("#confirmed").count() == 1
    player.page.unroute("**/api/accounts/me")
    assert player.errors == []


def test_the_admins_page_hides_a_line_from_an_open_table_and_bans(
    browser, server: Server, shots: Path
):
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        warden, watcher = (Player(c.new_page(), server.base) for c in contexts)
        warden.sign_up(f"warden-{secrets.token_hex(3)}")
        watcher.sign_up(f"watcher-{secrets.token_hex(3)}")
        warden_name = warden.page.inner_text("nav .who")
        assert cli(server, "make-admin", warden_name).returncode == 0

        rowdy = server.client().signup(f"rowdy-{secrets.token_hex(3)}")
        body = {"game": "topiary", "players": 2, "seats": [None, "easy"]}
        table_id = rowdy.post("/api/tables", json=body).json()["id"]
        assert rowdy.post(f"/api/tables/{table_id}/start").status_code == 204
        said = rowdy.post(f"/api/tables/{table_id}/chat", json={"text": "something rude"})
        line_id = said.json()["id"]

        # Only an admin sees the page in the navigation, or may open it.
        assert watcher.page.locator("nav a[href='#/admin']").count() == 0
        watcher.open("#/admin")
        watcher.page.wait_for_selector("main#page p.card")
        watcher.open(f"#/table/{table_id}")
        watcher.page.wait_for_selector(f".chat-line[data-chat-id='{line_id}']")

        warden.page.reload()
        warden.page.wait_for_selector("nav a[href='#/admin']")
        warden.open("#/admin")
        warden.page.click(f"#admin-chat tr[data-chat-id='{line_id}'] button[data-action=hide]")
        # The other person's open table page loses the line at once, without a reload.
        watcher.page.wait_for_selector(f".chat-line[data-chat-id='{line_id}']", state="detached")
        warden.page.wait_for_selector(f"#admin-chat tr[data-chat-id='{line_id}'].hidden-line")

        warden.page.fill("#admin-people input[name=find]", rowdy.name)
        warden.page.click("#admin-people button[type=submit]")
        row = f"#admin-people tr[data-person='{rowdy.name}']"
        warden.page.click(f"{row} button[data-action=ban]")
        warden.page.wait_for_selector(f"{row} button[data-action=unban]")
        assert rowdy.get("/api/accounts/me").status_code == 401
        audit = warden.page.inner_text("#admin-audit")
        assert warden_name in audit and rowdy.name in audit
        warden.page.screenshot(path=str(shots / "admin.png"), full_page=True)
        assert warden.errors == [] and watcher.errors == []
    finally:
        for context in contexts:
            context.close()
