"""The contract of DESIGN.md, checked over every registered game, player count and option."""

from __future__ import annotations

import importlib
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meadow import games
from meadow.core.actions import Action
from meadow.core.errors import IllegalAction, NotationError
from meadow.core.game import State
from meadow.core.play import random_playout
from meadow.core.record import GameRecord
from meadow.core.rng import Rng
from meadow.core.undo import why_not_undoable
from tests.contract.conftest import BASE_CONFIGS, CONFIGS, Config, random_game

# Big seeds, so that finding the seed's digits in a view cannot happen by accident.
SEED_BASE = 7_000_000_000_000
seeds = st.integers(min_value=SEED_BASE, max_value=SEED_BASE + 10**9)
few = settings(max_examples=6, deadline=None)


def test_registry_lists_every_game():
    ids = [g.id for g in games.all()]
    assert ids == games.ids()
    for game_id in ids:
        assert games.get(game_id).id == game_id


def test_thousand_random_games_end():
    """1,000 seeded random games end, spread over every configuration."""
    for i in range(1000):
        config = CONFIGS[i % len(CONFIGS)]
        state = config.setup(i)
        random_playout(state, Rng(i), max_plies=50_000)
        result = state.result()
        assert len(result.scores) == config.players
        assert sorted(s for group in result.ranking for s in group) == list(range(config.players))
        for seat, score in enumerate(result.scores):
            assert score == sum(result.breakdown[seat].values())
        assert state.legal_actions() == []


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_every_legal_action_applies_and_reads_back(config: Config, seed: int):
    for state, _ in random_game(config, seed):
        actions = state.legal_actions()
        assert actions == state.legal_actions(), "legal order must be stable"
        assert len(set(actions)) == len(actions), "no action listed twice"
        for action in actions:
            assert state.parse_action(str(action)) == action
            namespace = vars(importlib.import_module(type(action).__module__))
            assert eval(repr(action), namespace) == action, "repr must rebuild the action"
            json.dumps(action.to_json())
            hash(action)
            copy = state.clone()
            copy.apply(action)
            assert copy.ply == state.ply + 1


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_illegal_actions_are_refused_and_change_nothing(config: Config, seed: int):
    universe = {a for s, a in random_game(config, seed + 1, every=True) if a is not None}
    universe |= {a for s, a in random_game(config, seed + 2, every=True) if a is not None}
    for state, _ in random_game(config, seed):
        legal = set(state.legal_actions())
        before = state.to_json()
        for action in sorted(universe - legal, key=str)[:25]:
            with pytest.raises(IllegalAction) as refused:
                state.apply(action)
            assert refused.value.reason.strip(), f"{action}: no reason given"
            assert state.to_json() == before
        with pytest.raises(NotationError):
            state.parse_action("this is not an action")
        assert state.to_json() == before


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_clone_and_json_round_trip(config: Config, seed: int):
    for state, action in random_game(config, seed):
        copy = state.clone()
        assert copy == state
        data = state.to_json()
        assert json.loads(json.dumps(data)) == data
        restored = games.state_from_json(json.loads(json.dumps(data)))
        assert restored == state
        assert restored.legal_actions() == state.legal_actions()
        if action is not None:
            copy.apply(action)
            assert state.to_json() == data, "a clone must not share mutable parts"


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_replaying_the_record_reproduces_the_final_state(config: Config, seed: int):
    record, state = GameRecord.start(config.game, config.players, config.options, seed)
    rng = Rng(seed)
    while not state.is_over:
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        state.apply(action)
        record.add(action)
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json()))).replay()
    assert again.to_json() == state.to_json()
    assert again.result() == state.result()


def _seats(config: Config) -> list[int | None]:
    return [None, *range(config.players)]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_views_are_json_and_never_show_the_seed_or_generator(config: Config, seed: int):
    for state, _ in random_game(config, seed):
        secrets = (str(seed), state.rng.to_json())
        for seat in _seats(config):
            view = state.view(seat)
            text = json.dumps(view)
            assert json.loads(text) == view, "views must be plain JSON (no tuples, no objects)"
            for secret in secrets:
                assert secret not in text


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_hidden_information_never_changes_a_view(config: Config, seed: int):
    """Two states that differ only in what a seat cannot know look the same to it.

    `sample_hidden` redraws everything the seat cannot know; the redrawn world must show the
    seat the same view and offer it the same decisions, and must be a playable game.
    """
    rng = Rng(seed ^ 0x5EED)
    redrawn = {seat: 0 for seat in _seats(config)}
    for step, (state, _) in enumerate(random_game(config, seed)):
        for seat in _seats(config):
            world = state.sample_hidden(seat, rng)
            assert world.view(seat) == state.view(seat)
            if world.to_json() != state.to_json():
                redrawn[seat] += 1
            if seat is not None and seat == state.to_move:
                assert world.legal_actions() == state.legal_actions()
            if step % 7 == 0 and seat == state.to_move:
                random_playout(world.clone(), rng)
    # The check has teeth only if the worlds really differ in their hidden parts.
    assert all(count > 0 for count in redrawn.values()), redrawn


@pytest.mark.parametrize("config", BASE_CONFIGS, ids=str)
def test_result_before_the_end_is_refused(config: Config):
    from meadow.core.errors import GameNotOver

    with pytest.raises(GameNotOver):
        config.setup(1).result()


@pytest.mark.parametrize("config", BASE_CONFIGS, ids=str)
def test_same_seed_same_game_other_seed_other_game(config: Config):
    assert config.setup(11) == config.setup(11)
    assert any(config.setup(11) != config.setup(s) for s in range(12, 20))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@settings(max_examples=3, deadline=None)
def test_sampled_worlds_depend_only_on_what_the_seat_knows(config: Config, seed: int):
    """Two states a seat cannot tell apart give it the same worlds for the same generator:
    no bot can learn a hidden fact through `sample_hidden`."""
    for state, _ in random_game(config, seed):
        for seat in _seats(config):
            one = state.sample_hidden(seat, Rng(seed + 1))
            two = state.sample_hidden(seat, Rng(seed + 2))
            assert one.view(seat) == two.view(seat)
            again_one = one.sample_hidden(seat, Rng(99)).to_json()
            assert again_one == two.sample_hidden(seat, Rng(99)).to_json()


@pytest.mark.parametrize("config", BASE_CONFIGS, ids=str)
def test_evaluation_estimates_every_seat_and_is_exact_at_the_end(config: Config):
    """The game's evaluation (what bots search with) gives one finite number per seat,
    changes nothing, and is the final score once the game is over."""
    game = config.game
    for state, _ in random_game(config, 31):
        before = state.to_json()
        values = game.evaluate(state)
        assert len(values) == config.players
        assert all(math.isfinite(v) for v in values)
        assert state.to_json() == before
    assert game.evaluate(state) == [float(x) for x in state.result().scores]


@pytest.mark.parametrize("config", BASE_CONFIGS, ids=str)
def test_points_now_are_the_result_categories_at_the_end(config: Config):
    """`points_now` (how the coach names what a better move gains) gives plain integers by
    category during the game, changes nothing, and at the end is each seat's breakdown in the
    result, summing to its score."""
    game = config.game
    for state, _ in random_game(config, 37):
        before = state.to_json()
        for seat in range(config.players):
            assert all(isinstance(v, int) for v in game.points_now(state, seat).values())
        assert state.to_json() == before
    result = state.result()
    for seat in range(config.players):
        points = game.points_now(state, seat)
        assert points == result.breakdown[seat]
        assert sum(points.values()) == result.scores[seat]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@settings(max_examples=2, deadline=None)
def test_an_undoable_move_uses_no_chance_and_teaches_no_seat_anything(config: Config, seed: int):
    """The undo rule (`meadow.core.undo`), checked with worlds of its own: a move the rule
    lets a player take back drew nothing from the generator, and in fresh worlds that any
    seat could not tell apart before it, the seat's view afterwards is the same as in the
    game (for another seat: some move there looks the same to it). A game's `reveals` flag
    is the rule's shortcut: a flagged move stands, so the rule's verdict is checked here
    with flags ignored."""
    checked = {"undoable": 0, "refused": 0}
    for step, (state, action) in enumerate(random_game(config, seed)):
        if action is None or step % 3:
            continue
        after = state.clone()
        after.apply(action)
        verdict = why_not_undoable(state, action, Rng(seed + step), flags=False)
        if verdict is not None:
            checked["refused"] += 1
            continue
        checked["undoable"] += 1
        assert after.rng.to_json() == state.rng.to_json(), f"undoable {action} used chance"
        for seat in _seats(config):
            worlds = Rng(seed ^ (step << 20) ^ 0xACE)
            for _ in range(4):
                world = state.sample_hidden(seat, worlds)
                moves = [action] if seat == state.to_move else world.legal_actions()
                assert any(_view_after(world, move, seat) == after.view(seat) for move in moves), (
                    f"undoable {action} told seat {seat} something"
                )
    assert checked["undoable"] + checked["refused"] > 0


def _view_after(world: State, move: Action, seat: int | None) -> object:
    if move not in world.legal_actions():
        return None
    made = world.clone()
    made.apply(move)
    return made.view(seat)
