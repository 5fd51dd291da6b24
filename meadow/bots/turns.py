"""A bot that plans its whole turn at once: a beam search over the seat's own decisions.

Games such as Harmonies make a turn of several decisions (take tokens, place each, take a
card, place cubes) whose worth only shows together: a token is good for the habitat the next
two complete. The planner grows every partial turn by each legal decision, keeps the `width`
best by the seat's own evaluation (`Game.evaluate_seat`), and at least the best two under
each first decision so that no opening is dropped on a partial look; partial turns that
reach the same position are folded together (`Game.position_key`). It plays the first
decision of the best whole turn; the rest of the plan is kept and followed while the
position is the one it expected, so a turn is planned once. The first beam is narrow and
cheap; its time sizes a wider one to fill the time left, and the widest that finished is
trusted, so a busy machine gets a narrower plan, never none.

Within a turn the planner uses one world from the observation: it is meant for games whose
chance waits until the turn is over (Harmonies refills after the turn), where every world
gives the seat's own decisions the same effects.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from meadow.bots.base import Bot, Evaluating, Observation
from meadow.bots.playing_on import weigh
from meadow.core.actions import Action
from meadow.core.game import Game, State, margins
from meadow.core.rng import Rng

if TYPE_CHECKING:
    from meadow.bots.learned import Evaluation

PER_OPENING = 2  # partial turns kept under each first decision, whatever their rank
MAX_LOOK_AHEAD_WORLDS = 16  # refills each candidate turn is played on in, at most
MAX_WIDTH = 1024  # past this the beam's time is better spent elsewhere
WIDTH_MARGIN = 0.8  # of the time left a wider beam is sized to take
MAX_TURNS_AHEAD = 8  # a bound on the turns played on (the others' and the seat's next)


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


class TurnBot(Evaluating, Bot):
    def __init__(self, width: int = 4, seconds: float = 1.0, ahead: int = 0) -> None:
        if width < 1 or not 0 < seconds < math.inf or ahead < 0:
            raise ValueError("a turn planner needs a width of 1 or more and a positive time")
        self.width = width
        self.seconds = seconds
        self.ahead = ahead  # best whole turns weighed again by playing on (0: none)
        self.time_limit: float | None = None  # a server's bound on any one think
        self.name = f"turn:{width}:{seconds:g}s" + (f":ahead={ahead}" if ahead else "")
        self._plan: Plan | None = None
        self._judge: Evaluation | None = None  # the evaluation of the search under way

    def choose(self, observation: Observation, rng: Rng) -> Action:
        if len(observation.legal) == 1:
            return observation.legal[0]
        world = observation.world(rng)
        key = observation.game.position_key(world)
        planned = self._planned(observation.seat, key)
        if planned is not None and planned in observation.legal:
            return planned
        self._judge = self.evaluation(observation)
        line = self._search(observation, world, rng)
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

    def _search(self, observation: Observation, world: State, rng: Rng) -> Line:
        """A narrow beam, then one as wide as the time left allows (the widest that finished
        wins), then, with `ahead`, the best few turns weighed again by playing on."""
        seat, game = observation.seat, observation.game
        start = time.perf_counter()
        deadline = start + self._budget()
        stop = deadline if self.time_limit is None else start + self.time_limit
        # with a look ahead, the beams take a third of the time and the look the rest
        widen_until = start + self._budget() / 3 if self.ahead else deadline
        first = self._beam(world, seat, game, self.width, stop)
        if first is None:  # out of time already: the narrowest beam costs some 50 ms
            first = self._beam(world, seat, game, 1, None, every_opening=False) or ([], 1)
        finished, lines = first
        # A beam's time grows with the lines it keeps (its width, plus the best under each
        # opening outside it): the first beam's time sizes the next to end in the time left.
        width, spent = self.width, time.perf_counter() - start
        while finished and width < MAX_WIDTH:
            left = widen_until - time.perf_counter()
            affordable = lines * WIDTH_MARGIN * left / max(spent, 1e-6)
            wider_width = min(MAX_WIDTH, int(affordable - (lines - width)))
            if wider_width <= width:
                break
            began = time.perf_counter()
            wider = self._beam(world, seat, game, wider_width, widen_until)
            if wider is None:
                break
            (finished, lines), width, spent = wider, wider_width, time.perf_counter() - began
        if not finished:
            return Line(world, ())
        if self.ahead and len(finished) > 1:
            return self._look_ahead(observation, finished, rng, deadline)
        return _best(finished)

    def _look_ahead(
        self, observation: Observation, finished: list[Line], rng: Rng, deadline: float
    ) -> Line:
        """Each of the best whole turns played on in sampled worlds (their refills differ):
        the others' turns and then the seat's next, each by the narrowest beam; the turn
        with the best mean lead after that wins. World after world is added, each for every
        turn, until the deadline: a world that not every turn was played on is left out, so
        that the turns are compared on the same refills."""
        candidates = sorted(finished, key=lambda line: line.worth, reverse=True)[: self.ahead]
        seat, game = observation.seat, observation.game
        lines = [line.actions for line in candidates]
        leads, worlds = weigh(
            observation,
            lines,
            lambda world: self._play_on(world, seat, game),
            rng,
            deadline,
            MAX_LOOK_AHEAD_WORLDS,
        )
        if not worlds:
            return candidates[0]
        weighed = [
            Line(line.state, line.actions, lead)
            for line, lead in zip(candidates, leads, strict=True)
        ]
        return _best(weighed)

    def _play_on(self, world: State, seat: int, game: Game) -> float:
        """The others' turns and then the seat's next, each by the narrowest beam: the
        seat's lead after them."""
        for _ in range(MAX_TURNS_AHEAD):
            mover = world.to_move
            if mover is None:
                break
            turn = self._beam(world, mover, game, 1, None, every_opening=False)
            if turn is None or not turn[0]:
                break
            world = _best(turn[0]).state
            if mover == seat:
                break
        return margins(self._evaluation(game).evaluate(world), seat)

    def _evaluation(self, game: Game) -> Evaluation:
        return self._judge or game

    def _beam(
        self,
        world: State,
        seat: int,
        game: Game,
        width: int,
        deadline: float | None,
        every_opening: bool = True,
    ) -> tuple[list[Line], int] | None:
        """The whole turns a beam of `width` finds (keeping some under every first decision
        unless told not to) and the most lines it kept at once; None if the deadline came
        first."""
        judge = self._evaluation(game)
        frontier = [Line(world, ())]
        finished: list[Line] = []
        seen: set[Hashable] = set()
        lines = 1
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
                        step.worth = margins(judge.evaluate(child), seat)
                        finished.append(step)
                        continue
                    key = game.position_key(child)
                    if key is not None:
                        if key in seen:
                            continue
                        seen.add(key)
                    step.worth = judge.evaluate_seat(child, seat)
                    grown.append(step)
            frontier = _keep(grown, width, every_opening)
            lines = max(lines, len(frontier))
        return finished, lines

    def _budget(self) -> float:
        if self.time_limit is None:
            return self.seconds
        return min(self.seconds, self.time_limit)


def _best(lines: list[Line]) -> Line:
    return max(lines, key=lambda line: line.worth)


def _keep(grown: list[Line], width: int, every_opening: bool) -> list[Line]:
    grown.sort(key=lambda line: line.worth, reverse=True)
    kept = grown[:width]
    if not every_opening:
        return kept
    per_opening: dict[Action, int] = {}
    for line in kept:
        per_opening[line.actions[0]] = per_opening.get(line.actions[0], 0) + 1
    for line in grown[width:]:
        opening = line.actions[0]
        if per_opening.get(opening, 0) < PER_OPENING:
            per_opening[opening] = per_opening.get(opening, 0) + 1
            kept.append(line)
    return kept
