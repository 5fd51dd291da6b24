"""Judging a decision as the seat could have: the move played against the best move found.

Like the reply search (`meadow.bots.reply`), every legal move is first judged by the lead it
leaves in a few sampled worlds, and the `width` best (and the move played, always) are then
played on in more worlds, the same worlds for each: the rest of the seat's turn, the others'
turns and the seat's next, each decision greedy (`meadow.bots.playing_on.play_round`). A
move's value is the seat's mean lead by the game's evaluation after that, in points; the
loss is how much less the move played kept than the best.

The worlds are drawn from the seat's observation only, and the generator is seeded from the
seat's view and the move's number, never from the record's seed: two positions the seat
cannot tell apart are judged alike, so a judgement teaches nothing hidden.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial

import orjson

from meadow.bots import Observation, observe
from meadow.bots.playing_on import best_at_first_look, lead_after_round, weigh
from meadow.core.actions import Action
from meadow.core.record import GameRecord
from meadow.core.rng import Rng

FIRST_LOOK_WORLDS = 3  # worlds each legal move is judged in before playing on
WIDTH = 8  # moves played on, besides the move played


@dataclass(frozen=True)
class Judgement:
    """One decision: the move played and the best found, each with the seat's expected lead
    after it (points), and in how many sampled worlds that was measured."""

    number: int  # the move's number in the record, from 1
    seat: int
    played: str
    best: str
    played_value: float
    best_value: float
    worlds: int

    @property
    def loss(self) -> float:
        """Points the move played kept less than the best move found (never below 0)."""
        return max(0.0, self.best_value - self.played_value)

    def to_json(self) -> dict[str, object]:
        return {
            "move": self.number,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 3),
            "best_value": round(self.best_value, 3),
            "loss": round(self.loss, 3),
            "worlds": self.worlds,
        }


def judge(
    observation: Observation,
    played: Action,
    number: int,
    seconds: float = math.inf,
    worlds: int = 32,
    width: int = WIDTH,
) -> Judgement:
    """The decision at move `number` (the seat's `observation`, where `played` was chosen),
    played on in up to `worlds` worlds within `seconds`. With no clock (`seconds` infinite)
    the judgement is the same on every machine.

    Raises:
        ValueError: `played` is not a legal move of the observation.
    """
    if played not in observation.legal:
        raise ValueError(f"move {number}: {played} is not legal for seat {observation.seat}")
    ranked, measured = rank(observation, number, seconds, worlds, width, also=played)
    values = dict(ranked)
    best = ranked[0][0]
    return Judgement(
        number=number,
        seat=observation.seat,
        played=str(played),
        best=str(best),
        played_value=values[played],
        best_value=values[best],
        worlds=measured,
    )


def rank(
    observation: Observation,
    number: int,
    seconds: float = math.inf,
    worlds: int = 32,
    width: int = WIDTH,
    also: Action | None = None,
) -> tuple[list[tuple[Action, float]], int]:
    """The `width` moves that look best at a first look (and `also`, if given), each with
    the seat's mean lead after playing on, best first; and in how many worlds."""
    rng = generator(observation, number)
    deadline = time.perf_counter() + seconds
    played_on = partial(lead_after_round, seat=observation.seat)
    chosen = best_at_first_look(observation, rng, deadline, FIRST_LOOK_WORLDS, width)
    if also is not None and also not in chosen:
        chosen.append(also)
    values, measured = weigh(observation, [(a,) for a in chosen], played_on, rng, deadline, worlds)
    # Best first; among equals, the one the first look preferred.
    order = sorted(range(len(chosen)), key=lambda k: (-values[k], k))
    return [(chosen[k], values[k]) for k in order], measured


Progress = Callable[[int, int], None]  # (moves walked, moves in the game)


@dataclass(frozen=True)
class Step:
    """One move of a record as the coach walks it: judged where its seat had a choice."""

    number: int
    seat: int
    move: str
    observation: Observation | None  # None for a move without a choice
    judgement: Judgement | None


def walk(
    record: GameRecord,
    seconds_per_move: float = math.inf,
    worlds: int = 32,
    progress: Progress | None = None,
) -> Iterator[Step]:
    """Every seat's move of the record in turn, each decision with a choice judged as its
    seat could have judged it; `progress` is told the moves walked before each move."""
    state = record.initial_state()
    total = len(record.actions)
    for number, text in enumerate(record.actions, start=1):
        if progress is not None:
            progress(number - 1, total)
        seat = state.to_move
        action = state.parse_action(text)
        if seat is not None:
            seen = observe(state, seat) if len(state.legal_actions()) > 1 else None
            judged = None if seen is None else judge(seen, action, number, seconds_per_move, worlds)
            yield Step(number, seat, str(action), seen, judged)
        state.apply(action)
    if progress is not None:
        progress(total, total)


def analyse(
    record: GameRecord, seconds_per_move: float = math.inf, worlds: int = 32
) -> Iterator[Judgement]:
    """Every decision of the record that had a choice (more than one legal move), judged in
    turn as its seat could have judged it."""
    for step in walk(record, seconds_per_move, worlds):
        if step.judgement is not None:
            yield step.judgement


def generator(observation: Observation, number: int) -> Rng:
    """A generator seeded from what the seat knows: its view and the move's number."""
    known = orjson.dumps(observation.view, option=orjson.OPT_SORT_KEYS) + number.to_bytes(4)
    return Rng(int.from_bytes(hashlib.blake2b(known, digest_size=8).digest(), "big"))
