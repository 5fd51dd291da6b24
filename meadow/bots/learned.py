"""Evaluations learned by self-play (`meadow train`), read with numpy alone.

A model file holds two small networks over a seat's observation array (`Encoding.observe`,
the research API's array: only what the seat knows):

- the **value**: how much the seat's final lead will differ from its lead by the game's own
  evaluation now (`Game.evaluate`, the hand-written one), in points. A search adds it to the
  hand-written lead, so a model that learned nothing plays as the hand-written evaluation
  does, and what it learned (what a position is worth beyond its points now: tempo, what a
  hand or a half-built area will bring) moves the search only where the games showed it;
- the **policy**: a probability for each action of the encoding's space, the trained agent
  that takes a seat as `policy:learned` with nothing but its observation and action mask.

A model is for one game, player count and option set, and knows the data it was trained on
by a fingerprint (`Encoding.fingerprint`). Where there is no model, or the host's data is
not the data it learned (printed Mystic Vale cards, a real Renature board), `evaluation_for`
gives the game's hand-written evaluation and `status` says why, for the lobby.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from meadow.core.encoding import Encoding, encoding
from meadow.core.errors import MeadowError
from meadow.core.game import Game, State

MODELS = Path(__file__).with_name("models")
ENV = "MEADOW_MODELS"  # a folder of models that replaces the packaged ones (retrained data)
FORMAT = 1
log = logging.getLogger(__name__)


class Evaluation(Protocol):
    """What a search asks of an evaluation: a game is one (its hand-written evaluation)."""

    def evaluate(self, state: State) -> list[float]: ...

    def evaluate_seat(self, state: State, seat: int) -> float: ...


class ModelError(MeadowError):
    """A model file that cannot be used here, with the reason in one line."""


@dataclass(frozen=True)
class Card:
    """What a model file says of itself (`<game>-<players>p.json` beside the weights)."""

    game: str
    players: int
    options: dict[str, Any]
    fingerprint: str
    observation_size: int
    actions: int
    scale: float  # points per unit of the value network's output
    made: dict[str, Any]  # the command, games, data and figures that made it

    @classmethod
    def read(cls, path: Path) -> Card:
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            if raw.get("format") != FORMAT:
                raise ModelError(f"{path}: model format {raw.get('format')!r}, not {FORMAT}")
            return cls(
                game=raw["game"],
                players=int(raw["players"]),
                options=dict(raw["options"]),
                fingerprint=str(raw["fingerprint"]),
                observation_size=int(raw["observation_size"]),
                actions=int(raw["actions"]),
                scale=float(raw["scale"]),
                made=dict(raw.get("made", {})),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"{path}: not a model card ({exc})") from None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "fingerprint": self.fingerprint,
            "observation_size": self.observation_size,
            "actions": self.actions,
            "scale": self.scale,
            "made": self.made,
        }


class Network:
    """A network of one hidden layer (rectified): input -> hidden -> outputs. Observations
    are mostly zeros (one-hot blocks), so the first layer sums the rows of the inputs that
    are not, which costs a fraction of the whole product in the wide encodings."""

    __slots__ = ("first", "first_bias", "second", "second_bias")

    def __init__(self, weights: dict[str, np.ndarray], prefix: str) -> None:
        self.first = _matrix(weights, f"{prefix}.first")
        self.first_bias = weights[f"{prefix}.first_bias"].astype(np.float32)
        self.second = _matrix(weights, f"{prefix}.second")
        self.second_bias = weights[f"{prefix}.second_bias"].astype(np.float32)

    def __call__(self, observation: np.ndarray) -> np.ndarray:
        """The outputs for one observation (1-d) or a batch (2-d, one row each)."""
        if observation.ndim == 1:
            present = np.flatnonzero(observation)
            hidden = observation[present] @ self.first[present] + self.first_bias
        else:  # the inputs that are not 0 in any row
            present = np.flatnonzero(observation.any(axis=0))
            hidden = observation[:, present] @ self.first[present] + self.first_bias
        np.maximum(hidden, 0.0, out=hidden)
        return hidden @ self.second + self.second_bias  # type: ignore[no-any-return]


def _matrix(weights: dict[str, np.ndarray], name: str) -> np.ndarray:
    """A weight matrix as float32: stored as floats, or as 8-bit integers with a scale per
    column (`<name>.scale`), which keeps a wide policy layer (Renature's 18,869 actions) to a
    quarter of its size."""
    found = weights[name]
    scale = weights.get(f"{name}.scale")
    if scale is not None:
        return np.ascontiguousarray(found.astype(np.float32) * scale.astype(np.float32))
    return np.ascontiguousarray(found, dtype=np.float32)


def compact(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Weights as a model file keeps them: half-precision floats, and the policy's matrices
    as 8-bit integers with a scale per column (the policy picks the largest of its logits,
    which a rounding of 1/254 of a column's largest weight barely moves)."""
    kept: dict[str, np.ndarray] = {}
    for name, value in weights.items():
        if name.startswith("policy.") and value.ndim == 2:
            scale = np.abs(value).max(axis=0) / 127.0
            scale[scale == 0] = 1.0
            kept[name] = np.round(value / scale).astype(np.int8)
            kept[f"{name}.scale"] = scale.astype(np.float32)
        else:
            kept[name] = value.astype(np.float16)
    return kept


class Model:
    """A trained model: its card, the value network and the policy network."""

    def __init__(self, card: Card, weights: dict[str, np.ndarray]) -> None:
        self.card = card
        self.value = Network(weights, "value")
        self.policy = Network(weights, "policy")
        if self.value.first.shape[0] != card.observation_size:
            raise ModelError(
                f"{card.game}: the value network reads {self.value.first.shape[0]} numbers, "
                f"the card says {card.observation_size}"
            )
        if self.policy.second.shape[1] != card.actions:
            raise ModelError(
                f"{card.game}: the policy has {self.policy.second.shape[1]} actions, the card "
                f"says {card.actions}"
            )

    @classmethod
    def load(cls, card_path: Path) -> Model:
        card = Card.read(card_path)
        weights_path = card_path.with_suffix(".npz")
        try:
            with np.load(weights_path, allow_pickle=False) as found:
                weights = {name: found[name] for name in found.files}
        except (OSError, ValueError) as exc:
            raise ModelError(f"{weights_path}: cannot be read ({exc})") from None
        try:
            return cls(card, weights)
        except KeyError as exc:
            raise ModelError(f"{weights_path}: no array {exc.args[0]!r}") from None

    def save(self, card_path: Path, weights: dict[str, np.ndarray]) -> None:
        card_path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(card_path.with_suffix(".npz"), **compact(weights))
        card_path.write_text(json.dumps(self.card.to_json(), indent=1) + "\n", encoding="utf-8")

    def check(self, coding: Encoding) -> None:
        """Refuse the model where the game it would judge is not the one it learned.

        Raises:
            ModelError: other data, options, player count, space or observation.
        """
        card = self.card
        if coding.game.id != card.game or coding.players != card.players:
            raise ModelError(
                f"the model is for {card.game} with {card.players} players, not "
                f"{coding.game.id} with {coding.players}"
            )
        if card.fingerprint != coding.fingerprint():
            raise ModelError(
                f"the {coding.game.title} model was trained on other game data (fingerprint "
                f"{card.fingerprint}, here {coding.fingerprint()}): retrain it with "
                f"`meadow train {coding.game.id}`"
            )

    def lead_corrections(self, observations: np.ndarray) -> np.ndarray:
        """Per row, in points: the final lead the value network expects beyond the
        hand-written lead now."""
        return self.value(observations)[..., 0] * self.card.scale  # type: ignore[no-any-return]


class LearnedEvaluation:
    """The game's hand-written evaluation, each seat's part moved by what its model
    expects from that seat's own observation. Two seats' corrections enter each seat's
    value by half, so that a seat's lead over the other moves by its own correction less
    the other's: both seats are judged by what each of them knows, nothing else."""

    def __init__(self, game: Game, model: Model, coding: Encoding) -> None:
        self.game = game
        self.model = model
        self.coding = coding
        self.share = 0.5 if coding.players == 2 else 1.0 / coding.players

    def corrections(self, state: State) -> np.ndarray:
        rows = np.stack([self.coding.observe(state, seat) for seat in range(state.players)])
        return self.model.lead_corrections(rows)

    def evaluate(self, state: State) -> list[float]:
        values = self.game.evaluate(state)
        if state.is_over:
            return values
        moved = self.corrections(state)
        return [value + self.share * float(m) for value, m in zip(values, moved, strict=True)]

    def evaluate_seat(self, state: State, seat: int) -> float:
        value = self.game.evaluate_seat(state, seat)
        if state.is_over:
            return value
        row = self.coding.observe(state, seat)
        return value + self.share * float(self.model.lead_corrections(row))


def model_path(game_id: str, players: int, folder: Path | None = None) -> Path:
    """Where the model of a game and player count is: `$MEADOW_MODELS` if the host set it
    (retrained for the host's data), else the packaged folder."""
    if folder is None:
        override = os.environ.get(ENV)
        folder = Path(override) if override else MODELS
    return folder / f"{game_id}-{players}p.json"


@cache
def _load(path: Path, stamp: float) -> Model | ModelError:
    try:
        return Model.load(path)
    except ModelError as exc:
        return exc


def model_for(coding: Encoding) -> Model | ModelError | None:
    """The model for an encoding, the reason it cannot be used, or None if there is none
    (or it was trained for other options, which the hand-written evaluation plays)."""
    path = model_path(coding.game.id, coding.players)
    if not path.is_file():
        return None
    found = _load(path, path.stat().st_mtime)
    if isinstance(found, ModelError):
        return found
    if found.card.options != coding.options.model_dump(mode="json"):
        return None
    try:
        found.check(coding)
    except ModelError as exc:
        return exc
    return found


@cache
def _evaluation(
    game_id: str, players: int, options_json: str, where: Path, stamp: float
) -> Evaluation | None:
    from meadow.core import registry

    game = registry.get(game_id)
    coding = encoding(game, players, game.Options.model_validate_json(options_json))
    found = model_for(coding)
    if isinstance(found, ModelError):
        log.warning("%s; the hand-written evaluation plays instead", found)
        return None
    return None if found is None else LearnedEvaluation(game, found, coding)


def evaluation_of(game: Game, players: int, options: dict[str, Any]) -> Evaluation:
    """The learned evaluation for this game, player count and options, or the game's own
    hand-written one where there is no model or the model learned other data. A model
    file replaced while a process runs (a training round) is read again."""
    checked = game.options(players, options).model_dump_json()
    path = model_path(game.id, players)
    stamp = path.stat().st_mtime if path.is_file() else 0.0
    found = _evaluation(game.id, players, checked, path, stamp)
    return game if found is None else found


def status(game_id: str, players: int = 2, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the lobby says of a game's learned evaluation: `in use` (with its card's
    figures), `stale` (trained on other data: the reason) or `none`."""
    from meadow.core import registry

    game = registry.get(game_id)
    coding = encoding(game, players, options)
    found = model_for(coding)
    if found is None:
        return {"learned": "none"}
    if isinstance(found, ModelError):
        return {"learned": "stale", "reason": str(found)}
    return {"learned": "in use", "made": found.card.made.get("summary", "")}
