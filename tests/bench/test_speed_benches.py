"""The engine and search benches measure what they name: figures for every part, the parts
of a search adding up, and the timers taken off again afterwards."""

from __future__ import annotations

import json
import zlib
from functools import partial

from bench import learned_ranking, learned_ties, turns
from bench import reply as reply_bench
from bench import rl as rl_bench
from bench.engine import copy_costs, measure
from bench.search import GAME_PARTS, PARTS, STATE_PARTS, shares
from meadow import games
from meadow.bots import ReplyBot, reply
from meadow.core.rng import Rng


def test_the_engine_bench_counts_games_decisions_and_copies():
    topiary = games.get("topiary")
    figures = measure(topiary, 2, seconds=0.05)
    assert figures["games_per_s"] > 0 and figures["decisions_per_s"] > 0
    assert figures["decisions_per_game"] > 10  # a whole game, not one move
    costs = copy_costs(topiary, 2, games_played=1)
    assert set(costs) == {"clone", "to_json", "from_json"}
    assert all(microseconds > 0 for microseconds in costs.values())


def test_the_search_bench_splits_an_iteration_and_unwinds_its_timers():
    renature = games.get("renature")
    state_class = renature.state_class
    before = {name: getattr(state_class, name) for name in STATE_PARTS}
    share = shares(renature, iterations=10, rollout=None, games_played=1)
    assert set(share) == {*PARTS, "tree"}
    assert all(share[name] > 0 for name in PARTS)  # Renature's plant is settled in a search
    assert abs(sum(share.values()) - 1.0) < 1e-9
    assert share["tree"] > 0  # the parts are counted once each, never twice
    assert {name: getattr(state_class, name) for name in before} == before
    assert not set(GAME_PARTS) & set(vars(renature))


def test_the_turn_bench_times_evaluations_and_unwinds_its_timers():
    states = turns.positions(1)[:2]
    timed = turns.Timed()
    with timed.on(turns.GAME):
        seconds = turns.beams(states, width=2)
    assert timed.seat_calls > 0 and 0 < timed.seat_seconds <= timed.seconds < seconds
    assert "evaluate" not in vars(turns.GAME) and "evaluate_seat" not in vars(turns.GAME)


def test_the_reply_bench_counts_the_candidates_worlds_and_unwinds_its_timer():
    weigh = reply.weigh
    deal = reply_bench.positions("renature", 1)[0][:3]
    thirds = reply_bench.reach([deal], ReplyBot(width=3, seconds=0, worlds=2))
    counted = [row for third in thirds for row in third]
    assert counted and all(worlds == 2 and seconds > 0 for worlds, seconds in counted)
    assert reply.weigh is weigh


def test_the_research_api_bench_times_the_apis_own_calls_inside_each_game():
    alone = rl_bench.engine("topiary", 0.05)
    through_observer = partial(rl_bench.openspiel, observer=True)
    for api in (rl_bench.pettingzoo, rl_bench.gymnasium, rl_bench.openspiel, through_observer):
        steps, played, elapsed, inside = api("topiary", 0.05)
        assert steps > 10 and played >= 1  # whole games
        assert 0 < inside < elapsed  # the agent's pick and the loop are outside
        cells = rl_bench._row("topiary", "api", (steps, played, elapsed, inside), alone)
        whole, calls = (float(cell) for cell in cells.strip("| ").split(" | ")[-2:])
        assert calls > 0 and whole > 0
    row = rl_bench._row("topiary", "engine only", alone, alone)
    assert row.endswith("| 1.00 | 1.00 |")


def test_the_ties_bench_measures_what_a_correction_adds_between_positions_judged_alike():
    game = games.get("mystic_vale")
    state = game.setup(2, seed=3)
    rng = Rng(3)
    while state.phase != "sleeve" or len(state.legal_actions()) < 3:  # a card to choose
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])

    class Hand:  # the hand-written evaluation itself: nothing added, no spread
        evaluate = staticmethod(game.evaluate)

    class Noisy:  # the hand-written evaluation plus a different amount per position
        @staticmethod
        def evaluate(world):
            values = game.evaluate(world)
            told = json.dumps(world.to_json(), sort_keys=True).encode()
            return [values[0] + zlib.crc32(told) % 7, *values[1:]]

    assert learned_ties.tied_spreads(game, Hand(), state) == [0.0]
    (spread,) = learned_ties.tied_spreads(game, Noisy(), state)
    assert spread > 0


def test_the_ranking_bench_charges_an_evaluation_for_the_worth_its_pick_lost():
    game = games.get("topiary")
    state = game.setup(2, seed=4)
    seat = state.to_move
    afters, worth = learned_ranking.worths(state, width=8, worlds=4, rng=Rng(2))
    assert len(afters) == len(worth) == min(8, len(state.legal_actions()))

    class Likes:  # rates one position far above every other
        def __init__(self, liked):
            self.liked = liked

        def evaluate(self, world):
            values = game.evaluate(world)
            bonus = 1000.0 if world is self.liked else 0.0
            return [v + bonus if s == seat else v for s, v in enumerate(values)]

    lost = [learned_ranking.regret(Likes(after), seat, afters, worth) for after in afters]
    assert lost == [max(worth) - w for w in worth]
    assert min(lost) == 0 and max(lost) > 0  # the moves' worths differ
