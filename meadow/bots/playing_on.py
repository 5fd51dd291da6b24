"""Weighing a few candidate moves by playing on from them in sampled worlds.

A one-ply look judges a move by the position it leaves; what the others then make of that
position it cannot see. Playing on does: each candidate is played in a world drawn from the
observation, the game goes on by a cheap policy (the others' turns, maybe the seat's own
next), and the seat's lead by the evaluation after that is the candidate's worth. Every
candidate meets the same worlds (one seed per round, for all of them), so two candidates
differ by what they do, not by the hands and draws they were dealt; a round that not every
candidate finished before the deadline is left out.

Shared by the reply search (`meadow.bots.reply`) and the turn planner's look ahead
(`meadow.bots.turns`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from meadow.bots.base import Observation
from meadow.core.actions import Action
from meadow.core.game import State, margins
from meadow.core.rng import Rng

if TYPE_CHECKING:
    from meadow.bots.learned import Evaluation


def settle(world: State, seat: int, limit: int = 20) -> None:
    """Play on while the seat's next decision is made for it: one its game settles for a
    search (`Game.settled_choice`: Renature's plant, Topiary's tile into the gap) or the
    only legal action. The effect of a move includes what it brings about by itself."""
    game = world.game
    for _ in range(limit):
        if world.is_over or world.to_move != seat:
            return
        action = game.settled_choice(world)
        if action is None:
            legal = world.legal_actions()
            if len(legal) != 1:
                return
            action = legal[0]
        world.apply(action)


def greedy_action(world: State, evaluation: Evaluation | None = None) -> Action:
    """The mover's action after which (and what it settles) its lead by the evaluation
    (the game's own unless given) is largest, the first of equals: greedy in one world that
    it sees whole."""
    legal = world.legal_actions()
    if len(legal) == 1:
        return legal[0]
    mover = world.to_move
    assert mover is not None
    evaluate = (evaluation or world.game).evaluate
    best, best_lead = legal[0], -math.inf
    for action in legal:
        after = world.clone()
        after.apply(action)
        settle(after, mover)
        lead = margins(evaluate(after), mover)
        if lead > best_lead:
            best, best_lead = action, lead
    return best


def play_round(
    world: State, seat: int, limit: int = 400, evaluation: Evaluation | None = None
) -> State:
    """Play on from the seat's move, each decision greedy (`greedy_action`, and what the game
    settles as it settles it): the rest of the seat's turn, every other seat's turn, and the
    seat's next turn, until another seat is to move after it or the game is over; `limit`
    decisions at most. The seat's next turn is part of it so that a move which prepares the
    next (an area to close, a match to reach) is worth what it prepares."""
    game = world.game
    stage = 0  # 0: the seat's turn, 1: the others', 2: the seat's next
    for _ in range(limit):
        mover = world.to_move
        if mover is None:
            break
        if stage == 0 and mover != seat:
            stage = 1
        elif stage == 1 and mover == seat:
            stage = 2
        elif stage == 2 and mover != seat:
            break
        settled = game.settled_choice(world)
        world.apply(settled if settled is not None else greedy_action(world, evaluation))
    return world


def lead_settled(world: State, seat: int, evaluation: Evaluation | None = None) -> float:
    """The seat's lead by the evaluation once what its move brings about is settled: a
    one-ply look at a move played in `world`."""
    settle(world, seat)
    return margins((evaluation or world.game).evaluate(world), seat)


def lead_after_round(world: State, seat: int, evaluation: Evaluation | None = None) -> float:
    """The seat's lead by the evaluation after playing on greedily (`play_round`): a move
    weighed after the others' replies and the seat's next turn."""
    played = play_round(world, seat, evaluation=evaluation)
    return margins((evaluation or world.game).evaluate(played), seat)


def weigh(
    observation: Observation,
    lines: Sequence[Sequence[Action]],
    play_on: Callable[[State], float],
    rng: Rng,
    deadline: float,
    most_worlds: int,
) -> tuple[list[float], int]:
    """Each line (a candidate's actions from the observation) played in shared sampled
    worlds, then on by `play_on`, which returns the seat's lead after it: the mean lead of
    each line, and in how many worlds. World after world is added until `most_worlds` or
    the deadline; with no world finished the means are all 0."""
    totals = [0.0] * len(lines)
    worlds = 0
    while worlds < most_worlds:
        seed = rng.next_u64()
        leads = []
        for line in lines:
            if time.perf_counter() >= deadline:
                break
            world = observation.world(Rng(seed))
            for action in line:
                world.apply(action)
            leads.append(play_on(world))
        if len(leads) < len(lines):
            break
        totals = [total + lead for total, lead in zip(totals, leads, strict=True)]
        worlds += 1
    return [total / max(worlds, 1) for total in totals], worlds


def best_at_first_look(
    observation: Observation, rng: Rng, deadline: float, worlds: int, width: int
) -> list[Action]:
    """The `width` legal moves whose lead once settled (`lead_settled`), the mean over
    `worlds` shared worlds, is largest: best first, equals in the order they are listed."""
    legal = observation.legal
    lines = [(action,) for action in legal]
    one_ply = partial(lead_settled, seat=observation.seat)
    first, _ = weigh(observation, lines, one_ply, rng, deadline, worlds)
    ranked = sorted(range(len(legal)), key=lambda k: first[k], reverse=True)[:width]
    return [legal[k] for k in ranked]
