"""Self-play games as training data: what each seat saw, what the teacher chose, and how
each game ended.

Each game is played by one bot in every seat (the teacher: greedy by the evaluation being
learned, `greedy:eval=learned` once there is a model, plain `greedy` before), with a share
of its decisions played at random so that the data holds positions good play would not
reach. At every decision the position is written down once per seat, as that seat's
observation array (`Encoding.observe`, the research API's array: only what the seat knows),
with the seat's lead by the game's hand-written evaluation at that moment; when the game
ends each row gets its target, the seat's final lead less that lead: what the position was
worth beyond its points. The decisions the teacher made (not the random ones) are the
policy's examples: the observation of the seat to move, the legal indices and the index
chosen.

With targets from a round (`Recipe.targets == "round"`) the value is taught on other rows: at
each decision, the moves a first look likes best are each played on for a round in the same
few worlds drawn from the mover's observation, and each move's position after it is a row,
its target what the round added to the mover's lead by the hand-written evaluation (the
judge's measure, `meadow.analysis.judge`) less the mean over the decision's moves (the other
seat's row the same with its sign turned). A search compares such siblings, most of which
play would never reach; a round is much less chance than the rest of a game, so the target is
mostly the position's worth rather than luck; and less the mean, it is only what tells a
move from its siblings, which is all a choice among them needs (`bench.learned_ranking`
measures how well a model makes that choice).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from meadow.bots.base import Observation, observe
from meadow.bots.names import make_bot
from meadow.bots.playing_on import (
    best_at_first_look,
    lead_after_round,
    lead_settled,
    settle,
    weigh,
)
from meadow.core import registry
from meadow.core.actions import Action
from meadow.core.encoding import Encoding, encoding
from meadow.core.game import State, margins
from meadow.core.rng import Rng

# What the value is taught under each `--targets`: the name its held-out error goes by in
# tables and model cards, and what it is
TARGETS = {
    "end": ("lead", "the final lead less the hand-written lead now"),
    "round": (
        "round",
        "what a round played on added to the lead, less the mean over the decision's moves",
    ),
}
FIRST_LOOK_WORLDS = 3  # worlds each legal move is looked at in, to pick those played on
ROUND_WIDTH = 6  # moves played on for a round at each decision
ROUND_WORLDS = 6  # the worlds each of them is played on in (the same for all)


@dataclass
class Games:
    """Rows of self-play positions (one per seat and decision) and the teacher's choices."""

    observations: np.ndarray  # (rows, observation size) float16: every value is 0..~3
    # (rows,) float32: final lead less the hand-written lead, points; or what a round added
    # (targets "round"), NaN on the rows played there (the policy's, not the value's)
    targets: np.ndarray
    game_of_row: np.ndarray  # (rows,) int32: which game (for a held-out split by game)
    chosen_rows: np.ndarray  # (examples,) int32: the row of the seat that chose
    chosen: np.ndarray  # (examples,) int32: the action index it chose
    legal: np.ndarray  # (sum of legal counts,) int32: legal indices, example after example
    legal_ends: np.ndarray  # (examples,) int64: where each example's legal indices end

    @classmethod
    def empty(cls, size: int) -> Games:
        return cls(
            np.zeros((0, size), np.float16),
            np.zeros(0, np.float32),
            np.zeros(0, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0, np.int32),
            np.zeros(0, np.int64),
        )

    def __len__(self) -> int:
        return len(self.targets)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".partial.npz")
        np.savez_compressed(partial, **self.__dict__)
        partial.replace(path)  # a round cut short leaves no half file to resume from

    @classmethod
    def load(cls, path: Path) -> Games:
        with np.load(path, allow_pickle=False) as found:
            return cls(**{name: found[name] for name in found.files})

    @classmethod
    def join(cls, parts: list[Games]) -> Games:
        """One set from several, rows and games renumbered."""
        if not parts:
            raise ValueError("nothing to join")
        rows = games = legal = 0
        pieces: dict[str, list[np.ndarray]] = {name: [] for name in parts[0].__dict__}
        for part in parts:
            pieces["observations"].append(part.observations)
            pieces["targets"].append(part.targets)
            pieces["game_of_row"].append(part.game_of_row + games)
            pieces["chosen_rows"].append(part.chosen_rows + rows)
            pieces["chosen"].append(part.chosen)
            pieces["legal"].append(part.legal)
            pieces["legal_ends"].append(part.legal_ends + legal)
            rows += len(part)
            games += int(part.game_of_row.max()) + 1 if len(part) else 0
            legal += len(part.legal)
        return cls(**{name: np.concatenate(found) for name, found in pieces.items()})


@dataclass(frozen=True)
class Recipe:
    """How one self-play game is played: everything a worker process needs."""

    game_id: str
    players: int
    options: dict[str, Any]
    teacher: str
    careless: float  # share of decisions played at random
    seed: int
    models: str | None  # the folder of the model being learned ($MEADOW_MODELS), if any
    targets: str = "end"  # what a row is taught: the game's end, or a round played on


def play(recipe: Recipe) -> Games:
    """One self-play game, written down (see the module's docstring)."""
    import os

    if recipe.models is not None:
        os.environ["MEADOW_MODELS"] = recipe.models
    game = registry.get(recipe.game_id)
    state = game.setup(recipe.players, recipe.options, recipe.seed)
    coding = encoding(game, recipe.players, state.options)
    teacher = make_bot(recipe.teacher)
    rng = Rng(recipe.seed ^ 0x5E1F)
    rows: list[np.ndarray] = []
    seats: list[int] = []
    hand: list[float] = []
    chosen_rows: list[int] = []
    chosen: list[int] = []
    legal_lists: list[list[int]] = []
    by_round = recipe.targets == "round"
    round_rows: list[np.ndarray] = []
    round_targets: list[float] = []
    worlds = Rng(recipe.seed ^ 0xA11D)
    while not state.is_over:
        values = game.evaluate(state)
        mover = state.to_move
        assert mover is not None
        for seat in range(state.players):
            if seat == mover:
                mover_row = len(rows)
            rows.append(coding.observe(state, seat))
            seats.append(seat)
            hand.append(margins(values, seat))
        legal = state.legal_actions()
        if by_round and len(legal) > 1:
            taught = siblings_played_on(state, observe(state, mover), coding, worlds)
            for found, target in taught:
                round_rows.append(found)
                round_targets.append(target)
        if len(legal) > 1 and rng.random() < recipe.careless:
            action = legal[rng.below(len(legal))]
        else:
            action = teacher.choose(observe(state, mover), rng)
            if len(legal) > 1:  # a forced move teaches nothing
                chosen_rows.append(mover_row)
                chosen.append(coding.index(action))
                legal_lists.append(coding.legal_indices(legal))
        state.apply(action)
    final = state.result().scores
    leads = [margins([float(s) for s in final], seat) for seat in range(state.players)]
    targets = np.array([leads[s] - h for s, h in zip(seats, hand, strict=True)], np.float32)
    if by_round:
        # The rows played stay for the policy's examples, without a target of the value's
        # (NaN: the value is fitted on the rows of the rounds alone).
        targets = np.concatenate(
            [np.full(len(rows), np.nan, np.float32), np.array(round_targets, np.float32)]
        )
        rows += round_rows
    flat = [index for found in legal_lists for index in found]
    return Games(
        observations=np.array(rows, dtype=np.float16).reshape(len(rows), coding.observation_size),
        targets=targets,
        game_of_row=np.zeros(len(rows), np.int32),
        chosen_rows=np.array(chosen_rows, np.int32),
        chosen=np.array(chosen, np.int32),
        legal=np.array(flat, np.int32),
        legal_ends=np.cumsum([len(found) for found in legal_lists], dtype=np.int64),
    )


def siblings_played_on(
    state: State, seen: Observation, coding: Encoding, rng: Rng
) -> list[tuple[np.ndarray, float]]:
    """Rows of a decision's best-looking moves: each move's position, settled, as each seat
    observes it, with what a round played on from it added to that seat's lead (the mean
    over the same worlds drawn from the mover's observation) beyond what it added after the
    decision's moves on average."""
    mover = seen.seat
    moves = best_at_first_look(seen, rng, math.inf, FIRST_LOOK_WORLDS, ROUND_WIDTH)
    lines = [(move,) for move in moves]
    added, _ = weigh(seen, lines, partial(round_added, seat=mover), rng, math.inf, ROUND_WORLDS)
    mean = sum(added) / len(added)
    added = [gain - mean for gain in added]  # what tells the move from its siblings
    found: list[tuple[np.ndarray, float]] = []
    for move, gain in zip(moves, added, strict=True):
        after = _settled_after(state, move, mover)
        for seat in range(state.players):
            found.append((coding.observe(after, seat), gain if seat == mover else -gain))
    return found


def round_added(world: State, seat: int) -> float:
    """In one world: the seat's lead after a round played on greedily (its turn, the
    others', its next) less its lead once its move is settled."""
    now = lead_settled(world, seat)
    return lead_after_round(world, seat) - now


def _settled_after(state: State, move: Action, seat: int) -> State:
    after = state.clone()
    after.apply(move)
    settle(after, seat)
    return after
