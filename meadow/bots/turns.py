"""A bot that plans its whole turn at once: a beam search over the seat's own decisions.

Games such as Harmonies make a turn of several decisions (take tokens, place each, take a
card, place cubes) whose worth only shows together: a token is good for the habitat the next
two complete. The planner grows every partial turn by each legal decision, keeps the `width`
best by the seat's own evaluation (`Game.evaluate_seat`), and at least the best two under
each first decision so that no opening is dropped on a partial look; partial turns that
reach the same position are folded together (`Game.position_key`). It plays the first
decision of the best whole turn; the rest of the plan is kept and followed while the
position is the one it expected, so a turn is planned once.

Within a turn the planner uses one world from the observation: it is meant for games whose
chance waits until the turn is over (Harmonies refills after the turn), where every world
gives the seat's own decisions the same effects.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field

from meadow.bots.base import Bot, Observation, margins
from meadow.core.actions import Action
from meadow.core.game import Game, State
from meadow.core.rng import Rng

PER_OPENING = 2  # partial turns kept under each first decision, whatever their rank


@dataclass(slots=True)
class Line:
    """A partial turn: where it stands, how it got there, and what it is worth."""

    state: State
    actions: tuple[Action, ...]
    worth: float = 0.0


@dataclass
class Plan:
    seat: int
    steps: list[tuple[Hashable, Action]] = field(default_factory=list)  # (position, action)


class TurnBot(Bot):
    def __init__(self, width: int = 16, seconds: float = 1.0) -> None:
        if width < 1 or seconds <= 0:
            raise ValueError("a turn planner needs a width of 1 or more and a positive time")
        self.width = width
        self.seconds = seconds
        self.time_limit: float | None = None  # a server's bound on any one think
        self.name = f"turn:{width}:{seconds:g}s"
        self._plan: Plan | None = None

    def choose(self, observation: Observation, rng: Rng) -> Action:
        if len(observation.legal) == 1:
            return observation.legal[0]
        world = observation.world(rng)
        key = observation.game.position_key(world)
        planned = self._planned(observation.seat, key)
        if planned is not None and planned in observation.legal:
            return planned
        line = self._search(world, observation.seat, observation.game)
        self._remember(world, observation.seat, observation.game, line)
        return line.actions[0] if line.actions else observation.legal[0]

    def _planned(self, seat: int, key: Hashable | None) -> Action | None:
        plan = self._plan
        if key is None or plan is None or plan.seat != seat:
            return None
        while plan.steps:
            position, action = plan.steps.pop(0)
            if position == key:
                return action
        return None

    def _remember(self, world: State, seat: int, game: Game, line: Line) -> None:
        plan = Plan(seat)
        state = world.clone()
        for action in line.actions:
            key = game.position_key(state)
            if key is None or state.is_over or state.to_move != seat:
                break
            plan.steps.append((key, action))
            state.apply(action)
        self._plan = plan

    def _search(self, world: State, seat: int, game: Game) -> Line:
        """Beams of growing width while the time lasts: the widest one that finished wins."""
        start = time.perf_counter()
        deadline = start + self._budget()
        stop = start + self.time_limit if self.time_limit is not None else None
        width = self.width
        best = self._beam(world, seat, game, width, stop)
        if best is None:  # past a server's bound: the narrowest beam costs a few ms
            best = self._beam(world, seat, game, 1, None)
        while best is not None and time.perf_counter() < deadline:
            width *= 2
            wider = self._beam(world, seat, game, width, deadline)
            if wider is None:
                break
            best = wider
        return best if best is not None else Line(world, ())

    def _beam(
        self, world: State, seat: int, game: Game, width: int, deadline: float | None
    ) -> Line | None:
        """The best whole turn a beam of `width` finds; None if the deadline came first."""
        frontier = [Line(world, ())]
        finished: list[Line] = []
        seen: set[Hashable] = set()
        while frontier:
            grown: list[Line] = []
            for line in frontier:
                if deadline is not None and time.perf_counter() >= deadline:
                    return None
                for action in line.state.legal_actions():
                    child = line.state.clone()
                    child.apply(action)
                    step = Line(child, (*line.actions, action))
                    if child.is_over or child.to_move != seat:
                        # a whole turn: now what it leaves the others counts too
                        step.worth = margins(game.evaluate(child), seat)
                        finished.append(step)
                        continue
                    key = game.position_key(child)
                    if key is not None:
                        if key in seen:
                            continue
                        seen.add(key)
                    step.worth = game.evaluate_seat(child, seat)
                    grown.append(step)
            frontier = self._keep(grown, width)
        return max(finished, key=lambda line: line.worth, default=None)

    def _keep(self, grown: list[Line], width: int) -> list[Line]:
        grown.sort(key=lambda line: line.worth, reverse=True)
        kept = grown[:width]
        per_opening: dict[Action, int] = {}
        for line in kept:
            per_opening[line.actions[0]] = per_opening.get(line.actions[0], 0) + 1
        for line in grown[width:]:
            opening = line.actions[0]
            if per_opening.get(opening, 0) < PER_OPENING:
                per_opening[opening] = per_opening.get(opening, 0) + 1
                kept.append(line)
        return kept

    def _budget(self) -> float:
        if self.time_limit is None:
            return self.seconds
        return min(self.seconds, self.time_limit)
