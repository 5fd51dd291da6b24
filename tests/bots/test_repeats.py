"""A bot does not go round a circle of positions for ever (meadow.bots.base.Repeats)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meadow import games
from meadow.bots import make_bot, observe
from meadow.bots.base import Repeats
from meadow.core.rng import Rng

# Mystic Vale, seat 1 to move at ply 919 of a ladder game (bench.ladder mystic_vale --levels
# easy,hard, game 56, seed 29, 2026-11-25): all 20 of its cards in the field, deck and
# discard pile empty, two cards that discard a card from the field (Achtsame Eule, Totholz-
# Ernterin). Push one, discard the other, reveal it from the reshuffled discard, push it,
# discard the first, ...: `hard` went round this for 450 decisions, and the game for ever.
# Its vale cards were renamed, level for level, when the public list's vales replaced the
# stand-ins (2026-12-02); the circle is in the advancements.
CYCLE = Path(__file__).parent / "data" / "mystic_vale_cycle.json"


@pytest.mark.parametrize("spec", ["mcts:300", "greedy", "reply:4:2"])
def test_a_bot_leaves_a_turn_that_goes_round_in_a_circle(spec):
    state = games.get("mystic_vale").state_from_json(json.loads(CYCLE.read_text()))
    bot, rng = make_bot(spec), Rng(1)
    plies = 0
    while state.to_move == 1 and plies < 200:
        state.apply(bot.choose(observe(state, 1), rng))
        plies += 1
    assert state.to_move == 0, f"{spec} still in its turn after {plies} plies"


def test_a_choice_made_in_a_position_is_not_made_there_again_while_another_is_left():
    state = games.get("mystic_vale").state_from_json(json.loads(CYCLE.read_text()))
    observation = observe(state, 1)
    repeats = Repeats()
    assert repeats.narrowed(observation) is observation  # a position not seen before
    first = observation.legal[0]
    repeats.chose(observation, first)
    again = repeats.narrowed(observe(state, 1))
    assert first not in again.legal and len(again.legal) == len(observation.legal) - 1
    for action in observation.legal[1:]:
        repeats.chose(observation, action)
    assert repeats.narrowed(observation).legal == observation.legal  # none left: all again


def test_the_move_count_alone_does_not_make_a_new_position():
    state = games.get("mystic_vale").state_from_json(json.loads(CYCLE.read_text()))
    repeats = Repeats()
    repeats.chose(observe(state, 1), observe(state, 1).legal[0])
    state.ply += 40
    assert observe(state, 1).legal[0] not in repeats.narrowed(observe(state, 1)).legal


def test_the_memory_starts_afresh_past_its_bound(monkeypatch):
    monkeypatch.setattr(Repeats, "MOST", 3)
    game = games.get("topiary")
    repeats = Repeats()
    for seed in range(4):
        observation = observe(game.setup(2, seed=seed), 0)
        repeats.chose(observation, observation.legal[0])
    assert len(repeats._chosen) == 1  # the fourth position, after the memory was cleared
