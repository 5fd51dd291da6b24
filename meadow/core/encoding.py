"""The fixed action space and observation array behind every research API.

An `Encoding` belongs to one game, player count and option set. Its action space is an
enumeration of every action that can ever be legal under those options, derived from the
game's component data and action classes (`meadow/games/<game>/encoding.py`); an action's index
is its place in that enumeration, so it is stable for as long as the data does not change.
Its observation is a flat float32 array of what `State.view(seat)` holds and nothing else:
an encoder writes it from the view (`fill`) or, faster, from the state (`fill_state`), and
the contract tests hold the two to the same array, so no hidden fact can reach an agent.

Seats in observations are counted from the observer: 0 is the seat itself, 1 the next seat
in turn order, and so on, so one policy can play any seat.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from meadow.core import registry
from meadow.core.actions import Action
from meadow.core.errors import MeadowError, SetupError
from meadow.core.game import Game, State
from meadow.core.options import GameOptions


@dataclass(frozen=True, slots=True)
class Block:
    """One named part of the observation array: its shape, bounds and meaning."""

    name: str
    shape: tuple[int, ...]
    doc: str
    low: float = 0.0
    high: float = 1.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))


Slice = tuple[str, int, int, tuple[int, ...]]  # a block's name, start, stop and shape


class Parts:
    """A fresh observation array and writable, reshaped views of its blocks by name (each
    view made when first asked for: a fill that touches few blocks pays for few)."""

    __slots__ = ("array", "slices", "views")

    def __init__(self, slices: Mapping[str, Slice], size: int) -> None:
        self.array = np.zeros(size, dtype=np.float32)
        self.slices = slices
        self.views: dict[str, np.ndarray] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        view = self.views.get(name)
        if view is None:
            _, a, b, shape = self.slices[name]
            view = self.views[name] = self.array[a:b].reshape(shape)
        return view


class Encoder(ABC):
    """A game's side of the encoding: its action enumeration and how a view is written."""

    game_id: ClassVar[str]
    # The blocks that hold points already scored, each with its column along the last axis
    # (None: the whole block). A learned evaluation's correction does not read them: the
    # lead now is the hand-written evaluation's part, and a correction that saw the points
    # would learn that a lead tends to shrink (luck does not last), which a search would take
    # for a reason not to score.
    points_blocks: ClassVar[dict[str, int | None]] = {}
    # Blocks of shape (seats, labels, ...) whose labels mean nothing by themselves (Mystic
    # Vale's cards c1-c20: which of a druid's cards is "c3" is an accident of the deal).
    # They share one order per seat. A learned value is taught on observations with each
    # seat's labels shuffled (`Encoding.relabelled`): a position told apart from another by
    # its labels alone is one a search would chase noise in.
    labelled_blocks: ClassVar[tuple[str, ...]] = ()

    def __init__(self, players: int, options: GameOptions) -> None:
        self.players = players
        self.options = options

    @abstractmethod
    def actions(self) -> list[Action]:
        """Every action that can ever be legal with these options, in a fixed order."""

    @abstractmethod
    def blocks(self) -> list[Block]:
        """The observation's blocks, in order."""

    @abstractmethod
    def fill(self, view: Mapping[str, Any], me: int, parts: Parts) -> None:
        """Write `view` (the view of seat `me`) into the zeroed `parts`."""

    def fill_state(self, state: State, me: int, parts: Parts) -> None:
        """Write what seat `me` knows of `state` into the zeroed `parts`: the same numbers as
        `fill(state.view(me), ...)`, read from the state without building the view (the
        view is JSON for the page; an agent's step and a learned evaluation need only the
        numbers). A game overrides it where that is cheaper; it must read only what the
        seat's view holds, and the contract suite checks both give the same array."""
        self.fill(state.view(me), me, parts)

    def relative(self, seat: int, me: int) -> int:
        """A seat counted from the observer: 0 is `me`, 1 the next seat in turn order."""
        return (seat - me) % self.players


class Encoding:
    """One game, player count and option set: action indices and observation arrays."""

    def __init__(self, game: Game, players: int, options: GameOptions, encoder: Encoder) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.encoder = encoder
        # an action listed twice (two rules allowing it) keeps its first place
        self.actions: tuple[Action, ...] = tuple(dict.fromkeys(encoder.actions()))
        self._index = {action: i for i, action in enumerate(self.actions)}
        self._by_kind = _tables_by_kind(self.actions)
        self.blocks: tuple[Block, ...] = tuple(encoder.blocks())
        offsets, at = [], 0
        for block in self.blocks:
            offsets.append(at)
            at += block.size
        self.offsets: tuple[int, ...] = tuple(offsets)
        self.observation_size = at
        self._slices: tuple[Slice, ...] = tuple(
            (b.name, o, o + b.size, b.shape) for b, o in zip(self.blocks, offsets, strict=True)
        )
        self._by_name = {piece[0]: piece for piece in self._slices}
        self.low = np.concatenate([np.full(b.size, b.low, dtype=np.float32) for b in self.blocks])
        self.high = np.concatenate([np.full(b.size, b.high, dtype=np.float32) for b in self.blocks])
        self.low.flags.writeable = self.high.flags.writeable = False  # shared by every user

    @property
    def size(self) -> int:
        """How many actions the space has (the `Discrete` size)."""
        return len(self.actions)

    def __repr__(self) -> str:
        opts = self.options.model_dump(mode="json")
        return (
            f"Encoding({self.game.id}, players={self.players}, options={opts}, "
            f"actions={self.size}, observation={self.observation_size})"
        )

    # -- actions ------------------------------------------------------------------------

    def index(self, action: Action) -> int:
        """The index of an action.

        Raises:
            MeadowError: the action can never be legal in this game and option set.
        """
        try:
            return self._index[action]
        except KeyError:
            raise MeadowError(
                f"{self.game.title}: {action} has no index: it can never be legal with "
                f"{self.players} players and options {self.options.model_dump(mode='json')}"
            ) from None
        except TypeError:
            raise MeadowError(f"{self.game.title}: {action!r} is not an action") from None

    def action(self, index: int) -> Action:
        """The action an index stands for.

        Raises:
            MeadowError: the index is not an integer in 0..size-1.
        """
        if isinstance(index, bool) or not isinstance(index, int | np.integer):
            raise MeadowError(f"{self.game.title}: action index {index!r} is not an integer")
        if not 0 <= index < len(self.actions):
            raise MeadowError(
                f"{self.game.title}: action index {index} is outside 0..{len(self.actions) - 1}"
            )
        return self.actions[int(index)]

    def legal_indices(self, legal: Iterable[Action]) -> list[int]:
        """The indices of the legal actions, ascending."""
        by_kind = self._by_kind
        found = []
        for action in legal:
            # an action's fields, read by a getter made once per kind: hashing and comparing
            # a tuple of interned strings costs a fraction of the dataclass's own hash and ==
            fields, table = by_kind.get(type(action), _NO_KIND)
            index = table.get(fields(action))
            if index is None:
                raise self._missing(action)
            found.append(index)
        found.sort()
        return found

    def mask(self, legal: Iterable[Action]) -> np.ndarray:
        """1 for each legal index, 0 elsewhere (int8, one entry per action)."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        mask[self.legal_indices(legal)] = 1
        return mask

    def _missing(self, action: Action) -> RuntimeError:
        # the enumeration missed a legal action: a bug in the encoder, never bad input
        return RuntimeError(
            f"{self.game.title}: legal action {action} is missing from the action space "
            f"(meadow/games/{self.game.id}/encoding.py)"
        )

    # -- observations -------------------------------------------------------------------

    def observation(self, view: Mapping[str, Any]) -> np.ndarray:
        """The observation array of a seat's view (`State.view(seat)`), float32.

        Raises:
            MeadowError: the view is not a seat's view of a game with this encoding.
        """
        me = view.get("seat")
        if view.get("game") != self.game.id or not isinstance(me, int):
            raise MeadowError(
                f"an observation needs a seat's view of {self.game.title}, got one of "
                f"{view.get('game')!r} for seat {me!r}"
            )
        if view.get("players") != self.players:
            raise MeadowError(
                f"this encoding is for {self.players} players, the view has {view.get('players')!r}"
            )
        parts = Parts(self._by_name, self.observation_size)
        self.encoder.fill(view, me, parts)
        return parts.array

    def observe(self, state: State, seat: int) -> np.ndarray:
        """The observation array of what `seat` knows of `state`, float32: the same array as
        `observation(state.view(seat))`, built without the view where the game can.

        Raises:
            MeadowError: the state is not of a game with this encoding, or not a seat.
        """
        if state.game.id != self.game.id or state.players != self.players:
            raise MeadowError(
                f"this encoding is for {self.game.title} with {self.players} players, the "
                f"position is of {state.game.title} with {state.players}"
            )
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise MeadowError(f"an observation needs a seat 0..{self.players - 1}, not {seat!r}")
        parts = Parts(self._by_name, self.observation_size)
        self.encoder.fill_state(state, seat, parts)
        return parts.array

    def unflatten(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The blocks of an observation array by name, reshaped (views, not copies)."""
        return {name: observation[a:b].reshape(shape) for name, a, b, shape in self._slices}

    def relabelled(self, observations: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A copy of a batch of observations (rows) with each row's and seat's labels in
        `Encoder.labelled_blocks` put in a random order: the same position, told by other
        labels. Without such blocks, the batch itself."""
        names = self.encoder.labelled_blocks
        if not names:
            return observations
        rows = len(observations)
        seats, labels = self._by_name[names[0]][3][:2]
        orders = rng.permuted(np.broadcast_to(np.arange(labels), (rows, seats, labels)), axis=2)
        found = observations.copy()
        for name in names:
            _, start, stop, shape = self._by_name[name]
            if shape[:2] != (seats, labels):
                raise RuntimeError(f"labelled block {name} is not of shape (seats, labels, ...)")
            block = observations[:, start:stop].reshape(rows, *shape)
            index = orders.reshape(rows, seats, labels, *(1,) * (len(shape) - 2))
            moved = np.take_along_axis(block, index, axis=2)
            found[:, start:stop] = moved.reshape(rows, stop - start)
        return found

    def points_columns(self) -> list[int]:
        """The observation's numbers that are points already scored (`points_blocks`)."""
        found: list[int] = []
        for name, start, stop, shape in self._slices:
            if name not in self.encoder.points_blocks:
                continue
            column = self.encoder.points_blocks[name]
            block = np.arange(start, stop).reshape(shape)
            found += (block if column is None else block[..., column]).ravel().tolist()
        return found

    def fingerprint(self) -> str:
        """What a model trained on this encoding depends on: the game's data files as they
        stand here (`meadow.core.data.fingerprint`), the player count, the options, the
        action space and the observation's layout. Any change gives another digest."""
        from meadow.core import data

        digest = hashlib.sha256(
            data.fingerprint(
                registry.MODULES[self.game.id], self.game.id, self.game.drop_in_data
            ).encode()
        )
        digest.update(f"{self.players}|{self.options.model_dump_json()}".encode())
        digest.update("\n".join(map(str, self.actions)).encode())
        digest.update(repr(self._slices).encode())
        return digest.hexdigest()[:16]

    def layout(self) -> list[dict[str, Any]]:
        """Each block's name, offset, shape, bounds and meaning (for docs and notebooks)."""
        return [
            {
                "name": b.name,
                "offset": o,
                "shape": b.shape,
                "low": b.low,
                "high": b.high,
                "doc": b.doc,
            }
            for b, o in zip(self.blocks, self.offsets, strict=True)
        ]


KindTable = tuple[Callable[[Action], Hashable], dict[Hashable, int]]


def _no_fields(action: Action) -> None:
    """The field values of an action that has none (a module function: encodings pickle)."""
    return None


_NO_KIND: KindTable = (_no_fields, {})


def _tables_by_kind(actions: Sequence[Action]) -> dict[type[Action], KindTable]:
    """Per action class: a getter of an action's fields and each field value's index."""
    tables: dict[type[Action], KindTable] = {}
    for index, action in enumerate(actions):
        kind = type(action)
        if kind not in tables:
            names = [f.name for f in dataclasses.fields(action)]
            getter = operator.attrgetter(*names) if names else _no_fields
            tables[kind] = (getter, {})
        getter, table = tables[kind]
        table.setdefault(getter(action), index)  # listed twice: its first place, as _index
    return tables


def encoding(
    game: str | Game,
    players: int = 2,
    options: Mapping[str, Any] | GameOptions | None = None,
) -> Encoding:
    """The encoding of a game for a player count and option set (built once, then shared).

    Raises:
        UnknownGame: no such game.
        SetupError: a player count the game does not support.
        OptionError: an unknown option or a bad value.
    """
    found = registry.get(game) if isinstance(game, str) else game
    if (
        isinstance(players, bool)
        or not isinstance(players, int)
        or (players not in found.player_counts)
    ):
        raise SetupError(
            f"{found.title} is for {found.min_players}-{found.max_players} players, not {players!r}"
        )
    checked = found.options(players, options)
    return _cached(found.id, players, checked.model_dump_json())


@lru_cache(maxsize=64)
def _cached(game_id: str, players: int, options_json: str) -> Encoding:
    import importlib

    game = registry.get(game_id)
    options = game.Options.model_validate_json(options_json)
    module = importlib.import_module(f"{registry.MODULES[game_id]}.encoding")
    encoder_class: type[Encoder] = module.ENCODER
    return Encoding(game, players, options, encoder_class(players, options))
