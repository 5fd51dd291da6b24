"""What Renature's searches read: its evaluation, and the plant settled for them
(`Renature.settled_choice`, `best_planting`)."""

from __future__ import annotations

import pytest

from meadow import games
from meadow.core.game import best_by_evaluation, margins
from meadow.core.rng import Rng
from meadow.games.renature import components as c
from meadow.games.renature.actions import PlaceDomino, PlacePlant, SkipPlant
from meadow.games.renature.rules import DOMINO, PLANT, RenatureState

RENATURE = games.get("renature")


def _plant_phases(players: int, options: dict[str, str], seed: int):
    """Every position of a random game where a plant is to be chosen."""
    state = RENATURE.setup(players, options, seed)
    assert isinstance(state, RenatureState)
    rng = Rng(seed)
    while not state.is_over:
        legal = state.legal_actions()
        if state.phase == PLANT:
            yield state
        state.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {"board": "valley"}), (4, {}), (2, {"board": "valley"})]
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_plantings_lead_is_the_evaluations_after_playing_it(players, options, seed):
    """What `best_planting` works out for a plant is the lead the evaluation gives after
    playing it, in every plant phase of random games (base and Valley, 2-4 players)."""
    checked = 0
    for state in _plant_phases(players, options, seed):
        mover = state.to_move
        values = RENATURE.evaluate(state)
        room = c.CLOUD_SPACES - state.seats[mover].clouds
        for action in state.legal_actions():
            if not isinstance(action, PlacePlant):
                continue
            after = state.clone()
            after.apply(action)
            if after.is_over:  # the last plant of the game: final scoring, not the estimate
                continue
            worked_out = state._after_planting(action, mover, values, room)
            assert margins(worked_out, mover) == margins(RENATURE.evaluate(after), mover), action
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", [4, 5])
def test_best_planting_is_best_by_evaluation_over_the_plants(seed):
    """The plant chosen is the one `best_by_evaluation` chooses (cloud actions aside, which
    one step on only spend clouds: it never prefers one)."""
    for state in _plant_phases(2, {}, seed):
        chosen = state.best_planting()
        assert isinstance(chosen, PlacePlant | SkipPlant)
        assert chosen == best_by_evaluation(RENATURE, state)
        assert RENATURE.settled_choice(state) == chosen


# Seed 9's Valley game has a mushroom join two planted areas, which random games rarely do.
@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 6), (3, {"board": "valley"}, 6), (2, {"board": "valley"}, 9)],
)
def test_the_kept_area_totals_are_each_areas_own_all_game_long(players, options, seed):
    """`area_totals` is kept on the state (and shared by its copies) until a plant, a return
    or a mushroom changes it: at every step of random games, base and Valley, it holds each
    planted area's `totals` and no other area, and a copy's moves never change the
    original's."""
    state = RENATURE.setup(players, options, seed)
    assert isinstance(state, RenatureState)
    rng = Rng(seed)
    steps = 0
    while not state.is_over:
        expected = {area: state.totals(area) for area in state.areas() if state.totals(area)}
        assert state.area_totals() == expected
        copy = state.clone()
        legal = copy.legal_actions()
        copy.apply(legal[rng.below(len(legal))])
        assert state.area_totals() == expected  # the copy moved on, not the original
        state = copy
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("seed", range(4))
def test_a_domino_that_closes_areas_counts_their_token_backs_for_its_placer(seed):
    """The backs of the area tokens a player takes score for them at the end (seed 001,
    final scoring), so the evaluation counts a back from the domino that closes its area
    on, before the plant after it and the area's scoring: a domino changes its placer's
    evaluation by the backs of the areas it closes, and nobody else's (the area's own
    points it counted as if scored already)."""
    state = RENATURE.setup(2, {}, seed)
    rng = Rng(seed)
    closing = 0
    while not state.is_over:
        legal = state.legal_actions()
        if state.phase == DOMINO:
            mover = state.to_move
            before = RENATURE.evaluate(state)
            for action in [a for a in legal if isinstance(a, PlaceDomino)][:12]:
                after = state.clone()
                after.apply(action)
                if after.is_over:
                    continue
                closed = [t for area, t in state.tokens_on.items() if after.closed(area)]
                backs = sum(c.area_tokens()[t].back for t in closed)
                expected = [v + (backs if s == mover else 0) for s, v in enumerate(before)]
                assert RENATURE.evaluate(after) == expected, action
                closing += bool(closed)
        state.apply(legal[rng.below(len(legal))])
    assert closing > 0
