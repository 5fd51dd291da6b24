"""Cards and pieces shown enlarged (issue 21, 3): the mouse resting on a card of Mystic Vale or
Harmonies (or a piece of Renature or Topiary) shows it drawn larger with its full text, in a
panel inside the viewport; on a phone a long press shows it without picking it, and a tap still
picks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.conftest import Player, Server

PANEL = ".magnify:not([hidden])"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def phone(browser: object, server: Server) -> Iterator[Player]:
    context = browser.new_context(**PHONE)
    yield Player(context.new_page(), server.base)
    context.close()


def at_table(player: Player, game: str, name: str) -> None:
    player.sign_up(name)
    player.create_table(game, ["easy"])
    player.wait_for_turn_or_end()


def plain(text: str) -> str:
    """Text as read: the soft hyphens of long German names left out, spaces as one."""
    return " ".join(text.replace("\u00ad", "").split())


def settled_box(player: Player, selector: str) -> dict[str, float]:
    """Where an element stands once its animations (the panel's zoom) are over."""
    return player.page.evaluate(
        """async (selector) => {
            const node = document.querySelector(selector);
            await Promise.all(node.getAnimations().map((a) => a.finished));
            const b = node.getBoundingClientRect();
            return { left: b.left, top: b.top, right: b.right, bottom: b.bottom,
                     width: b.width, height: b.height };
        }""",
        selector,
    )


def assert_in_viewport(player: Player, box: dict[str, float]) -> None:
    width, height = player.page.evaluate("() => [window.innerWidth, window.innerHeight]")
    assert box["left"] >= 0 and box["top"] >= 0, box
    assert box["right"] <= width and box["bottom"] <= height, (box, width, height)


def look_at(player: Player, target: object) -> str:
    """Rest the mouse on a marked thing until its panel shows; the panel's text."""
    target.hover()
    player.page.wait_for_selector(PANEL)
    assert player.page.get_attribute(PANEL, "data-what") == target.get_attribute("data-magnify")
    return plain(player.page.inner_text(PANEL))


def leaves_on_pointer_out_and_escape(player: Player, target: object) -> None:
    player.page.mouse.move(0, 0)
    player.page.wait_for_selector(".magnify", state="hidden")
    target.hover()
    player.page.wait_for_selector(PANEL)
    player.page.keyboard.press("Escape")
    player.page.wait_for_selector(".magnify", state="hidden")


def words(node: object) -> str:
    """What the module says of a thing for a screen reader: its label, or, on a choice that
    shows words of its own (named by them), its description (js/keyboard.js)."""
    return node.evaluate(
        """(n) => n.getAttribute('aria-label') || (n.getAttribute('aria-describedby') || '')
            .split(' ').filter((id) => id && id !== 'magnify')
            .map((id) => document.getElementById(id).textContent).join(' ')"""
    )


def with_most_text(tiles: list[object]) -> object:
    """The tile whose name for a screen reader says most (name, level and ability)."""
    return max(tiles, key=lambda tile: len(words(tile).split(" · ")))


def test_a_mystic_vale_card_shows_enlarged_with_its_text(player: Player) -> None:
    at_table(player, "mystic_vale", "magnify-vale")
    page = player.page
    tile = with_most_text(page.locator('.mv-market .mv-tile[data-magnify^="adv:"]').all())
    label = plain(words(tile))
    small = tile.locator("svg.mv-tile-svg").bounding_box()
    text = look_at(player, tile)
    for part in label.split(" · "):  # name, level, ability
        assert part in text, (part, text)
    big = settled_box(player, f"{PANEL} svg.mv-tile-svg")
    assert big["width"] > 2 * small["width"] and big["height"] > 2 * small["height"]
    assert_in_viewport(player, settled_box(player, PANEL))
    # The panel is the tooltip now: no browser title left inside the card.
    assert tile.locator("title").count() == 0 and tile.get_attribute("title") is None
    leaves_on_pointer_out_and_escape(player, tile)

    vale = with_most_text(page.locator('.mv-vales .mv-tile[data-magnify^="vale:"]').all())
    text = look_at(player, vale)
    for part in plain(words(vale)).split(" · "):
        assert part in text, (part, text)
    small = vale.locator("svg.mv-vale-svg").bounding_box()
    assert settled_box(player, f"{PANEL} svg.mv-vale-svg")["width"] > 2 * small["width"]
    assert_in_viewport(player, settled_box(player, PANEL))

    # A sleeved card: its three positions in full.
    mine = page.locator('.mv-mine .mv-card[data-magnify^="card:"]').first
    text = look_at(player, mine)
    assert plain(words(mine)).split(" · ")[0] in text
    assert page.locator(f"{PANEL} .mv-magnified-slots li").count() == 3
    assert_in_viewport(player, settled_box(player, PANEL))  # three advancements high
    # Nothing in the copy can be clicked or lit as part of the board.
    assert page.locator(f"{PANEL} [data-key], {PANEL} [data-spot]").count() == 0
    assert player.errors == []


def test_a_harmonies_card_shows_enlarged_with_its_text(player: Player) -> None:
    at_table(player, "harmonies", "magnify-harmonies")
    page = player.page
    card = page.locator(".hm-display .hm-card[data-magnify]").first
    name = plain(card.locator(".hm-card-name").inner_text())
    label = plain(words(card))  # the name and its points
    small = card.bounding_box()
    text = look_at(player, card)
    assert name in text and label in text, (name, label, text)
    big = settled_box(player, f"{PANEL} .hm-card")
    assert big["width"] > 1.5 * small["width"] and big["height"] > 1.5 * small["height"]
    assert_in_viewport(player, settled_box(player, PANEL))
    assert card.get_attribute("title") is None and card.locator("title").count() == 0
    leaves_on_pointer_out_and_escape(player, card)
    assert player.errors == []


def long_press(player: Player, target: object) -> None:
    """A finger held on the element until its panel shows, then lifted, as the phone's own
    touch screen sends it (the browser decides whether a click follows)."""
    # A phone has no mouse, but the lobby's clicks left Playwright's over the page: once the
    # page scrolls, the element under it is hovered and may show its own panel, by mouse.
    player.page.mouse.move(0, 0)
    # In the middle of the screen: not under the action bar pinned at its bottom.
    target.evaluate("(node) => node.scrollIntoView({ block: 'center' })")
    box = target.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    touch = player.page.context.new_cdp_session(player.page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    player.page.wait_for_selector(f"{PANEL}.by-touch")
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    # Whatever the lifted finger sends has been handled after two frames.
    player.page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    touch.detach()


@pytest.mark.parametrize("game", ["mystic_vale", "harmonies"])
def test_a_long_press_on_a_phone_shows_without_picking(phone: Player, game: str) -> None:
    at_table(phone, game, f"press-{game.replace('_', '-')}")
    page = phone.page
    target = page.locator(".table .board [data-magnify].choosable").first
    what = target.get_attribute("data-magnify")
    before = phone.table_state()["move"]
    long_press(phone, target)
    assert page.get_attribute(PANEL, "data-what") == what
    assert phone.table_state()["move"] == before
    assert page.locator(".table .picked").count() == 0
    assert_in_viewport(phone, settled_box(phone, PANEL))
    # A tap on the panel only closes it; so does a tap elsewhere (the table's title or the
    # action bar's prompt, whichever the panel leaves free).
    page.locator(PANEL).tap()
    page.wait_for_selector(".magnify", state="hidden")
    assert phone.table_state()["move"] == before
    long_press(phone, target)
    panel = page.locator(PANEL).bounding_box()
    for elsewhere in (".table-head h1", ".actions .prompt"):
        box = page.locator(elsewhere).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        covered = panel["x"] <= x <= panel["x"] + panel["width"] and (
            panel["y"] <= y <= panel["y"] + panel["height"]
        )
        if not covered:
            page.touchscreen.tap(x, y)
            break
    page.wait_for_selector(".magnify", state="hidden")
    # A tap on the thing still picks it.
    target.tap()
    page.wait_for_function(
        """(before) => {
            const t = document.querySelector('.table');
            return t.dataset.move !== before || t.querySelector('.picked');
        }""",
        arg=before,
    )
    assert phone.errors == []


def test_renature_pieces_show_enlarged(player: Player) -> None:
    at_table(player, "renature", "magnify-renature")
    page = player.page
    domino = page.locator('.rn-hand-domino[data-magnify^="domino:"]').first
    small = domino.bounding_box()
    text = look_at(player, domino)
    assert plain(domino.get_attribute("aria-label")) in text
    assert settled_box(player, f"{PANEL} svg.rn-hand-domino")["width"] > 2 * small["width"]
    assert_in_viewport(player, settled_box(player, PANEL))
    animal = page.locator('.rn-track [data-magnify^="animal:"]').first
    assert plain(animal.get_attribute("aria-label")) in look_at(player, animal)
    # A stand-in name is marked in the label as on the panel: a hand domino with a hedgehog
    # once read "hedgehog – hedgehog" beside a panel of "hedgehog (Stand-in) – ...".
    standin = page.locator('.rn-track [data-magnify="animal:hedgehog"]')
    label = plain(standin.get_attribute("aria-label"))
    assert "Stand-in" in label and label in look_at(player, standin)
    plants = page.locator('.rn-pboard [data-magnify^="plants:"]').first
    assert plain(plants.get_attribute("aria-label")) in look_at(player, plants)
    # A space of the board: what lies there and its area's standing (the area tip).
    space = page.locator('.rn-hits [data-magnify^="cell:"]').first
    look_at(player, space)
    assert_in_viewport(player, settled_box(player, PANEL))
    leaves_on_pointer_out_and_escape(player, domino)
    assert player.errors == []


def test_topiary_pieces_show_enlarged_and_still_with_reduced_motion(player: Player) -> None:
    at_table(player, "topiary", "magnify-topiary")
    page = player.page
    tile = page.locator('.hand-tile[data-magnify^="tile:"]').first
    small = tile.locator("svg").bounding_box()
    assert plain(tile.get_attribute("aria-label")) in look_at(player, tile)
    assert settled_box(player, f"{PANEL} svg.tile-icon")["width"] > 2 * small["width"]
    assert_in_viewport(player, settled_box(player, PANEL))
    page.mouse.move(0, 0)
    page.wait_for_selector(".magnify", state="hidden")
    # A visitor's spot, with reduced motion asked: the panel shows without zooming in.
    page.emulate_media(reduced_motion="reduce")
    spot = page.locator('.garden g.pos[data-magnify^="pos:"]').first
    text = look_at(player, spot)
    assert plain(spot.get_attribute("aria-label")) in text
    assert page.eval_on_selector(PANEL, "(node) => node.getAnimations().length") == 0
    assert_in_viewport(player, settled_box(player, PANEL))
    assert player.errors == []


def test_no_panel_opens_under_the_mouse_after_a_click(player: Player) -> None:
    """The board is drawn anew after a click, under a mouse that has not moved: that is no
    wish to look (issue 47: the panel opened and covered the player panels). Moving away and
    back is."""
    # Renature: a domino is the first of two picks, so the board is drawn anew under the mouse.
    at_table(player, "renature", "magnify-click")
    page = player.page
    target = page.locator('.board [data-key^="domino:"].choosable').first
    what = target.evaluate("(n) => n.closest('[data-magnify]').dataset.magnify")
    target.click()
    page.wait_for_selector(".board .picked")
    page.wait_for_timeout(800)  # three times the hover's delay
    assert page.locator(PANEL).count() == 0
    page.mouse.move(0, 0)
    again = page.locator(f'.board [data-magnify="{what}"]').first
    assert look_at(player, again)
    assert player.errors == []
