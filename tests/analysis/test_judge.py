"""The coach's judgement of a decision (meadow.analysis.judge): from the seat's information
only, the best move found judged as losing nothing, a worse move as losing what it loses."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.analysis import analyse, judge
from meadow.bots import observe
from meadow.core.record import GameRecord
from meadow.core.rng import Rng


def decision(game_id: str, moves: int, seed: int = 3):
    """A position of a random game after about `moves` moves where the mover has a choice."""
    game = games.get(game_id)
    state = game.setup(2, {}, seed)
    rng = Rng(seed + 1)
    made = 0
    while not state.is_over:
        legal = state.legal_actions()
        if made >= moves and len(legal) > 1:
            return state, made + 1
        state.apply(legal[rng.below(len(legal))])
        made += 1
    raise AssertionError("the game ended before a choice")


@pytest.mark.parametrize("game_id", games.ids())
def test_a_judgement_is_the_same_in_worlds_the_seat_cannot_tell_apart(game_id: str):
    """What the analysis says of a move depends on what its seat knew, not on the hidden
    cards, tiles or draws: otherwise the analysis would tell a seat what it could not see."""
    state, number = decision(game_id, 12)
    seat = state.to_move
    assert seat is not None
    other = state.sample_hidden(seat, Rng(99))
    assert other.view(seat) == state.view(seat)
    played = state.legal_actions()[-1]
    first = judge(observe(state, seat), played, number, worlds=2, width=3)
    again = judge(observe(other, seat), played, number, worlds=2, width=3)
    assert first == again


@pytest.mark.parametrize("game_id", ["topiary", "harmonies"])
def test_the_best_move_found_loses_nothing_and_a_worse_one_what_it_loses(game_id: str):
    state, number = decision(game_id, 6)
    seat = state.to_move
    assert seat is not None
    seen = observe(state, seat)
    judged = [judge(seen, a, number, worlds=2, width=2) for a in seen.legal[:5]]
    for one in judged:
        assert one.loss == pytest.approx(max(0.0, one.best_value - one.played_value))
    worse = [one for one in judged if one.loss > 0]
    assert worse, "five moves of a random position, and all of them the best?"
    assert all(one.best != one.played for one in worse)
    # The best move found, judged as the move played, loses nothing.
    best = judge(seen, state.parse_action(worse[0].best), number, worlds=2, width=2)
    assert best.played == best.best and best.loss == 0


def test_a_whole_record_is_judged_decision_by_decision():
    record, _ = GameRecord.random(games.get("topiary"), 2, {}, 5)
    judged = list(analyse(record, worlds=1))
    numbers = [j.number for j in judged]
    assert numbers == sorted(set(numbers)) and numbers and numbers[-1] <= len(record.actions)
    replayed = record.initial_state()
    choices = set()
    for number, text in enumerate(record.actions, start=1):
        if len(replayed.legal_actions()) > 1:
            choices.add(number)
        replayed.apply(replayed.parse_action(text))
    assert set(numbers) == choices  # every decision with a choice, and no forced one
    for j in judged:
        assert j.played == record.actions[j.number - 1] and j.loss >= 0


def test_a_move_that_is_not_legal_is_refused_with_its_number():
    state, number = decision("topiary", 4)
    seat = state.to_move
    assert seat is not None
    other_seat = observe(state, 1 - seat)  # not its turn: nothing is legal for it
    with pytest.raises(ValueError, match=f"move {number}: .* is not legal for seat"):
        judge(other_seat, state.legal_actions()[0], number)
