"""A move's news patches the view its recipient holds (`meadow.server.patch`): over random
games of every registered game, each patch applied to the view before gives exactly the
view after, for every seat and a spectator, and names nothing the new view does not."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from meadow import games
from meadow.core.rng import Rng
from meadow.server import outbound, patch

SEEDS = (3, 11)


def as_sent(value: Any) -> Any:
    """What a page reads: the server's encoding read back (seat numbers as keys too)."""
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))


def same_json(a: Any, b: Any) -> bool:
    return orjson.dumps(a, option=orjson.OPT_SORT_KEYS) == orjson.dumps(
        b, option=orjson.OPT_SORT_KEYS
    )


def at(doc: Any, pointer: str) -> Any:
    for key in pointer.split("/")[1:]:
        key = key.replace("~1", "/").replace("~0", "~")
        doc = doc[int(key)] if isinstance(doc, list) else doc[key]
    return doc


CASES = [
    (game.id, players, seed)
    for game in games.all()
    for players in game.player_counts
    for seed in SEEDS
]


@pytest.mark.parametrize(("game_id", "players", "seed"), CASES)
def test_each_patch_turns_the_view_before_into_the_view_after(
    game_id: str, players: int, seed: int
):
    state = games.get(game_id).setup(players, seed=seed)
    rng = Rng(seed)
    recipients: list[int | None] = [*range(players), None]
    # As the server keeps them: the objects the views were built as (a view that shared
    # something with the state, changed by the next move, would show here), and what the
    # page got from each.
    kept = {r: state.view(r) for r in recipients}
    held = {r: as_sent(kept[r]) for r in recipients}
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        for r in recipients:
            view = state.view(r)
            ops = as_sent(patch.diff(kept[r], view))
            expected = as_sent(view)
            for op in ops:  # nothing the recipient's own new view does not hold
                if len(op) == 2:
                    assert op[1] == at(expected, op[0]), (state.ply, r, op)
            held[r] = patch.apply(held[r], ops)
            # Exact to the type (True is not 1), a key added to a dict coming last in it:
            # JSON's objects have no order, and no page reads one into them.
            assert same_json(held[r], expected), (game_id, state.ply, r)
            kept[r] = view


def test_the_differ_writes_lists_and_keys_as_json_sees_them():
    before = {"a": [1, 2, 3], "b": {"x": 1, "y/z": True}, "c": (1, 2)}
    after = {"a": [1, 5], "b": {"x": True, "w": None}, "c": [1, 2]}
    ops = patch.diff(before, after)
    assert ["/b/x", True] in ops and ["/b/y~1z"] in ops and ["/b/w", None] in ops
    assert not any(op[0].startswith("/c") for op in ops)  # a tuple is the list it encodes
    assert patch.apply(as_sent(before), ops) == as_sent(after)
    assert patch.diff(after, after) == []
    with pytest.raises((KeyError, IndexError)):
        patch.apply({"a": []}, [["/a/3", 1]])
    with pytest.raises(KeyError):
        patch.apply({"a": {}}, [["/b/c", 1]])


@pytest.mark.parametrize("game_id", games.ids())
def test_the_mover_gets_each_choice_once_its_notation_in_legal_and_its_fields_in_choices(
    game_id: str,
):
    """`choices[i]` is `legal[i]`'s fields without its notation (the page adds it back,
    `choicesOf` in web/js/choose.js): the notation crosses the wire once, and nothing is lost."""
    game = games.get(game_id)
    state = game.setup(2, None, seed=5)
    rng = Rng(5)
    for _ in range(30):
        if state.is_over:
            break
        mover = state.to_move
        sent = as_sent(outbound.position(state, mover, 0))
        assert len(sent["choices"]) == len(sent["legal"]) > 0
        for text, choice in zip(sent["legal"], sent["choices"], strict=True):
            assert "text" not in choice
            assert as_sent(state.parse_action(text).to_json()) == {**choice, "text": text}
        other = as_sent(outbound.position(state, (mover + 1) % 2, 0))
        assert other["legal"] == other["choices"] == []
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
