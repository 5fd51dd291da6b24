"""Planted blunders (bench/coach.py): in each game, a move known to give away many points
(every legal move played on in a few worlds), played where it is the worst of its position,
earns a mark worth a look from the coach's own, narrower look."""

from __future__ import annotations

import pytest

from bench.coach import GAME_MOVES, GAPS, planted
from meadow.analysis import Mark, judge
from meadow.analysis.marks import thresholds
from meadow.analysis.report import placed
from meadow.analysis.win_chance import for_game

WORTH_A_LOOK = {Mark.INACCURACY, Mark.MISTAKE, Mark.BLUNDER}


@pytest.mark.parametrize("game_id", ["topiary", "harmonies", "renature", "mystic_vale"])
def test_the_biggest_planted_blunder_of_a_few_positions_is_marked(game_id: str):
    cases = [case for seed in range(1, 13) if (case := planted(game_id, seed, GAPS[game_id]))]
    assert cases, "no position of twelve had a move that gives so much away"
    seen, move, number, lost = max(cases, key=lambda case: case[3])
    judgement = judge(seen, move, number, worlds=8)
    assert judgement.best != judgement.played and judgement.loss > 0
    mapping = for_game(game_id, 2)
    assert mapping is not None
    decision = placed(
        judgement, 0, mapping, False, thresholds(game_id), number / GAME_MOVES[game_id]
    )
    assert decision.mark in WORTH_A_LOOK, (
        f"{move} gave away {lost:.1f} points played on whole, {judgement.loss:.1f} judged; "
        f"win chance {decision.chance_loss:.3f}, marked {decision.mark}"
    )
