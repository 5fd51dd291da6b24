"""A whole game analysed (meadow.analysis.report): win chances, marks, turns, accuracy and
the biggest swings told in words; the win-chance mapping and the marks it is cut into."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from meadow import games
from meadow.analysis import Mark, accuracy, analyse_game, for_game
from meadow.analysis.marks import _measured, thresholds
from meadow.analysis.win_chance import WinChance, fitted_data
from meadow.core.record import GameRecord

COUNTS = [(g, n) for g in games.ids() for n in games.get(g).player_counts if n >= 2]


@pytest.mark.parametrize(("game_id", "players"), COUNTS)
def test_every_game_and_player_count_has_a_mapping_that_grows_with_the_lead(
    game_id: str, players: int
):
    mapping = for_game(game_id, players)
    assert mapping is not None
    for step in range(11):
        progress = step / 10
        chances = [mapping.chance(lead, progress) for lead in range(-60, 61, 3)]
        assert all(0 <= c <= 1 for c in chances)
        assert all(a < b for a, b in itertools.pairwise(chances))  # strictly, not only weakly
    # Sixty points ahead at the end is a likely win, sixty behind a likely loss.
    assert mapping.chance(60, 1.0) > 0.8 and mapping.chance(-60, 1.0) < 0.2


def test_a_solo_game_has_no_win_chance_and_an_unfitted_count_is_named():
    assert for_game("harmonies", 1) is None
    with pytest.raises(KeyError, match="no win-chance mapping for topiary with 9 players"):
        for_game("topiary", 9)


def test_a_mapping_that_falls_as_the_lead_grows_is_refused():
    with pytest.raises(ValueError, match="must grow with the lead"):
        WinChance("topiary", 2, 0.0, 0.1, -0.01)


def test_the_fitted_mappings_say_where_they_came_from_and_beat_the_base_rate():
    """Each fit keeps its held-out figures; a 2-player fit predicts the winner better than
    knowing nothing (the base rate), else its marks would mean nothing."""
    data = fitted_data()
    assert "bench.win_chance" in data["how"]
    for game_id in games.ids():
        fit = data["fits"][f"{game_id}/2"]
        held = fit["held_out"]
        assert fit["games"] >= 16 and fit["positions"] > 100
        assert held["log_loss"] < held["base_log_loss"], game_id


def test_accuracy_is_100_for_nothing_lost_and_falls_with_the_loss():
    assert accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    figures = [accuracy(loss / 100) for loss in range(0, 101, 5)]
    assert all(a > b for a, b in itertools.pairwise(figures) if a > 0)
    assert figures[-1] == 0.0


@pytest.mark.parametrize("game_id", games.ids())
def test_marks_are_cut_in_order(game_id: str):
    cuts = thresholds(game_id)
    assert game_id in _measured()  # measured, not the default
    assert 0 < cuts.good < cuts.inaccuracy < cuts.mistake < cuts.blunder < 1
    assert cuts.mark(0.0) is Mark.BEST
    assert cuts.mark(cuts.blunder) is Mark.BLUNDER
    assert cuts.mark((cuts.inaccuracy + cuts.mistake) / 2) is Mark.INACCURACY


@pytest.mark.parametrize("game_id", ["topiary", "harmonies"])
def test_a_random_game_analysed_whole(game_id: str):
    record, _ = GameRecord.random(games.get(game_id), 2, {}, 7)
    analysis = analyse_game(record, worlds=2)
    assert analysis.moves == len(record.actions)
    cuts = thresholds(game_id)
    for d in analysis.decisions:
        assert d.chance_played is not None and d.chance_best is not None
        assert d.chance_loss == pytest.approx(max(0.0, d.chance_best - d.chance_played))
        same = d.judgement.played == d.judgement.best
        assert d.mark is (Mark.BEST if same else cuts.mark(d.chance_loss))
    # The turns are the game's moves, each once, in order, each turn one seat's run.
    walked = [move for turn in analysis.turns for move in turn.played]
    assert walked == list(record.actions)
    seats = [turn.seat for turn in analysis.turns]
    assert all(a != b for a, b in itertools.pairwise(seats))
    for seat in analysis.seats:
        own = [d for d in analysis.decisions if d.judgement.seat == seat.seat]
        assert seat.decisions == len(own) and sum(seat.marks.values()) == len(own)
        assert 0 <= seat.accuracy <= 100
        # Random play gives something away somewhere, and the biggest of it is told.
        assert seat.accuracy < 100 and seat.swings
        own_turns = [t for t in analysis.turns if t.seat == seat.seat]
        assert seat.worst_turn == max(own_turns, key=lambda t: t.chance_loss).number
        worst = max(own, key=lambda d: d.chance_loss)
        assert seat.swings[0].move == worst.judgement.number
        assert f"move {worst.judgement.number}: played {worst.judgement.played}" in (
            seat.swings[0].words
        )


def test_a_swing_names_the_scoring_categories_the_better_move_gains():
    """On a game stopped a third of the way in (an analysis takes those as well)."""
    whole, _ = GameRecord.random(games.get("harmonies"), 2, {}, 7)
    record = dataclasses.replace(whole, actions=whole.actions[: len(whole.actions) // 3])
    analysis = analyse_game(record, worlds=2)
    assert analysis.moves == len(record.actions) < len(whole.actions)
    swings = [s for seat in analysis.seats for s in seat.swings]
    categories = set(games.get("harmonies").points_now(record.initial_state(), 0))
    assert any(s.gains for s in swings)
    for swing in swings:
        assert set(swing.gains) <= categories
        named = [name for name, gain in swing.gains.items() if gain >= 0.5]
        assert all(f"{name} +" in swing.words for name in named)


def test_a_solo_game_is_marked_from_its_points():
    whole, _ = GameRecord.random(games.get("harmonies"), 1, {}, 4)
    record = dataclasses.replace(whole, actions=whole.actions[: len(whole.actions) // 2])
    analysis = analyse_game(record, worlds=1)
    assert analysis.decisions and all(d.chance_played is None for d in analysis.decisions)
    assert any(d.chance_loss > 0 for d in analysis.decisions)
