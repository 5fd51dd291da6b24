"""A bot worker keeps its bots between decisions, so a turn planner plays the turn it planned."""

from __future__ import annotations

from meadow import games
from meadow.bots.turns import TurnBot
from meadow.core.actions import Action
from meadow.server import thinking


def test_a_worker_plays_the_rest_of_a_planned_turn_without_planning_again(monkeypatch):
    state = games.get("harmonies").setup(2, {"spirits": False}, 4)
    seat = state.to_move
    searches: list[int] = []
    search = TurnBot._search

    def counted(self, observation, world, rng):  # type: ignore[no-untyped-def]
        searches.append(observation.seat)
        return search(self, observation, world, rng)

    monkeypatch.setattr(TurnBot, "_search", counted)
    monkeypatch.setattr(thinking, "_KEPT", type(thinking._KEPT)())
    played: list[Action] = []
    while state.to_move == seat:
        text = thinking.think("harmonies", state.to_json(), seat, "turn:4:0.001s", 1.0)
        action = state.parse_action(text)
        played.append(action)
        state.apply(action)
    assert len(played) >= 4  # take, three tokens, ..., end
    assert searches == [seat]


def test_a_worker_keeps_a_bounded_number_of_bots(monkeypatch):
    monkeypatch.setattr(thinking, "_KEPT", type(thinking._KEPT)())
    for seat in range(thinking.KEPT_BOTS + 10):
        thinking._kept("harmonies", "greedy", seat)
    assert len(thinking._KEPT) == thinking.KEPT_BOTS
    assert ("harmonies", "greedy", 0) not in thinking._KEPT  # the oldest went first
