"""Information-set Monte Carlo tree search (single observer) over determinizations.

Every iteration draws a world from the observation, walks one shared tree (children kept
per action; a child counts as available only when it is legal in the drawn world), adds one
node, plays at random for a while (the game's `rollout_depth` unless the bot sets its own)
and scores the end with the game's evaluation: the mover's lead, or where the game asks for
it (`Game.lead_from_root`) the change of that lead from one sampled world at the root.
Chance is handled by the worlds: each carries its own fresh generator, so draws differ per
iteration.

Where a game names what a step revealed (`Game.revealed`: a card turned up), the node after
that step is a chance node: the walk goes on below the outcome the searching seat saw, one
subtree per outcome. Without it the decisions after a reveal would pool the worlds' hidden
cards and plan for each world's own card (strategy fusion); a new outcome ends the walk.

Where a game settles a decision (`Game.settled_choice`: Topiary's tile into the gap,
Renature's plant), the walk below the root plays the action the game names, the one its
evaluation likes best one step on, without a node: the tree branches on the choices before
and after it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from meadow.bots.base import CircleFreeBot, Observation
from meadow.core.actions import Action
from meadow.core.game import margins
from meadow.core.rng import Rng

if TYPE_CHECKING:
    from meadow.bots.learned import Evaluation

EXPLORATION = 0.7
# How often (in iterations) a search asks whether its move is already decided, and how much
# faster than so far the rest of it might run.
CHECK_EVERY = 16
SLACK = 1.5


@dataclass(slots=True)
class Node:
    children: dict[Action, Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    value: float = 0.0  # summed rewards of the player who chose this node
    # After a step that revealed something: the decision node per outcome the seat saw.
    outcomes: dict[Hashable, Node] | None = None


def reward(values: list[float], seat: int, scale: float, start: float = 0.0) -> float:
    """0..1: a smooth gain or loss of the seat's lead over `start`, its lead at the root.
    Measured from the root, a game already far ahead or behind keeps telling good moves from
    bad; measured from 0, the tanh would flatten them all alike."""
    return 0.5 + 0.5 * math.tanh((margins(values, seat) - start) / scale)


def leads(values: list[float]) -> list[float]:
    """Every seat's lead (or deficit) in one evaluation."""
    return [margins(values, seat) for seat in range(len(values))]


class MctsBot(CircleFreeBot):
    def __init__(
        self,
        iterations: int = 0,
        seconds: float = 0.0,
        rollout: int | None = None,
        scale: float = 10.0,
        settle: bool = True,
    ) -> None:
        if iterations < 0 or not 0 <= seconds < math.inf or not (iterations or seconds):
            raise ValueError("an MCTS bot needs a positive iteration or time budget")
        super().__init__()
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.scale = scale
        self.settle = settle  # off: branch also on the decisions the game settles
        # A bound on any one search, whatever the budget: a server sets it for bots whose
        # budget a stranger chose.
        self.time_limit: float | None = None
        self.name = f"mcts:{seconds:g}s" if seconds else f"mcts:{iterations}"
        if rollout is not None:
            self.name += f":rollout={rollout}"
        if not settle:
            self.name += ":settle=off"

    def decide(self, observation: Observation, rng: Rng) -> Action:
        if len(observation.legal) == 1:
            return observation.legal[0]
        root = Node()
        base = None
        evaluation = self.evaluation(observation)
        if observation.game.lead_from_root:
            base = leads(evaluation.evaluate(observation.world(rng)))
        start = time.perf_counter()
        deadline = start + self.seconds
        stop = start + self.time_limit if self.time_limit is not None else math.inf
        end = min(deadline if not self.iterations else math.inf, stop)  # when time runs out
        done = 0
        while (self.iterations and done < self.iterations) or (
            not self.iterations and time.perf_counter() < deadline
        ):
            if self.time_limit is not None and time.perf_counter() >= stop:
                break
            self._iterate(observation, root, rng, base, evaluation)
            done += 1
            if done % CHECK_EVERY == 0 and self._settled(root, done, start, end):
                break
        legal = [a for a in observation.legal if a in root.children]
        return max(legal, key=lambda a: root.children[a].visits) if legal else observation.legal[0]

    def _settled(self, root: Node, done: int, start: float, end: float) -> bool:
        """Whether the move is decided: the most visited action leads the next by more
        visits than the iterations left could give (those left of an iteration budget; of a
        time budget, at the rate so far with a margin for a faster stretch). The move played
        is the most visited, so stopping here plays the same move as searching on, sooner."""
        left = self.iterations - done if self.iterations else math.inf
        if end < math.inf:
            now = time.perf_counter()
            rate = done / max(now - start, 1e-9)
            left = min(left, SLACK * rate * max(end - now, 0.0))
        return self._lead(root) > left

    @staticmethod
    def _lead(root: Node) -> int:
        first = second = 0
        for child in root.children.values():
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second

    def _iterate(
        self,
        observation: Observation,
        root: Node,
        rng: Rng,
        base: list[float] | None = None,
        evaluation: Evaluation | None = None,
    ) -> None:
        world = observation.world(rng)
        game = observation.game
        node, path, movers = root, [], []
        while not world.is_over:
            settled = game.settled_choice(world) if path and self.settle else None
            if settled is not None:
                world.apply(settled)
                continue
            legal = world.legal_actions()
            mover = world.to_move
            # Each action is looked up once: hashing an action is a call of its own.
            known = list(map(node.children.get, legal))
            untried = []
            for action, child in zip(legal, known, strict=True):
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
            if untried:
                action = untried[rng.below(len(untried))]
                child = node.children[action] = Node(available=1)
                world.apply(action)
                path.append(child)
                movers.append(mover)
                break
            log_total = math.log(max(1, sum(child.available for child in known)))
            best = max(range(len(legal)), key=lambda k: _ucb(known[k], log_total))
            action, child = legal[best], known[best]
            events = world.apply(action)
            path.append(child)
            movers.append(mover)
            outcome = game.revealed(world, events, observation.seat)
            if outcome is None:
                node = child
                continue
            if child.outcomes is None:
                child.outcomes = {}
            below = child.outcomes.get(outcome)
            if below is None:  # an outcome not seen before: a new leaf
                child.outcomes[outcome] = Node()
                break
            node = below
        while self.settle and not world.is_over:
            settled = game.settled_choice(world)
            if settled is None:
                break
            world.apply(settled)
        depth = observation.game.rollout_depth if self.rollout is None else self.rollout
        for _ in range(depth):
            if world.is_over:
                break
            legal = world.legal_actions()
            world.apply(legal[rng.below(len(legal))])
        values = (evaluation or game).evaluate(world)
        for child, mover in zip(path, movers, strict=True):
            child.visits += 1
            start = base[mover] if base else 0.0  # type: ignore[index]
            child.value += reward(values, mover, self.scale, start)  # type: ignore[arg-type]


def _ucb(node: Node, log_total: float) -> float:
    if node.visits == 0:
        return float("inf")
    return node.value / node.visits + EXPLORATION * math.sqrt(log_total / node.visits)
