"""OpenSpiel: each game registered as a pyspiel Python game.

    import pyspiel, meadow.rl.openspiel
    game = pyspiel.load_game("meadow_harmonies", {"players": 2, "options": "side=B"})

Registered names: `meadow_topiary`, `meadow_harmonies`, `meadow_renature`,
`meadow_mystic_vale`. Parameters: `players`, `options` (rule options as `key=value` pairs
joined by commas), `reward` (`win`, `score` or `margin`; empty for the default) and
`max_decisions` (0 for the game's default cap).

Sequential, imperfect information, explicit chance: the game opens with two chance nodes of
65,536 outcomes each, which together pick the deal (the engine's 32-bit seed); every later
draw follows from the deal, so after it the game is deterministic, and nobody observes the
deal itself. Actions are the encoding's indices (`meadow.rl.encoding`).

Observation string: the seat's view as JSON. Observation tensor: the encoding's array of that
view. Information state string: the seat's view, plus a digest of everything the seat was
told since the deal (its first view, then each action's events as `Event.for_seat` gives
them), so it has perfect recall. Information state tensor: the observation tensor (the view
holds all a seat knows that matters for what is left: Meadow's contract draws every world a
bot may imagine from it).

`resample_from_infostate` draws a world with `State.sample_hidden`, so OpenSpiel's IS-MCTS
works unchanged. A resampled state keeps the history of the one it came from, which no longer
replays it. A game cut short by `max_decisions` ends with all returns 0.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from meadow import games
from meadow.core.actions import Event
from meadow.core.errors import MeadowError
from meadow.core.game import State
from meadow.core.options import GameOptions, parse_option_pairs
from meadow.core.rng import Rng
from meadow.rl.encoding import Encoding, encoding
from meadow.rl.episodes import check_max_decisions, check_reward, final_rewards, reward_bounds

DEAL_STAGES = 2
DEAL_OUTCOMES = 1 << 16  # per stage: 2**32 deals in all, with lists OpenSpiel can hold
PREFIX = "meadow_"
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def short_name(game_id: str) -> str:
    return PREFIX + game_id


def _game_type(game_id: str) -> pyspiel.GameType:
    game = games.get(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Meadow {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": max(2, game.min_players),
            "options": "",
            "reward": "",
            "max_decisions": 0,
        },
    )


def options_text(options: Mapping[str, Any] | GameOptions | None) -> str:
    """Rule options as the `options` parameter writes them: `side=B,spirits=true`."""
    if isinstance(options, GameOptions):
        options = options.model_dump(mode="json")
    return ",".join(
        f"{k}={json.dumps(v) if isinstance(v, bool) else v}" for k, v in (options or {}).items()
    )


class MeadowGame(pyspiel.Game):
    """A Meadow game as a pyspiel game; one subclass per game (see `register`)."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", 2))
        raw = str(params.get("options", "") or "")
        pairs = [p for p in raw.split(",") if p.strip()]
        self.encoding: Encoding = encoding(self.game_id, players, parse_option_pairs(pairs))
        reward = str(params.get("reward", "") or "") or None
        self.reward_mode = check_reward(reward, players)
        self.max_decisions = check_max_decisions(
            int(params.get("max_decisions", 0) or 0) or None, self.game_id
        )
        low, high = reward_bounds(self.game_id, self.reward_mode)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.size,
            max_chance_outcomes=DEAL_OUTCOMES,
            num_players=players,
            min_utility=low,
            max_utility=high,
            max_game_length=self.max_decisions + DEAL_STAGES,
        )
        super().__init__(_TYPES[self.game_id], info, params)

    def new_initial_state(self) -> MeadowState:
        return MeadowState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> MeadowObserver:
        return MeadowObserver(self.encoding, iig_obs_type, params)


def _link(chain: str, text: str) -> str:
    """The next link of a seat's digest of what it was told (stable across processes)."""
    return hashlib.blake2b(f"{chain}|{text}".encode(), digest_size=16).hexdigest()


class Shared:
    """Holds what every copy of a state may share: pyspiel clones a Python state by deep
    copying its attributes, and the encoding is large and never changes."""

    def __init__(self, coding: Encoding) -> None:
        self.encoding = coding

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class World:
    """Holds the engine's state, so that a pyspiel clone uses the engine's fast `clone`, and
    the observation arrays worked out since the last action (pyspiel asks for an
    observation tensor twice per call)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.seen: dict[int, np.ndarray] = {}
        # each action's events since the seats' digests were last brought up to date: a
        # digest is asked for far less often than an action is applied (an agent's step
        # asks only for the tensor), so the events are written down when it is
        self.heard: list[list[Event]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> World:
        copy = World(self.state.clone())
        copy.heard = list(self.heard)  # events are never changed once made
        return copy

    def observation(self, coding: Encoding, player: int) -> np.ndarray:
        found = self.seen.get(player)
        if found is None:
            found = self.seen[player] = coding.observe(self.state, player)
        return found


class MeadowState(pyspiel.State):
    """A game in progress: before the deal (chance), then the engine's state."""

    def __init__(self, game: MeadowGame) -> None:
        super().__init__(game)
        self._shared = Shared(game.encoding)
        self.reward_mode = game.reward_mode
        self.max_decisions = game.max_decisions
        self.players = game.num_players()
        self.deal: list[int] = []  # the chance outcomes drawn so far
        self._world: World | None = None
        self.decisions = 0
        self.truncated = False
        self._told: list[str] = [""] * self.players  # per seat: digest of what it was told
        self._player = CHANCE  # see _moves_next

    @property
    def told(self) -> list[str]:
        """Per seat, the digest of everything it was told since the deal."""
        world = self._world
        if world is not None and world.heard:
            for events in world.heard:
                for seat in range(self.players):
                    told = json.dumps([e.for_seat(seat) for e in events], sort_keys=True)
                    self._told[seat] = _link(self._told[seat], told)
            world.heard.clear()
        return self._told

    @told.setter
    def told(self, digests: list[str]) -> None:
        self._told = digests

    @property
    def encoding(self) -> Encoding:
        return self._shared.encoding

    @property
    def world(self) -> State | None:
        """The engine's state; None before the deal."""
        return None if self._world is None else self._world.state

    # -- the pyspiel State API --------------------------------------------------------------

    def current_player(self) -> int:
        return self._player

    def _moves_next(self) -> None:
        """Work out who moves now, once a position is reached: pyspiel asks
        `current_player` and `is_terminal` several times for every call an agent makes
        (`legal_actions()` alone: the first twice, the second once), each a call from C++
        into Python."""
        world = self.world
        if world is None:
            self._player = CHANCE
        elif self.truncated or world.is_over:
            self._player = TERMINAL
        else:
            self._player = world.to_move  # type: ignore[assignment]

    def _legal_actions(self, player: int) -> list[int]:
        world = self.world
        if world is None or player != world.to_move:
            return []
        return self.encoding.legal_indices(world.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / DEAL_OUTCOMES
        return [(i, p) for i in range(DEAL_OUTCOMES)]

    def _apply_action(self, action: int) -> None:
        if self.world is None:
            self.deal.append(int(action))
            if len(self.deal) == DEAL_STAGES:
                self._start()
            return
        assert self._world is not None
        events = self._world.state.apply(self.encoding.action(action))
        self._world.seen.clear()
        self.decisions += 1
        self._world.heard.append(events)
        if not self.world.is_over and self.decisions >= self.max_decisions:
            self.truncated = True
        self._moves_next()

    def _start(self) -> None:
        seed = 0
        for outcome in self.deal:
            seed = seed * DEAL_OUTCOMES + outcome
        game = self.encoding.game
        world = game.setup(self.players, self.encoding.options, seed)
        self._world = World(world)
        self._moves_next()
        for seat in range(self.players):
            self.told[seat] = _link("", json.dumps(world.view(seat), sort_keys=True))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal part {action}"
        return str(self.encoding.action(action))

    def is_terminal(self) -> bool:
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        if self.world is None or not self.world.is_over:
            return [0.0] * self.players
        return final_rewards(self.world.result(), self.reward_mode)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeadowState:
        """A state `player_id` cannot tell from this one, hidden parts redrawn by the
        engine (`State.sample_hidden`)."""
        if self.world is None:
            raise MeadowError("nothing to resample before the deal")
        copy = self.clone()
        seed = int(probability_sampler() * (1 << 53))
        copy._world = World(self.world.sample_hidden(player_id, Rng(seed)))
        copy._moves_next()
        mine = self.told[player_id]
        # What the others were told is unknown to this seat: a mark derived from its own
        # knowledge keeps their keys the same in every world it imagines.
        copy.told = [
            mine if seat == player_id else _link(mine, f"seat {seat} unknown")
            for seat in range(self.players)
        ]
        return copy

    def __str__(self) -> str:
        if self.world is None:
            return f"before the deal ({len(self.deal)} of {DEAL_STAGES} parts drawn)"
        note = " (cut short)" if self.truncated else ""
        text = self.encoding.game.render_text(self.world.view(None))
        return f"decision {self.decisions}{note}\n{text}"


class MeadowObserver:
    """Observation and information state of one seat (the PyObserver interface)."""

    def __init__(
        self, coding: Encoding, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise MeadowError(f"Meadow observers take no parameters, got {params!r}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise MeadowError(
                "Meadow observes a seat's own view only (public and its private information)"
            )
        self.encoding = coding
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(coding.observation_size, dtype=np.float32)
        # One entry: pyspiel copies each entry of `dict` into its tensor apart, a crossing
        # into C++ and back per entry, which for the encoding's 14 to 19 named blocks cost
        # more than writing the observation. The blocks by name: `encoding.unflatten`.
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeadowState, player: int) -> None:
        if state._world is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = state._world.observation(self.encoding, player)

    def string_from(self, state: MeadowState, player: int) -> str:
        if state.world is None:
            return "before the deal"
        view = json.dumps(state.world.view(player), sort_keys=True)
        return f"{state.told[player]} {view}" if self.perfect_recall else view


_TYPES: dict[str, pyspiel.GameType] = {}


def register() -> None:
    """Register the four games with pyspiel (done on import; safe to repeat)."""
    registered = set(pyspiel.registered_names())
    for game_id in games.ids():
        if short_name(game_id) in registered:
            continue
        _TYPES[game_id] = _game_type(game_id)
        cls = type(f"Meadow_{game_id}", (MeadowGame,), {"game_id": game_id})
        pyspiel.register_game(_TYPES[game_id], cls)


def load(
    game: str,
    players: int = 2,
    options: Mapping[str, Any] | GameOptions | None = None,
    reward: str | None = None,
    max_decisions: int | None = None,
) -> pyspiel.Game:
    """`pyspiel.load_game` for a Meadow game, with options as a mapping."""
    found = games.get(game)
    return pyspiel.load_game(
        short_name(found.id),
        {
            "players": players,
            "options": options_text(options),
            "reward": reward or "",
            "max_decisions": max_decisions or 0,
        },
    )


register()
