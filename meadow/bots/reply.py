"""The reply search: the best few moves by a one-ply look, each weighed again after the
others' replies and the seat's next turn.

First every legal move is judged as greedy judges it, by the lead it leaves in a few
sampled worlds (with what it settles: Renature's plant after the domino). The `width` best
are then played on in more sampled worlds, the same worlds for each: the rest of the seat's
turn, every other seat's turn and the seat's next, each decision greedy in that world
(`meadow.bots.playing_on.play_round`), and the move whose mean lead after that is largest
is played. So a move that hands the next player an area to close or a majority to take
shows its cost, and one that prepares the seat's next turn its worth, which neither a
one-ply look nor a tree too wide to reach the replies sees (docs/ai.md, "Renature's
search").

The replies are greedy in worlds the seat samples: the others are played as if they saw
their own hands, and the seat's hidden cards are dealt afresh in each world, so nothing the
seat may not know enters the search.
"""

from __future__ import annotations

import math
import time
from functools import partial

from meadow.bots.base import CircleFreeBot, Observation
from meadow.bots.playing_on import lead_after_round, lead_settled, weigh
from meadow.core.actions import Action
from meadow.core.rng import Rng

FIRST_LOOK_WORLDS = 3  # worlds each legal move is judged in before the replies
MOST_WORLDS = 64  # worlds the replies are played in at most: past it little changes


class ReplyBot(CircleFreeBot):
    def __init__(self, width: int = 8, seconds: float = 1.0, worlds: int = 0) -> None:
        """`width` moves weighed after the replies, in as many worlds as `seconds` allow
        (at most `MOST_WORLDS`), or in exactly `worlds` when given (no clock: the same
        choice on every machine)."""
        if width < 1 or not 0 <= seconds < math.inf or worlds < 0 or not (seconds or worlds):
            raise ValueError("a reply search needs a width of 1 or more and a positive budget")
        super().__init__()
        self.width = width
        self.seconds = seconds
        self.worlds = worlds
        self.time_limit: float | None = None  # a server's or a level's bound on any one think
        budget = f"{worlds}" if worlds else f"{seconds:g}s"
        self.name = f"reply:{width}:{budget}"

    def decide(self, observation: Observation, rng: Rng) -> Action:
        legal = observation.legal
        if len(legal) == 1:
            return legal[0]
        deadline = self._deadline()
        evaluation = self.evaluation(observation)
        one_ply = partial(lead_settled, seat=observation.seat, evaluation=evaluation)
        after_replies = partial(lead_after_round, seat=observation.seat, evaluation=evaluation)

        lines = [(action,) for action in legal]
        first, looked = weigh(observation, lines, one_ply, rng, deadline, FIRST_LOOK_WORLDS)
        if not looked:  # out of time before one world was through: no better guess
            return legal[0]
        ranked = sorted(range(len(legal)), key=lambda k: first[k], reverse=True)
        candidates = [lines[k] for k in ranked[: self.width]]
        if len(candidates) == 1:
            return candidates[0][0]
        most = self.worlds or MOST_WORLDS
        after, worlds = weigh(observation, candidates, after_replies, rng, deadline, most)
        if not worlds:
            return candidates[0][0]
        best = max(range(len(candidates)), key=lambda k: after[k])
        return candidates[best][0]

    def _deadline(self) -> float:
        budget = math.inf if self.worlds else self.seconds
        if self.time_limit is not None:
            budget = min(budget, self.time_limit)
        return time.perf_counter() + budget
