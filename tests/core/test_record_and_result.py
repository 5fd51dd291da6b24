from __future__ import annotations

import pytest

from meadow import games
from meadow.core.errors import RecordError, SetupError, UnknownGame
from meadow.core.record import GameRecord
from meadow.core.result import Result, rank


def test_rank_groups_equal_keys_best_first():
    assert rank([(3,), (5,), (3,), (1,)]) == ((1,), (0, 2), (3,))


def test_result_places_share_numbers_for_ties():
    result = Result((5, 7, 5), ({}, {}, {}), ((1,), (0, 2)))
    assert [result.place(s) for s in range(3)] == [2, 1, 2]
    assert Result.from_json(result.to_json()) == result


def test_unknown_game_names_the_games():
    with pytest.raises(UnknownGame, match="topiary"):
        games.get("catan")


@pytest.mark.parametrize("bad", [1, 5, "2"])
def test_bad_player_count(bad):
    with pytest.raises(SetupError, match="2-4 players"):
        games.get("topiary").setup(bad)


def test_bad_seed():
    with pytest.raises(SetupError, match="seed"):
        games.get("topiary").setup(2, seed=-4)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "other"}, "not a Meadow game record"),
        ({"format": "meadow-record/1", "game": "topiary"}, "lacks or garbles"),
        (
            {
                "format": "meadow-record/1",
                "game": "topiary",
                "players": 2,
                "options": {},
                "seed": 1,
                "actions": [3],
            },
            "must be a text",
        ),
    ],
)
def test_bad_records_are_refused(data, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(data)


def test_record_with_bad_options_is_refused_on_replay():
    record = GameRecord("topiary", 2, {"take": "never"}, 1, [])
    with pytest.raises(RecordError, match="cannot set up"):
        record.replay()


def test_state_from_json_refuses_garbage():
    with pytest.raises(RecordError):
        games.state_from_json({"game": "topiary", "players": 2})
    with pytest.raises(RecordError):
        games.state_from_json([1, 2])


def test_base_evaluation_gives_final_scores_and_refuses_unfinished_games():
    from meadow.core.game import Game
    from meadow.core.play import random_playout
    from meadow.core.rng import Rng

    topiary = games.get("topiary")
    state = topiary.setup(2, seed=3)
    with pytest.raises(NotImplementedError, match="no evaluation for unfinished games"):
        Game.evaluate(topiary, state)
    random_playout(state, Rng(3))
    assert Game.evaluate(topiary, state) == [float(x) for x in state.result().scores]


def test_a_replay_step_is_the_game_up_to_that_move():
    """`GameRecord.step`: the start at 0, then each move's text, mover, events and state."""
    topiary = games.get("topiary")
    record, state = GameRecord.start(topiary, 2, None, 11)
    for _ in range(3):
        action = state.legal_actions()[0]
        mover = state.to_move
        events = state.apply(action)
        record.add(action)
    start = record.step(0)
    assert (start.action, start.seat, start.events) == (None, None, [])
    assert start.state == record.initial_state()
    last = record.step(3)
    assert (last.action, last.seat) == (record.actions[-1], mover)
    assert [e.for_seat(None) for e in last.events] == [e.for_seat(None) for e in events]
    assert last.state == state
    with pytest.raises(RecordError, match=r"moves 0\.\.3"):
        record.step(4)
