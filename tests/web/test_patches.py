"""A move's news patches the view the page holds (meadow/web/js/patch.js): at a table of each
game, after each move, the view a seat's page and a spectator's page hold is the view the
server gives each of them whole; and a patch that does not follow what the page holds makes
it read the present afresh, never draw something wrong."""

from __future__ import annotations

import random

import pytest

from meadow import games
from tests.web.conftest import Player, Server

# The page's view and the server's, as the page's own fetch reads it, once both are of one
# move (the computer may move meanwhile): keys sorted, since JSON's objects have no order.
SAME_AS_SERVER = """async ([id]) => {
    const canon = (v) => Array.isArray(v) ? v.map(canon)
        : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
    const live = document.querySelector('.table').live;
    for (let i = 0; i < 200; i++) {
        const info = await (await fetch(`/api/tables/${id}`)).json();
        const known = live.known;
        if (known && known.move === info.game_state.move) {
            const [mine, theirs] = [known.view, info.game_state.view].map(canon);
            const same = JSON.stringify(mine) === JSON.stringify(theirs);
            return { move: known.move, same, patches: live.patches };
        }
        await new Promise((r) => setTimeout(r, 50));
    }
    return { move: null, same: false, patches: live.patches };
}"""

DECISIONS = 8


@pytest.mark.parametrize("game_id", games.ids())
def test_the_view_a_page_patches_is_the_servers_view(
    browser: object, server: Server, game_id: str
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 860}) for _ in range(2)]
    seated, watching = (Player(c.new_page(), server.base) for c in contexts)
    seated.sign_up(f"patched-{game_id.replace('_', '-')}")
    seated.choose_pace("off")
    table = seated.create_table(game_id, ["easy"])
    watching.open(f"#/table/{table}")  # not signed in: a spectator
    watching.page.wait_for_selector(".table[data-status=running]")
    rng = random.Random(49)
    moves = []
    for _ in range(DECISIONS):
        if not seated.wait_for_turn_or_end():
            break
        seated.play_decision(rng)
        for player in (seated, watching):
            found = player.page.evaluate(SAME_AS_SERVER, [table])
            assert found["same"], (game_id, player is seated, found)
            moves.append(found["move"])
    assert len(moves) >= 4
    for player in (seated, watching):
        assert player.page.evaluate("() => document.querySelector('.table').live.patches") > 0
        assert player.errors == []
    for context in contexts:
        context.close()


# A move's news as the page would get it, but not following what it holds: a number skipped,
# or a path its view lacks.
WRONG = {
    "skipped": {"ahead": 2, "patch": [["/ply", -1]]},
    "no such path": {"ahead": 1, "patch": [["/no/such/path", 1]]},
}


@pytest.mark.parametrize("wrong", list(WRONG))
def test_a_patch_that_does_not_follow_makes_the_page_resync(player: Player, wrong: str) -> None:
    player.sign_up(f"resynced-{wrong.replace(' ', '-')}")
    player.choose_pace("off")
    table = player.create_table("topiary", ["easy"])
    player.wait_for_turn_or_end()
    shown = player.table_state()["move"]
    held = player.page.evaluate(
        """([wrong]) => {
            const live = document.querySelector('.table').live;
            const move = live.known.move + wrong.ahead;
            live.receive({ kind: 'move', number: move, move, seat: 1, events: [], to_move: 0,
                over: false, legal: [], choices: [], patch: wrong.patch });
            return live.known;
        }""",
        [WRONG[wrong]],
    )
    assert held is None  # the patch was not applied: the page reads the present afresh
    player.page.wait_for_function(
        "() => { const k = document.querySelector('.table').live.known; return k !== null; }"
    )
    assert player.table_state()["move"] == shown  # nothing drawn from the wrong news
    found = player.page.evaluate(SAME_AS_SERVER, [table])
    assert found["same"] and str(found["move"]) == shown, found
    assert player.errors == []
