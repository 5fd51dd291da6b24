"""PettingZoo: an AEC environment per game, from the engine the site runs.

    env = meadow.rl.env("harmonies", players=2, options={"side": "B"})

Agents are `seat_0` .. `seat_{n-1}`; seat 0 moves first. Each agent observes a dict: an
`observation` array built from its seat's view only (`meadow.rl.encoding`) and an
`action_mask` over the fixed `Discrete` action space (1 for each legal index; all 0 when it
is not the agent's turn). A seat may move several times in a row (Harmonies places tokens
one by one), so `agent_selection` follows the game rather than a fixed rotation. Rewards
come at the end (`meadow.rl.episodes`). An illegal index raises `IllegalAction` with the
game's reason and leaves the game as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meadow.core.errors import IllegalAction, MeadowError
from meadow.core.game import State
from meadow.core.options import GameOptions
from meadow.rl.encoding import Encoding, encoding
from meadow.rl.episodes import check_max_decisions, check_reward, final_rewards

MAX_SEED = 2**63 - 1


def spaces_of(coding: Encoding) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation and action spaces of an encoding."""
    observation = spaces.Dict(
        {
            "observation": spaces.Box(
                low=coding.low, high=coding.high, shape=(coding.observation_size,), dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(coding.size,), dtype=np.int8),
        }
    )
    return observation, spaces.Discrete(coding.size)


class MeadowEnv(AECEnv):
    """One Meadow game as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "render_modes": ["ansi", "human"],
        "name": "meadow_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, Any] | GameOptions | None = None,
        reward: str | None = None,
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        """
        Raises:
            MeadowError: an unknown game, player count, option, reward or render mode.
        """
        super().__init__()
        self.encoding = encoding(game, players, options)
        self.game = self.encoding.game
        self.players = players
        self.reward_mode = check_reward(reward, players)
        self.max_decisions = check_max_decisions(max_decisions, self.game.id)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise MeadowError(f"render mode {render_mode!r}: the modes are ansi, human or None")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"meadow_{self.game.id}_v0"}
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation, action = spaces_of(self.encoding)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        self._seeds: np.random.Generator | None = None
        self._game: State | None = None
        self.decisions = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` fixes it and the games of later unseeded resets; the game's
        rule options are fixed when the environment is made, so `options` is not used."""
        if seed is not None or self._seeds is None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, MAX_SEED))
        self._game = self.game.setup(self.players, self.encoding.options, game_seed)
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self._state().to_move or 0]

    def _state(self) -> State:
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state, seat = self._state(), self.seat_of[agent]
        legal = state.legal_actions() if state.to_move == seat else []
        return {
            "observation": self.encoding.observe(state, seat),
            "action_mask": self.encoding.mask(legal),
        }

    def step(self, action: int | None) -> None:
        """Play the action with this index for the agent to move.

        Raises:
            MeadowError: not an index of the action space.
            IllegalAction: an index whose action is not legal now, with the reason.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        chosen = self.encoding.action(action)  # type: ignore[arg-type]
        try:
            state.apply(chosen)
        except IllegalAction as exc:
            raise IllegalAction(f"index {action} ({chosen})", exc.reason) from None
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_over:
            result = state.result()
            values = final_rewards(result, self.reward_mode)
            for other in self.agents:
                self.rewards[other] = values[self.seat_of[other]]
                self.terminations[other] = True
                self.infos[other] = {"scores": list(result.scores)}
        elif self.decisions >= self.max_decisions:
            for other in self.agents:
                self.truncations[other] = True
        else:
            self.agent_selection = self.possible_agents[state.to_move]  # type: ignore[index]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The game as the seat to move sees it (a spectator's view once it is over)."""
        if self.render_mode is None:
            return None
        state = self._state()
        text = self.game.render_text(state.view(state.to_move))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None
