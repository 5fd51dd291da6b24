"""Shared by the research API tests."""

from __future__ import annotations

from meadow.core.game import State

# Options under which each game hides more than its future draws (Harmonies: spirit cards).
HIDING = {"harmonies": {"spirits": True}}


def hidden(state: State) -> dict:
    """The state's data but its generator (every sampled world gets a fresh one)."""
    return {k: v for k, v in state.to_json().items() if k != "rng"}
