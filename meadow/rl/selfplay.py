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
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from meadow.bots.base import observe
from meadow.bots.names import make_bot
from meadow.core import registry
from meadow.core.encoding import encoding
from meadow.core.game import margins
from meadow.core.rng import Rng


@dataclass
class Games:
    """Rows of self-play positions (one per seat and decision) and the teacher's choices."""

    observations: np.ndarray  # (rows, observation size) float16: every value is 0..~3
    targets: np.ndarray  # (rows,) float32: final lead less the hand-written lead, points
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
