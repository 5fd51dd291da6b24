"""Mystic Vale (John D. Clair, AEG 2016) with the Vale of Magic expansion."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadow.core.game import Game, State
from meadow.core.options import GameOptions
from meadow.games.mystic_vale import components, text
from meadow.games.mystic_vale.options import MysticValeOptions
from meadow.games.mystic_vale.rules import MysticValeState, setup


class MysticVale(Game):
    id = "mystic_vale"
    title = "Mystic Vale"
    min_players = 2
    max_players = 4
    Options = MysticValeOptions
    state_class = MysticValeState
    rollout_depth = 0  # VP plus the field's end-of-game points already see what matters

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        assert isinstance(options, MysticValeOptions)
        return setup(players, options, seed)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return text.render(view)

    def event_text(self, event: Mapping[str, Any]) -> str:
        return text.event_text(event)

    def evaluate(self, state: State) -> list[float]:
        """End points so far; for the druid in its turn also what the field and the waiting
        purchases are worth (a spoil loses the field)."""
        assert isinstance(state, MysticValeState)
        values = [float(sum(state.final_points(d).values())) for d in state.seats]
        if state.seat is not None and not state.seats[state.seat].spoiled:
            druid = state.seats[state.seat]
            if state.phase in ("plant", "reveal", "ability", "spoiling"):
                values[state.seat] += sum(_field_worth(druid.cards[x]) for x in druid.field)
            for copy, _ in state.harvest.to_sleeve:
                values[state.seat] += _advancement_worth(copy.partition("@")[0])
        return values


def _advancement_worth(type_id: str) -> float:
    """A rough worth of an advancement on a card: its VP now and later, and its economy."""
    symbols = components.advancements()[type_id].symbols
    spirits = sum(symbols.get(s, 0) for s in components.SPIRITS)
    return (
        symbols.get("end_vp", 0)
        + 2 * symbols.get("vp", 0)
        + 0.6 * symbols.get("mana", 0)
        + 0.5 * spirits
        + 0.8 * symbols.get("growth", 0)
        - 0.8 * symbols.get("decay", 0)
    )


def _field_worth(slots: list[str | None]) -> float:
    """What a field card brings at this harvest: VP, and mana and spirits to spend."""
    symbols = components.advancements()
    total = 0.0
    for type_id in slots:
        if type_id:
            s = symbols[type_id].symbols
            total += s.get("vp", 0) + 0.4 * s.get("mana", 0)
            total += 0.3 * sum(s.get(x, 0) for x in components.SPIRITS)
    return total


GAME = MysticVale()
MysticValeState.game = GAME
