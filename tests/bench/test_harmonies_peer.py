"""bench/harmonies_peer's adapter: Meadow's view -> the peer's request, its plan -> Meadow.

Only the last test runs the peer (miles2542/harmonies-bot's harmonies-cli); it is skipped
unless MEADOW_HARMONIES_PEER names its built checkout (see the bench module's docstring).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from bench import harmonies_peer as hp
from meadow import games
from meadow.bots import observe
from meadow.core.actions import Action
from meadow.core.rng import Rng
from meadow.games.harmonies import components as c
from meadow.games.harmonies.actions import ChooseSpirit, PlaceCube, PlaceToken, TakeCard, TakeTokens
from meadow.games.harmonies.rules import HarmoniesState


def deal(seed: int = 7) -> HarmoniesState:
    state = games.get("harmonies").setup(2, hp.OPTIONS, seed)
    assert isinstance(state, HarmoniesState)
    return state


def test_every_card_has_a_distinct_type_arg_known_to_meadow() -> None:
    args = hp.type_args()
    assert sorted(args) == sorted(card.slug for card in c.cards().values())
    assert sorted(args.values()) == list(range(1, 43))
    assert all(hp.slugs_by_type_arg()[arg] == slug for slug, arg in args.items())


def test_cell_names_round_trip_through_the_peers_coordinates() -> None:
    for name in c.board("A").names:
        coord = hp.to_coord(name)
        assert hp.from_coord(coord["col"], coord["row"]) == name
    assert hp.to_coord("c2") == {"col": 2, "row": 1}


def test_both_engines_share_the_odd_q_neighbours() -> None:
    # The peer's geometry test pins these (BGA's DOM layout); Meadow must agree.
    assert set(c.neighbours(2, 2)) == {(3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (2, 3)}
    assert set(c.neighbours(3, 2)) == {(4, 3), (4, 2), (3, 1), (2, 2), (2, 3), (3, 3)}


def test_the_request_shows_the_seat_what_it_may_know() -> None:
    state = deal()
    view = observe(state, 0).view
    req = hp.request(view, 0, 500, 1)
    snap: dict[str, Any] = req["snapshot"]  # type: ignore[assignment]
    assert req["timeBudgetMs"] == 500
    assert snap["perspectivePlayerId"] == snap["activePlayerId"] == "seat0"
    me, other = snap["players"]
    assert len(me["cells"]) == 23 and me["emptyHexes"] == 23
    offer = sorted(hp.type_args()[c.cards()[cid].slug] for cid in state.seats[0].offer)
    assert sorted(card["typeArg"] for card in me["spiritCardChoices"]) == offer
    assert other["spiritCardChoices"] == []  # the other seat's offer is hidden
    assert len(snap["centralTokenGroups"]) == 5
    assert all(len(group) == 3 for group in snap["centralTokenGroups"])
    assert len(snap["riverCards"]) == 5
    counts = snap["bagCounts"]
    assert sum(counts.values()) == sum(state.pouch.values())
    assert counts["building"] == state.pouch["red"]


def test_the_request_does_not_depend_on_hidden_information() -> None:
    state = deal()
    seen = hp.snapshot(observe(state, 1).view, 1)
    for k in range(5):
        world = state.sample_hidden(1, Rng(k))
        assert hp.snapshot(observe(world, 1).view, 1) == seen


def placement_plan(state: HarmoniesState) -> tuple[dict[str, Any], list[Action]]:
    """A legal opening turn written as the peer writes plans, and the Meadow actions."""
    spirit = min(state.seats[0].offer)
    tokens = state.central[0]
    cells = ["a1", "c1", "e1"]
    plan = {
        "orderedActions": [
            {"kind": "chooseSpirit", "cardId": spirit, "typeArg": spirit},
            {"kind": "takeGroup", "groupIndex": 0, "tokens": []},
        ]
        + [
            {"kind": "placeToken", "token": hp.TO_PEER[t], **hp.to_coord(cell)}
            for t, cell in zip(tokens, cells, strict=True)
        ]
    }
    actions: list[Action] = [ChooseSpirit(c.cards()[spirit].slug), TakeTokens(1)]
    actions += [PlaceToken(t, cell) for t, cell in zip(tokens, cells, strict=True)]
    return plan, actions


def test_a_plan_becomes_meadow_actions_and_a_whole_turn() -> None:
    state = deal()
    plan, expected = placement_plan(state)
    assert hp.plan_actions(plan) == expected
    turn = hp.play_plan(state, 0, expected)
    assert (turn.refused, turn.filled) == ([], 0)
    assert turn.applied[:-1] == expected
    assert state.to_move == 1
    assert sum(1 for stack in state.seats[0].stacks if stack) == 3


def test_a_refused_step_is_counted_and_stood_in_for() -> None:
    state = deal()
    _plan, actions = placement_plan(state)
    last = actions[-1]
    assert isinstance(last, PlaceToken)
    actions[-1] = PlaceToken(last.colour, "b5")  # side A's column b has 4 spaces
    turn = hp.play_plan(state, 0, actions)
    assert len(turn.refused) == 1 and "b5" in turn.refused[0]
    assert turn.filled == 0
    stand_in = turn.applied[-2]
    assert isinstance(stand_in, PlaceToken) and stand_in.colour == last.colour
    assert state.to_move == 1  # the stand-in placed the token and the turn ended


def test_a_refused_cube_is_dropped_not_replaced_by_another_cards() -> None:
    state = deal()
    _plan, actions = placement_plan(state)
    card_id = state.display[0]
    card = c.cards()[card_id].slug
    actions += [TakeCard(card), PlaceCube(card, "e1")]  # no habitat on a 3-token board
    turn = hp.play_plan(state, 0, actions)
    assert len(turn.refused) == 1 and card in turn.refused[0]
    assert not any(isinstance(a, PlaceCube) for a in turn.applied)
    assert [card_id, 0] in state.seats[0].held  # taken as planned, no cube on it
    assert state.to_move == 1


def test_a_short_plan_is_completed_with_mandatory_steps() -> None:
    state = deal()
    turn = hp.play_plan(state, 0, [])
    assert turn.filled == 5  # spirit, take, three tokens
    assert state.to_move == 1


def test_peer_settings_are_only_its_own_harmonies_variables() -> None:
    assert hp.peer_env(["HARMONIES_FUTURE_DEPTH=1"]) == (("HARMONIES_FUTURE_DEPTH", "1"),)
    for wrong in ("PATH=/tmp", "HARMONIES_FUTURE_DEPTH"):
        with pytest.raises(SystemExit):
            hp.peer_env([wrong])


PEER = os.environ.get("MEADOW_HARMONIES_PEER", "")


@pytest.mark.skipif(
    not PEER or not (Path(PEER) / hp.BINARY).is_file(),
    reason="MEADOW_HARMONIES_PEER names no built miles2542/harmonies-bot checkout",
)
def test_the_peers_first_plan_is_legal_in_meadow() -> None:
    peer = hp.Peer.at(Path(PEER), budget_ms=200)
    state = deal()
    view = observe(state, 0).view
    answer, _seconds = peer.advise(hp.request(view, 0, 200, 1))
    assert answer["status"] == "ready"
    assert all(ours == theirs for ours, theirs, _ in hp.score_checks(view, answer))
    turn = hp.play_plan(state, 0, hp.plan_actions(answer["bestMoves"][0]))
    assert (turn.refused, turn.filled) == ([], 0)
    assert state.to_move == 1


@pytest.mark.skipif(
    not PEER or not (Path(PEER) / hp.BINARY).is_file(),
    reason="MEADOW_HARMONIES_PEER names no built miles2542/harmonies-bot checkout",
)
def test_the_peer_scores_mapped_boards_as_meadow_does() -> None:
    # Water and spirits left out: the rules differ there (see the bench module's docstring).
    same = ("trees", "mountains", "fields", "buildings", "animals")
    peer = hp.Peer.at(Path(PEER))
    for seed in range(3):
        state = deal(seed)
        rng = Rng(seed)
        while not state.is_over:
            legal = state.legal_actions()
            cubes = [a for a in legal if isinstance(a, PlaceCube | TakeCard)]
            choices = cubes or legal  # cards and cubes first, so animals score too
            state.apply(choices[rng.below(len(choices))])
        view = dict(state.view(0), to_move=0)
        theirs = peer.score(hp.snapshot(view, 0))
        for seat in range(2):
            ours = state.points(seat)
            assert [ours[k] for k in same] == [theirs[hp.PEER_IDS[seat]][k] for k in same]


def test_the_report_splits_ties_and_counts_refusals() -> None:
    points = dict.fromkeys(("trees", "mountains", "fields", "buildings", "water"), 0)
    points |= {"animals": 0, "spirit": 0}

    def record(shares: tuple[float, float], refused: list[str]) -> hp.Record:
        match = hp.Match(1, 0, "greedy", hp.Peer(Path("x"), Path("y")))
        return hp.Record(
            match=match,
            scores={"bot": 50, "peer": 50},
            shares={"bot": shares[0], "peer": shares[1]},
            points={"bot": points, "peer": points},
            think={"bot": [0.5], "peer": [1.0, 3.0]},
            refused=refused,
            filled=0,
            checks=[(50, 50, 0)],
            depths=[1],
        )

    lines = hp.report([record((1, 0), []), record((0.5, 0.5), ["cube x e1: no"])], "greedy")
    bot, peer = lines[2], lines[3]
    assert bot.startswith("| meadow greedy | 1.5 | 75.0% |")
    assert peer.startswith("| miles2542/harmonies-bot | 0.5 | 25.0% |")
    assert peer.endswith("| 2.00 |")  # seconds per turn over both games' turns
    assert "refused: 1;" in "\n".join(lines)
