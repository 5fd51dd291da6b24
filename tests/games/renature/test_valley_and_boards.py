"""Valley rules, the board checker and data drop-ins."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from meadow import games
from meadow.cli import main
from meadow.games.renature import board as board_module
from meadow.games.renature import components as c
from meadow.games.renature.actions import PlaceDomino, PlaceMushroom, SkipMushroom
from meadow.games.renature.board import from_data
from meadow.games.renature.rules import RenatureState
from meadow.games.renature.scoring import NEUTRAL, majority, valley_area_points
from tests.games.renature.helpers import OWL, WOODPECKER, cover, domino, give, plant, state_on

MEADOW = from_data(
    {
        "kind": "test",
        "map": ["......", ".AA...", "......", "...BB.", "......"],
        "start": ["a1"],
        "stumps": ["b1"],
        "clouds": {"c3": 1, "f1": 1},
    },
    "meadow",
)


def test_covering_a_stump_offers_a_mushroom_beside_an_area():
    state = state_on(MEADOW, valley=True)
    give(state, 0, [domino(OWL, OWL)])
    state.apply(PlaceDomino(domino(OWL, OWL), "a1", "b1"))
    assert state.phase == "mushroom"
    offered = {a.cell for a in state.legal_actions() if isinstance(a, PlaceMushroom)}
    assert "c3" not in offered  # it holds a cloud
    assert "a1" not in offered and "b1" not in offered  # covered
    assert "f5" not in offered  # beside no area
    assert {"a2", "d2", "b3", "d3", "e3"} <= offered
    state.apply(PlaceMushroom("d3"))  # beside a2-c2's A? no: beside B (d4) only
    assert state.area_id[state.board.cell_at("d3")] == "B"
    assert state.mushrooms_left == 7


def test_a_mushroom_may_be_declined():
    state = state_on(MEADOW, valley=True)
    give(state, 0, [domino(OWL, OWL)])
    state.apply(PlaceDomino(domino(OWL, OWL), "a1", "b1"))
    state.apply(SkipMushroom())
    assert state.mushrooms_left == 8 and state.phase in ("plant", "end", "domino")


def test_a_meadow_cloud_is_taken_with_the_domino():
    state = state_on(MEADOW, valley=True)
    cover(state, ["d1"], OWL)
    state.seats[0].clouds = 5
    give(state, 0, [domino(OWL, OWL)])
    state.apply(PlaceDomino(domino(OWL, OWL), "e1", "f1"))
    assert state.seats[0].clouds == 6 and state.board.cell_at("f1") not in state.board_clouds


def test_valley_areas_score_only_at_the_end_by_size():
    """First 1 point per space, second half of that rounded down; a lone colour both."""
    state = state_on(MEADOW, valley=True)
    plant(state, "b2", "oak", 0)
    plant(state, "c2", "bush", 1)
    plant(state, "d4", "turf", 1)
    for seat in state.seats:
        seat.hand, seat.reserve, seat.clouds = [], [], 0
        seat.supply = dict.fromkeys(seat.supply, 0)
    state._final_scoring()
    assert state.seats[0].points["areas"] == 2  # area A (2 spaces): first
    assert state.seats[1].points["areas"] == 1 + (2 + 1)  # A: second (1); B alone: 2 + 1
    assert "token_backs" not in state.seats[0].points


def test_valley_tie_break_majority_in_the_largest_area():
    state = state_on(MEADOW, valley=True)
    state._apply_mushroom(0, state.board.cell_at("d3"))  # B grows to 3: the largest
    plant(state, "d4", "oak", 1)
    plant(state, "e4", "turf", 0)
    plant(state, "b2", "pine", 0)
    for seat in state.seats:
        seat.hand, seat.reserve, seat.clouds = [], [], 0
        seat.supply = dict.fromkeys(seat.supply, 0)
        seat.points = dict.fromkeys(seat.points, 0)
    state._final_scoring()
    result = state.result()
    assert result.tiebreak == ("majority in the largest area",)
    # B (3 spaces): blue 4 first -> 3, orange 1 second -> 1; A (2): orange alone -> 2 + 1
    assert result.scores == (4, 3)


def test_irrelevant_animals_have_no_free_space_left_beside_them():
    state = state_on(MEADOW, valley=True)
    cover(state, ["a1", "b1"], OWL)
    assert state.irrelevant_animals() == []
    cover(state, ["c1", "a2"], OWL)  # b1 is now walled in: nothing can go beside it
    assert state.board.cell_at("b1") in state.irrelevant_animals()


def _check(capsys, tmp_path: Path, data: dict) -> tuple[int, str, str]:
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exited:
        main(["renature", "check-board", str(path)])
    out, err = capsys.readouterr()
    return exited.value.code or 0, out, err


@pytest.mark.parametrize("name", ["board_base.json", "board_valley.json", "board_valley_back.json"])
def test_the_shipped_boards_pass_the_checker(capsys, tmp_path, name):
    data = json.loads((Path(c.__file__).parent / "data" / name).read_text())
    code, out, _ = _check(capsys, tmp_path, data)
    assert code == 0
    assert "counts add up" in out and "stand-in" in out
    rows = [
        line for line in out.splitlines() if line.startswith(" ") and line[:3].strip().isdigit()
    ]
    assert len(rows) == 15


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["map"].__setitem__(1, d["map"][1][:14] + "A"), "area A is not one connected"),
        (lambda d: d.update(start=["b2"]), "start space b2 is not a brook"),
        (lambda d: d.update(start=["a1", "c1", "g1", "k1", "o1"]), "5 start spaces, not 4"),
        (lambda d: d.update(clouds={"b3": 9}), "clouds must lie on 4 area spaces"),
        (lambda d: d["map"].__setitem__(4, "." * 7 + "Z" + "." * 7), "19 areas, not 18"),
        (lambda d: d["map"].__setitem__(0, "Y" + d["map"][0][1:]), "no area token left"),
        (lambda d: d.update(kind="chess"), "'kind' must be one of"),
        (lambda d: d["map"].__setitem__(3, "AA"), "map row 4 has 2 spaces"),
    ],
)
def test_the_checker_names_what_is_wrong(capsys, tmp_path, change, message):
    data = json.loads((Path(c.__file__).parent / "data" / "board_base.json").read_text())
    change(data)
    code, _, err = _check(capsys, tmp_path, data)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_a_walled_in_brook_space_is_a_pocket():
    with pytest.raises(board_module.BoardError, match="c2 has no brook neighbour"):
        from_data({"kind": "test", "map": ["..A", "AA.", "AAA"], "start": ["a1"]})


def test_real_values_drop_in_without_code(tmp_path, monkeypatch):
    """A host puts a data file in $MEADOW_GAME_DATA/renature/; the game uses it instead."""
    tokens = json.loads((Path(c.__file__).parent / "data" / "area_tokens.json").read_text())
    for token in tokens["tokens"]:
        token["back"] = 9
    tokens["standin"] = False
    (tmp_path / "renature").mkdir()
    (tmp_path / "renature" / "area_tokens.json").write_text(json.dumps(tokens))
    monkeypatch.setenv("MEADOW_GAME_DATA", str(tmp_path))
    for cached in (c.area_tokens, c.token_index, c.standins):
        cached.cache_clear()
    try:
        assert {t.back for t in c.area_tokens()} == {9}
        assert "area tokens" not in c.standins()
    finally:
        monkeypatch.delenv("MEADOW_GAME_DATA")
        for cached in (c.area_tokens, c.token_index, c.standins):
            cached.cache_clear()
    assert {t.back for t in c.area_tokens()} != {9}
    assert games.get("renature").setup(2, seed=1) is not None
    assert WOODPECKER == 3


# The largest area L (4 spaces) and a smaller one S (3), far apart.
TIES = from_data(
    {
        "kind": "test",
        "map": [".......", ".LLLL..", ".......", ".SSS...", "......."],
        "start": ["a1"],
    },
    "ties",
)
# Two equally large largest areas X and Y (3 spaces each).
TWINS = from_data(
    {
        "kind": "test",
        "map": [".......", ".XXX...", ".......", ".YYY...", "......."],
        "start": ["a1"],
    },
    "twins",
)


def _final_scores(state: RenatureState, clouds: tuple[int, ...]) -> tuple[int, ...]:
    """End the game on the plants laid so far: nothing else scores but the areas and the
    given clouds (+1 each)."""
    for seat, kept in zip(state.seats, clouds, strict=True):
        seat.hand, seat.reserve, seat.clouds = [], [], kept
        seat.supply = dict.fromkeys(seat.supply, 0)
        seat.points = dict.fromkeys(seat.points, 0)
    state._final_scoring()
    return state.result().scores


def test_valley_tie_break_tied_colours_cancel_and_neutral_counts():
    """Seed 000, Valley, "Spielende": "Bei Gleichstand gewinnt, wer im größten Gebiet die
    Mehrheit hat" -- the majority as that section's area scoring decides it ("Gibt es mehrere
    Farben mit dem gleichen Gesamtwert, werden diese Farben bei der Gebietswertung ignoriert").
    Seat 0's 3 and neutral's 3 cancel in L, so seat 1's 2 holds the majority."""
    state = state_on(TIES, valley=True)
    plant(state, "b2", "pine", 0)
    plant(state, "c2", "pine", NEUTRAL)
    plant(state, "d2", "bush", 1)
    plant(state, "b4", "turf", 0)
    # L (4): seat 1 alone after the cancelling -> 4 + 2; S (3): seat 0 alone -> 3 + 1, + 2 clouds
    assert _final_scores(state, (2, 0)) == (6, 6)
    assert state.result().ranking == ((1,), (0,))


def test_valley_tie_break_shared_when_another_seat_holds_the_majority():
    """Seed 000, Valley, "Spielende": "Bei Gleichstand gewinnt, wer im größten Gebiet die
    Mehrheit hat. Gibt es dann noch immer einen Gleichstand, gibt es mehrere Gewinner."
    Seat 2 holds the majority in L, so neither tied seat has it: seats 0 and 1 share the win."""
    state = state_on(TIES, players=3, valley=True)
    plant(state, "b2", "oak", 2)
    plant(state, "c2", "pine", 0)
    plant(state, "d2", "bush", 1)
    plant(state, "b4", "turf", 1)
    # L (4): seat 2 first -> 4, seat 0 second -> 2, + 5 clouds; S (3): seat 1 alone -> 3 + 1,
    # + 3 clouds
    assert _final_scores(state, (5, 3, 0)) == (7, 7, 4)
    assert state.result().ranking == ((0, 1), (2,))


def test_valley_tie_break_counts_majorities_in_equally_large_largest_areas():
    """Open point (docs/renature.md): with several largest areas, each is "das größte Gebiet"
    of seed 000, Valley, "Spielende"; the tied seat holding the majority in more of them wins.
    Adding their totals together would favour seat 0 (2 + 3 = 5 against 3), who holds the
    majority in neither (neutral's 4 beats its 3 in Y)."""
    state = state_on(TWINS, valley=True)
    plant(state, "b2", "pine", 1)
    plant(state, "c2", "bush", 0)
    plant(state, "b4", "oak", NEUTRAL)
    plant(state, "c4", "pine", 0)
    # X (3): seat 1 first -> 3, seat 0 second -> 1; Y (3): neutral first, seat 0 second -> 1
    assert _final_scores(state, (1, 0)) == (3, 3)
    assert state.result().ranking == ((1,), (0,))


def test_valley_tie_break_shared_when_each_holds_one_equally_large_largest_area():
    """Open point (docs/renature.md), then seed 000, Valley, "Spielende": "Gibt es dann noch
    immer einen Gleichstand, gibt es mehrere Gewinner." One majority each: still tied."""
    state = state_on(TWINS, valley=True)
    plant(state, "b2", "pine", 0)
    plant(state, "c2", "turf", 1)
    plant(state, "b4", "pine", 1)
    plant(state, "c4", "turf", 0)
    # X (3): seat 0 first -> 3, seat 1 second -> 1; Y (3) the other way round
    assert _final_scores(state, (0, 0)) == (4, 4)
    assert state.result().ranking == ((0, 1),)


def test_the_majority_is_the_colour_the_valley_area_scoring_puts_first():
    """The tie-break's majority and the final area scoring agree on every small position:
    the holder gets at least a point per space, nobody else does."""
    values = range(4)
    for seat_0, seat_1, neutral in itertools.product(values, values, values):
        totals = {0: seat_0, 1: seat_1, NEUTRAL: neutral}
        points = valley_area_points(totals, 4)
        first = {colour for colour, p in points.items() if p >= 4}
        holder = majority(totals)
        assert first == ({holder} - {None, NEUTRAL}), totals
