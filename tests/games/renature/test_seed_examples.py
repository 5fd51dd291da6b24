"""Every worked example in seed 001 (English Yucata rules; 000 is the German page)."""

from __future__ import annotations

from meadow.games.renature import components as c
from meadow.games.renature.actions import PlaceDomino, PlaceMushroom, PlacePlant
from meadow.games.renature.board import from_data
from meadow.games.renature.scoring import NEUTRAL
from tests.games.renature.helpers import (
    OWL,
    RING,
    WOODPECKER,
    cover,
    domino,
    give,
    plant,
    state_on,
)

MARY, FRANK = 0, 1


def _plant_now(state, seat: int, beside: tuple[str, str], action: PlacePlant) -> int:
    """Let `seat` plant as if its domino had just gone on `beside`; return the points."""
    state.seat, state.phase = seat, "plant"
    state.last_domino = tuple(state.board.cell_at(x) for x in beside)
    state.forget_derived()
    before = state.seats[seat].points["plants"]
    state.apply(action)
    return state.seats[seat].points["plants"] - before


def test_plant_points_mary_and_frank_a_to_d():
    """Step C 1, example a-d: bush 1, turf 1, bush 3, neutral pine 4 in a 4-space area."""
    state = state_on(RING)
    assert _plant_now(state, MARY, ("a2", "a3"), PlacePlant("bush", False, "b2")) == 1
    assert _plant_now(state, FRANK, ("d2", "d3"), PlacePlant("turf", False, "c2")) == 1
    assert _plant_now(state, FRANK, ("b4", "c4"), PlacePlant("bush", False, "b3")) == 3
    assert _plant_now(state, MARY, ("d2", "d3"), PlacePlant("pine", True, "c3")) == 4


def _ring_almost_closed(state) -> None:
    """Every brook space beside the area covered by owls but b1-c1."""
    cover(state, ["a1", "d1", "a2", "d2", "a3", "d3", "a4", "b4", "c4", "d4"], OWL)


def test_area_scoring_example_1_mary_alone_after_the_tie():
    """Mary (bush 2), Frank (bush + turf 3), neutral (pine 3): black and neutral tie and
    drop out, Mary is alone: 4 + 2 = 6, and she takes the token for closing the area."""
    state = state_on(RING)
    _ring_almost_closed(state)
    plant(state, "b2", "bush", MARY)
    plant(state, "c2", "bush", FRANK)
    plant(state, "b3", "turf", FRANK)
    plant(state, "c3", "pine", NEUTRAL)
    give(state, MARY, [domino(OWL, OWL)])
    assert state.tokens_on["A"] is not None
    events = state.apply(PlaceDomino(domino(OWL, OWL), "b1", "c1"))
    scored = [e for e in events if e.kind == "area_scored"]
    assert len(scored) == 1 and scored[0].public["points"] == {"0": 6}
    assert state.seats[MARY].points["areas"] == 6
    assert state.seats[FRANK].points["areas"] == 0
    assert len(state.seats[MARY].collected) == 1 and "A" in state.scored
    token = c.area_tokens()[state.seats[MARY].collected[0]]
    assert (token.main, token.minor) == (4, 2)
    assert scored[0].for_seat(MARY)["back"] == token.back
    assert "back" not in scored[0].for_seat(FRANK)


def test_area_scoring_example_2_neutral_first_frank_second():
    """Neutral has the highest total, Frank the second: Frank gains the minor 2 points."""
    state = state_on(RING)
    _ring_almost_closed(state)
    plant(state, "b2", "oak", NEUTRAL)
    plant(state, "c2", "pine", FRANK)
    plant(state, "b3", "turf", MARY)
    give(state, MARY, [domino(OWL, OWL)])
    state.apply(PlaceDomino(domino(OWL, OWL), "b1", "c1"))
    assert state.seats[FRANK].points["areas"] == 2
    assert state.seats[MARY].points["areas"] == 0


# Valley, "WHAT IS NEW?" 4: the 16-space example. Areas A+B were joined by a mushroom on
# g3 (7 spaces), C+D by one on g7 (8 spaces); a mushroom on g5 joins both: 7 + 8 + 1 = 16.
VALLEY_EDGE = from_data(
    {
        "kind": "test",
        "map": [
            ".......",
            "....AAA",
            ".......",
            "....BBB",
            ".......",
            "...CCCC",
            ".......",
            "....DDD",
            ".......",
        ],
        "start": ["g9"],
        "stumps": ["f9"],
    },
    "valley edge",
)


def test_valley_mushroom_joins_a_16_space_area_and_the_oak_scores_11():
    state = state_on(VALLEY_EDGE, valley=True)
    for mushroom in ("g3", "g7"):  # the two earlier joins
        state._apply_mushroom(0, state.board.cell_at(mushroom))
    assert sorted(len(cells) for cells in state.areas().values()) == [7, 8]
    ten = ["e2", "f2", "g2", "e4", "f4", "d6", "e6", "f6", "e8", "g8"]
    for i, cell in enumerate(ten):
        plant(state, cell, ("turf", "bush", "pine", "oak")[i % 4], i % 2)
    state.phase = "domino"
    give(state, 0, [domino(WOODPECKER, WOODPECKER)])
    state.apply(PlaceDomino(domino(WOODPECKER, WOODPECKER), "f9", "g9"))
    assert state.phase == "mushroom"  # covering the stump on f9 earned a mushroom
    assert PlaceMushroom("g5") in state.legal_actions()
    state.apply(PlaceMushroom("g5"))
    (area,) = {state.area_id[state.board.cell_at(x)] for x in ("e2", "g5", "e8")}
    assert len(state.areas()[area]) == 16
    before = state.seats[0].points["plants"]
    state.apply(PlacePlant("oak", False, "f8"))
    assert state.seats[0].points["plants"] - before == 1 + 10
