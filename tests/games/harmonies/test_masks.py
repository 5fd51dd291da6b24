"""The engine's scoring by masks (`masks`) against the reference scoring (`scoring`), and the
evaluation's figures worked out step by step against the same figures from scratch."""

from __future__ import annotations

import pytest

from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies import planning, scoring
from meadow.games.harmonies.rules import HarmoniesState
from tests.games.harmonies.helpers import fresh


def _boards(seed: int, side: str) -> list[HarmoniesState]:
    """Every state of a random 2-player game, with spirits."""
    state = fresh(2, seed, side=side, spirits=True)
    rng = Rng(seed)
    found = []
    while not state.is_over:
        found.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return found


@pytest.mark.parametrize("side", ["A", "B"])
def test_points_by_masks_are_the_reference_points(side: str) -> None:
    for state in _boards(3, side)[::4]:
        for seat in range(state.players):
            stacks = state.stacks_of(seat)
            expected = scoring.breakdown(stacks, side, [])
            del expected["animals"], expected["spirit"]
            assert state.board_points(seat) == tuple(expected.values())
            for spirit in c.SPIRIT_IDS:
                card = c.cards()[spirit]
                assert state.spirit_points(seat, spirit) == scoring.spirit_points(card, stacks)


@pytest.mark.parametrize("side", ["A", "B"])
def test_figures_worked_out_from_the_board_before_are_those_from_scratch(side: str) -> None:
    """Evaluated every step or every few, each board's memo starts from the last one that
    worked something out (a few tokens or cubes since): its habitat distances and values
    must be those of the board seen afresh."""
    state = fresh(2, 4, side=side, spirits=True)
    rng = Rng(4)
    while not state.is_over:
        if rng.below(3) == 0:  # a few steps unseen, as in a search's playout
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            continue
        afresh = state.clone()
        afresh.forget_derived()
        for seat in range(2):
            for cid in c.cards():
                stepwise = planning.habitat_distances(state, seat, cid)
                assert stepwise == planning.habitat_distances(afresh, seat, cid)
            assert planning.value(state, seat) == planning.value(afresh, seat)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
