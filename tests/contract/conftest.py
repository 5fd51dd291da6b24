"""Shared fixtures for the contract suite: every registered game, its player counts and an
option set per non-default option value, so each game gets the whole suite for free."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from meadow import games
from meadow.core.actions import Action
from meadow.core.errors import OptionError
from meadow.core.game import Game, State
from meadow.core.options import describe_options
from meadow.core.rng import Rng


@dataclass(frozen=True)
class Config:
    game: Game
    players: int
    options: dict[str, Any]

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items()) or "default"
        return f"{self.game.id}-{self.players}p-{opts}"

    def setup(self, seed: int) -> State:
        return self.game.setup(self.players, self.options, seed)


def _variants(game: Game) -> list[dict[str, Any]]:
    """The defaults, then each option changed on its own to each other value."""
    variants: list[dict[str, Any]] = [{}]
    for option in describe_options(game.Options):
        if option["type"] == "boolean":
            values = [not option["default"]]
        elif option["choices"]:
            values = [v for v in option["choices"] if v != option["default"]][:2]
        else:
            values = []
        variants.extend({option["name"]: value} for value in values)
    return variants


def configs() -> list[Config]:
    found = []
    for game in games.all():
        for players in game.player_counts:
            for options in _variants(game):
                try:
                    game.options(players, options)
                except OptionError:
                    continue
                found.append(Config(game, players, options))
    return found


CONFIGS = configs()
BASE_CONFIGS = [c for c in CONFIGS if not c.options]


@pytest.fixture(params=CONFIGS, ids=str)
def config(request: pytest.FixtureRequest) -> Config:
    return request.param


def random_game(
    config: Config, seed: int, every: bool = False
) -> Iterator[tuple[State, Action | None]]:
    """Yield (state, action about to be played) for decisions of a random game, and finally
    (final state, None). The yielded state is live: copy it to keep it.

    Unless `every`, long games are sampled: the first 40 decisions, then every 8th, so that
    the costly per-decision checks stay affordable for games of 500+ decisions."""
    state = config.setup(seed)
    rng = Rng(seed).spawn()
    step = 0
    while not state.is_over:
        actions = state.legal_actions()
        action = actions[rng.below(len(actions))]
        if every or step < 40 or step % 8 == 0:
            yield state, action
        state.apply(action)
        step += 1
    yield state, None
