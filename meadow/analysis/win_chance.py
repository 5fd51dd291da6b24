"""From a lead in points to a chance of winning, per game and player count.

A seat's chance to win, with lead `L` (its evaluation less the best other seat's, in points)
at progress `t` (the share of the game's moves already played, 0 to 1), is

    chance = 1 / (1 + exp(-(bias + L * (early * (1 - t) + late * t))))

a logistic fitted on self-play records (`python -m bench.win_chance`, which writes
`win_chance.json` beside this module with the data and the fit's figures). A lead of a few
points decides little early and much at the end: a point weighs `early` at the start and
`late` at the end. The fit keeps both above zero, so the chance never falls as the lead grows.

A solo game has no one to beat: there the coach judges in points only (`for_game` gives None).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import orjson


@dataclass(frozen=True)
class WinChance:
    """The fitted mapping of one game at one player count."""

    game: str
    players: int
    bias: float
    early: float  # what a point of lead weighs at the start, in log-odds
    late: float  # and at the end

    def __post_init__(self) -> None:
        if self.early <= 0 or self.late <= 0:
            raise ValueError(
                f"{self.game}, {self.players} players: a win chance must grow with the lead "
                f"(a point weighs {self.early} early, {self.late} late)"
            )

    def steepness(self, progress: float) -> float:
        """How much a point of lead weighs at this progress (per point, in log-odds)."""
        t = _clamp(progress)
        return self.early * (1 - t) + self.late * t

    def chance(self, lead: float, progress: float) -> float:
        """The chance, 0 to 1, that a seat with this lead at this progress wins."""
        z = self.bias + lead * self.steepness(progress)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)  # the same value, without overflow for a large negative z
        return e / (1.0 + e)


def for_game(game: str, players: int) -> WinChance | None:
    """The mapping fitted for this game and player count; None for a solo game.

    Raises:
        KeyError: no mapping was fitted for this game and player count.
    """
    if players < 2:
        return None
    fitted = _fitted()["fits"]
    key = f"{game}/{players}"
    if key not in fitted:
        raise KeyError(f"no win-chance mapping for {game} with {players} players")
    fit = fitted[key]
    return WinChance(game, players, fit["bias"], fit["early"], fit["late"])


def fitted_data() -> dict[str, Any]:
    """The whole data file: how the mappings were fitted, and each fit with its figures."""
    return _fitted()


@cache
def _fitted() -> dict[str, Any]:
    text = resources.files("meadow.analysis").joinpath("win_chance.json").read_bytes()
    return orjson.loads(text)


def _clamp(progress: float) -> float:
    return min(1.0, max(0.0, progress))
