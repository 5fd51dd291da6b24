"""Events are snapshots (issue 43, item 6): nothing an event holds may change after `apply`
returns. The server keeps a move's events for the rest of the game (resyncs, the replay), so
an event that shares a list with the state would later say what did not happen."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meadow.core.actions import Event
from meadow.core.game import State
from meadow.core.record import GameRecord
from meadow.core.rng import Rng
from tests.contract.conftest import CONFIGS, Config, random_game

seeds = st.integers(min_value=0, max_value=10**9)
few = settings(max_examples=3, deadline=None)

# Values that cannot change once made; everything else is walked or compared by identity.
_IMMUTABLE = (str, int, float, bool, bytes, type(None), range, frozenset, type)


def as_sent(events: list[Event], players: int) -> str:
    """The events in the form the server stores and sends, for every seat and a spectator."""
    seats: list[int | None] = [None, *range(players)]
    return json.dumps([[e.for_seat(s) for e in events] for s in seats], sort_keys=True)


def _children(obj: Any) -> Iterable[Any]:
    if isinstance(obj, dict):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, list | tuple | set):
        return obj
    fields = list(vars(obj).values()) if hasattr(obj, "__dict__") else []
    for cls in type(obj).__mro__:
        slots = getattr(cls, "__slots__", ())
        names = (slots,) if isinstance(slots, str) else slots
        fields += [getattr(obj, n) for n in names if hasattr(obj, n)]
    return fields


def reachable(root: Any, shared: dict[int, Any] | None = None) -> dict[int, Any]:
    """Every object that can change, reachable from `root`, by id. What is in `shared` (the
    tables every game of a configuration points at, filled lazily) is neither counted nor
    entered: it is nobody's state, and a walk through Renature's layout costs 0.1 s."""
    seen: dict[int, Any] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if isinstance(obj, _IMMUTABLE) or id(obj) in seen or (shared and id(obj) in shared):
            continue
        seen[id(obj)] = obj
        stack.extend(_children(obj))
    return seen


def shared_tables(config: Config) -> tuple[dict[int, Any], tuple[State, State]]:
    """What two fresh games of `config` both point at (and the games, which keep it alive:
    an id means something only while its object lives)."""
    first, second = config.setup(1), config.setup(2)
    found = reachable(first)
    both = found.keys() & reachable(second).keys()
    return {i: found[i] for i in both}, (first, second)


def _containers(event: Event) -> Iterator[tuple[str, Any]]:
    """The payload's objects that could be changed, with where they sit in the event."""
    stack: list[tuple[str, Any]] = [("public", event.public), ("private", event.private)]
    while stack:
        where, obj = stack.pop()
        if isinstance(obj, _IMMUTABLE):
            continue
        if not isinstance(obj, tuple):
            yield where, obj
        if isinstance(obj, dict):
            stack += [(f"{where}.{k}", v) for k, v in obj.items()]
        elif isinstance(obj, list | tuple | set):
            stack += [(f"{where}[]", v) for v in obj]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_the_events_sent_at_a_move_are_the_events_at_the_end(config: Config, seed: int):
    """What a move's events said when they were sent is what they say once the game is over:
    the server keeps them and sends them again (a resync, the replay)."""
    state = config.setup(seed)
    rng = Rng(seed).spawn()
    kept: list[tuple[int, list[Event], str]] = []
    while not state.is_over:
        actions = state.legal_actions()
        ply = state.ply
        events = state.apply(actions[rng.below(len(actions))])
        kept.append((ply, events, as_sent(events, config.players)))
    changed = [ply for ply, events, sent in kept if as_sent(events, config.players) != sent]
    assert not changed, f"{len(changed)} of {len(kept)} moves' events changed: plies {changed}"


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_an_event_holds_nothing_the_state_holds(config: Config, seed: int):
    """No list or dict of an event is also the state's, so that no later move can change it
    (the check above sees only the changes one random game happens to make)."""
    shared, _alive = shared_tables(config)
    for state, action in random_game(config, seed):
        if action is None:
            continue
        after = state.clone()
        events = after.apply(action)
        held = reachable(after, shared)
        aliased = [
            f"{e.kind}: {where}" for e in events for where, obj in _containers(e) if id(obj) in held
        ]
        assert not aliased, f"after {action}, events hold the state's own {aliased}"


def _step_lines(config: Config, events: list[Event]) -> tuple[str, list[str]]:
    """A replay step's events as sent and its log lines, as a spectator reads them."""
    lines = [config.game.event_text(e.for_seat(None)) for e in events]
    return as_sent(events, config.players), lines


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@given(seed=seeds)
@few
def test_a_replay_step_says_what_replaying_up_to_it_says(config: Config, seed: int):
    """A step of a whole-game replay, its events read at the end, shows the same events and
    log lines as the game replayed afresh only up to that step (`GameRecord.step`)."""
    record, _ = GameRecord.random(config.game, config.players, config.options, seed)
    whole = [events for _, _, events, _ in record.steps()]
    moves = len(record.actions)
    # Every step of short games; 40 spread over long ones (each a replay of its own).
    numbers = range(1, moves + 1) if moves <= 40 else {1 + i * (moves - 1) // 39 for i in range(40)}
    differ = []
    for number in sorted(numbers):
        fresh = record.step(number)
        assert fresh.action == record.actions[number - 1]
        if _step_lines(config, whole[number - 1]) != _step_lines(config, fresh.events):
            differ.append(number)
    assert not differ, f"{len(differ)} of {len(numbers)} steps differ from a fresh replay: {differ}"
