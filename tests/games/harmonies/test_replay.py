"""A finished game's replay, step by step, as the server keeps and shows it."""

from __future__ import annotations

from meadow.core.actions import Event
from meadow.core.record import GameRecord
from meadow.core.rng import Rng
from tests.games.harmonies.helpers import HARMONIES


def test_a_refill_in_the_replay_shows_the_tokens_the_board_shows():
    """Issue 43, item 6, "A replay says what did not happen": a finished game's replay read
    "Space N stays empty: the pouch is empty" beside a full central board, because the refill
    event held the board space's own list and a later take emptied it. A move's events, kept
    to the end as the server keeps them, must still name the tokens its step's board shows."""
    record, state = GameRecord.start(HARMONIES, 2, {}, seed=43)
    rng = Rng(6).spawn()
    kept: list[list[Event]] = []
    while not state.is_over:
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        kept.append(state.apply(action))
        record.add(action)
    refills = 0
    wrong = []
    for number, events in enumerate(kept, 1):
        board = record.step(number).state.view(None)["central"]
        for event in (e.for_seat(None) for e in events if e.kind == "refill"):
            refills += 1
            if event["tokens"] != board[event["space"] - 1]:
                wrong.append(f"step {number}: {HARMONIES.event_text(event)}, board {board}")
    assert refills > 0, "the game had no refill to check"
    assert not wrong, f"{len(wrong)} of {refills} refills disagree with the board: {wrong[:3]}"
