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
        text = thinking.think("harmonies", state.to_json(), seat, "turn:4:0.001s", 1.0).move
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


class EndlessBot:
    """A bot whose think never ends (a rule that loops in one sampled world, say)."""

    name = "endless"
    time_limit: float | None = None

    def choose(self, observation: object, rng: object) -> Action:
        while True:
            pass


def test_a_think_that_never_ends_is_stopped_and_a_legal_move_played(monkeypatch):
    """Issue 22: a bot's think is always bounded, whatever the bot does inside it."""
    monkeypatch.setattr(thinking, "_KEPT", type(thinking._KEPT)())
    monkeypatch.setattr(thinking, "make_player", lambda name: EndlessBot())
    monkeypatch.setattr(thinking, "GRACE", 0.1)
    state = games.get("topiary").setup(2, seed=3)
    thought = thinking.think("topiary", state.to_json(), state.to_move, "endless", 0.1)
    assert thought.overran
    assert thought.move in {str(action) for action in state.legal_actions()}
    assert not thinking._KEPT  # the bot stopped mid-think is not kept for the next move


def test_a_think_within_its_bound_is_not_marked(monkeypatch):
    monkeypatch.setattr(thinking, "_KEPT", type(thinking._KEPT)())
    state = games.get("topiary").setup(2, seed=3)
    thought = thinking.think("topiary", state.to_json(), state.to_move, "mcts:0.05s", 1.0)
    assert not thought.overran
    state.apply(state.parse_action(thought.move))  # a legal move of the position


def test_a_bot_worker_process_stops_a_think_that_never_ends(monkeypatch, tmp_path):
    """The bound holds where a server's bots think: in a worker process of `thinkers`."""
    policy = tmp_path / "endless.py"
    policy.write_text("def act(observation, mask):\n    while True:\n        pass\n")
    monkeypatch.setenv("MEADOW_POLICIES", f"endless={policy}:act")  # a host's own policy
    state = games.get("topiary").setup(2, seed=3)
    with thinking.thinkers(1) as workers:
        asked = workers.submit(
            thinking.think, "topiary", state.to_json(), state.to_move, "policy:endless", 0.2
        )
        thought = asked.result(timeout=120)
    assert thought.overran
    assert thought.move in {str(action) for action in state.legal_actions()}
