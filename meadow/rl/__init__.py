"""The research API: Meadow's games for PettingZoo, Gymnasium and OpenSpiel (`meadow-tabletop[rl]`).

    import meadow.rl
    env = meadow.rl.env("harmonies", players=2)        # PettingZoo AEC environment

`meadow.rl.encoding` holds the fixed action spaces and observation arrays every API shares;
`meadow.rl.gym` the single-agent Gymnasium wrapper; `meadow.rl.openspiel` the pyspiel games;
`meadow.rl.policy_bot` seats a trained policy in `meadow tournament` and on the server.
Each imports its framework only when used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from meadow.core.options import GameOptions

if TYPE_CHECKING:
    from meadow.rl.pettingzoo import MeadowEnv


def env(
    game: str,
    players: int = 2,
    options: Mapping[str, Any] | GameOptions | None = None,
    reward: str | None = None,
    max_decisions: int | None = None,
    render_mode: str | None = None,
) -> MeadowEnv:
    """A PettingZoo AEC environment for `game` (see `meadow.rl.pettingzoo.MeadowEnv`)."""
    from meadow.rl.pettingzoo import MeadowEnv

    return MeadowEnv(game, players, options, reward, max_decisions, render_mode)


__all__ = ["env"]
