"""Gymnasium: one seat played by the agent, Meadow bots at the others.

    import gymnasium, meadow.rl.gym
    env = gymnasium.make("meadow/Harmonies-v0", players=2, opponents="greedy")

Observations are the PettingZoo ones (a dict of `observation` and `action_mask`, see
`meadow.rl.pettingzoo`); `action_masks()` gives the mask too, for maskable learners. The bots
choose from their own seats' observations, as at a real table. The reward comes at the end
(`meadow.rl.episodes`). An illegal index ends the episode with `illegal_reward` and the
game's reason in `info["illegal"]` (`illegal="raise"` raises `IllegalAction` instead).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from meadow.bots import Bot, observe
from meadow.core.errors import IllegalAction, MeadowError
from meadow.core.game import State
from meadow.core.options import GameOptions
from meadow.core.rng import Rng
from meadow.rl.encoding import encoding
from meadow.rl.episodes import check_max_decisions, check_reward, final_rewards
from meadow.rl.pettingzoo import MAX_SEED, spaces_of
from meadow.rl.players import make_player

ILLEGAL = ("end", "raise")


class MeadowGymEnv(gymnasium.Env):
    """One seat of a Meadow game for a single agent; bots play the other seats."""

    # render_fps: text is drawn once per step; Gymnasium's checker asks for a rate all the same
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int = 2,
        options: Mapping[str, Any] | GameOptions | None = None,
        seat: int | None = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        reward: str | None = None,
        max_decisions: int | None = None,
        illegal: str = "end",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        """`seat`: the agent's seat, or None for a random seat at every reset. `opponents`:
        one bot (spec or object) for every other seat, or one per other seat in turn order.

        Raises:
            MeadowError: an unknown game, player count, option, seat, bot, reward, illegal
                mode or render mode.
        """
        self.encoding = encoding(game, players, options)
        self.game = self.encoding.game
        self.players = players
        if seat is not None and (isinstance(seat, bool) or seat not in range(players)):
            raise MeadowError(f"seat {seat!r}: a {players}-player game has seats 0-{players - 1}")
        self.seat_choice = seat
        listed = [opponents] if isinstance(opponents, str | Bot) else list(opponents)
        if not listed or (len(listed) != 1 and len(listed) != players - 1):
            raise MeadowError(
                f"opponents: one bot, or one for each of the {players - 1} other seats"
            )
        # the caller is the researcher's own code, so policy specs may name modules and files
        self.opponents = [
            make_player(b, trust_imports=True) if isinstance(b, str) else b for b in listed
        ]
        self.reward_mode = check_reward(reward, players)
        self.max_decisions = check_max_decisions(max_decisions, self.game.id)
        if illegal not in ILLEGAL:
            raise MeadowError(f"illegal={illegal!r}: it is 'end' or 'raise'")
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise MeadowError(f"render mode {render_mode!r}: the modes are ansi, human or None")
        self.render_mode = render_mode
        self.observation_space, self.action_space = spaces_of(self.encoding)
        self.seat = 0 if seat is None else seat
        self._game: State | None = None
        self._bots: dict[int, Bot] = {}
        self._bot_rng = Rng(0)
        self._over = True
        self.decisions = 0

    # -- the Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, played by the bots up to the agent's first decision. The rule options
        are fixed when the environment is made, so `options` is not used."""
        super().reset(seed=seed)
        draw = self.np_random.integers
        self.seat = int(draw(self.players)) if self.seat_choice is None else self.seat_choice
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: self.opponents[i % len(self.opponents)] for i, s in enumerate(others)}
        self._game = self.game.setup(self.players, self.encoding.options, int(draw(MAX_SEED)))
        self._bot_rng = Rng(int(draw(MAX_SEED)))
        self.decisions = 0
        self._over = False
        self._play_bots()
        return self._observation(), {"seat": self.seat}

    def step(
        self, action: int
    ) -> tuple[dict[str, np.ndarray], SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the action with this index, then the bots up to the agent's next decision.

        Raises:
            MeadowError: not an index of the action space, or the episode is over.
            IllegalAction: (with `illegal="raise"`) an index not legal now, with the reason.
        """
        if self._over:
            raise MeadowError("the episode is over: call reset() first")
        state = self._state()
        chosen = self.encoding.action(action)
        try:
            state.apply(chosen)
        except IllegalAction as exc:
            if self.illegal == "raise":
                raise IllegalAction(f"index {action} ({chosen})", exc.reason) from None
            self._over = True
            info = {"seat": self.seat, "illegal": f"index {action} ({chosen}): {exc.reason}"}
            return self._observation(), self.illegal_reward, True, False, info
        self.decisions += 1
        self._play_bots()
        info: dict[str, Any] = {"seat": self.seat}
        reward, terminated, truncated = 0.0, False, False
        if state.is_over:
            result = state.result()
            reward = final_rewards(result, self.reward_mode)[self.seat]
            terminated = True
            info["scores"] = list(result.scores)
        elif self.decisions >= self.max_decisions:
            truncated = True
        self._over = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """1 for each legal index now (the form maskable learners ask for)."""
        state = self._state()
        legal = state.legal_actions() if state.to_move == self.seat else []
        return self.encoding.mask(legal)

    def render(self) -> str | None:
        """The game as the agent's seat sees it."""
        if self.render_mode is None:
            return None
        text = self.game.render_text(self._state().view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._game = None
        self._over = True

    # -- inside -----------------------------------------------------------------------------

    def _state(self) -> State:
        if self._game is None:
            raise MeadowError("call reset() before using the environment")
        return self._game

    def _observation(self) -> dict[str, np.ndarray]:
        return {
            "observation": self.encoding.observe(self._state(), self.seat),
            "action_mask": self.action_masks(),
        }

    def _play_bots(self) -> None:
        """Let the bots move until it is the agent's turn, the game ends or the cap is hit."""
        state = self._state()
        while not state.is_over and state.to_move != self.seat:
            if self.decisions >= self.max_decisions:
                return
            seat = state.to_move
            assert seat is not None
            state.apply(self._bots[seat].choose(observe(state, seat), self._bot_rng))
            self.decisions += 1


ENV_IDS = {
    "topiary": "meadow/Topiary-v0",
    "harmonies": "meadow/Harmonies-v0",
    "renature": "meadow/Renature-v0",
    "mystic_vale": "meadow/MysticVale-v0",
}

for _game_id, _env_id in ENV_IDS.items():
    if _env_id not in gymnasium.registry:
        gymnasium.register(
            id=_env_id, entry_point="meadow.rl.gym:MeadowGymEnv", kwargs={"game": _game_id}
        )
