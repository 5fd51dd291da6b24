"""How an episode of the research APIs ends, and what it pays: win/loss, score or lead.

Rewards come only at the end of a game:

- `win`: +1 for a sole winner, 0 for seats sharing first place after the tie-breaks, -1 for
  every other seat (the default with two or more players; a solo game has no winner);
- `score`: the seat's final score;
- `margin`: the seat's score minus the best other seat's (the score in a solo game).
"""

from __future__ import annotations

from meadow.core.errors import MeadowError
from meadow.core.result import Result

REWARDS = ("win", "score", "margin")

# Decisions after which an episode is cut short (truncated, rewards 0). Topiary, Harmonies and
# Renature always end well before (random games take at most 60, 200 and 125 decisions);
# Mystic Vale need not end at all if nobody earns points, so it needs the cap.
MAX_DECISIONS = {"topiary": 500, "harmonies": 1000, "renature": 1000, "mystic_vale": 5000}

# Bounds on any final score (loose: the highest real scores are well inside them); OpenSpiel
# asks for utility bounds up front.
SCORE_BOUNDS = {
    "topiary": (0.0, 200.0),
    "harmonies": (0.0, 300.0),
    "renature": (-100.0, 300.0),
    "mystic_vale": (0.0, 300.0),
}


def check_reward(reward: str | None, players: int) -> str:
    """The reward mode, `win` by default (`score` for a solo game).

    Raises:
        MeadowError: an unknown mode, or `win` for a solo game.
    """
    if reward is None:
        return "win" if players > 1 else "score"
    if reward not in REWARDS:
        raise MeadowError(f"no reward {reward!r}; rewards are: {', '.join(REWARDS)}")
    if reward == "win" and players == 1:
        raise MeadowError("a solo game has no winner: use reward 'score' or 'margin'")
    return reward


def final_rewards(result: Result, mode: str) -> list[float]:
    """Each seat's reward for a finished game."""
    scores = [float(s) for s in result.scores]
    if mode == "score":
        return scores
    if mode == "margin":
        if len(scores) == 1:
            return scores
        return [s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]
    first = result.winners
    won = 1.0 if len(first) == 1 else 0.0
    return [won if seat in first else -1.0 for seat in range(len(scores))]


def reward_bounds(game_id: str, mode: str) -> tuple[float, float]:
    """The lowest and highest reward a seat can get in this mode."""
    if mode == "win":
        return -1.0, 1.0
    low, high = SCORE_BOUNDS[game_id]
    if mode == "score":
        return low, high
    return low - high, high - low


def check_max_decisions(value: int | None, game_id: str) -> int:
    """The decision cap of an episode: the game's default, or a positive integer.

    Raises:
        MeadowError: not a positive integer.
    """
    if value is None:
        return MAX_DECISIONS[game_id]
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise MeadowError(f"max_decisions {value!r} must be a positive integer")
    return value
