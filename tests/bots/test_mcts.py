"""The MCTS bot's chance nodes: decisions after a reveal are planned per revealed outcome."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Self

import pytest

from meadow import games
from meadow.bots import MctsBot, observe
from meadow.bots.mcts import Node
from meadow.core.actions import JSON, Action, Event
from meadow.core.game import Game, State, best_by_evaluation
from meadow.core.options import GameOptions
from meadow.core.result import Result, rank
from meadow.core.rng import Rng

# A one-player gamble. `safe` scores 2 now. `draw` turns up a face-down card, good or bad,
# after which the player either `keep`s it (+10 good, -10 bad) or `fold`s (0). Knowing the
# card before keeping, `draw` is worth 5 on average and beats `safe`; a search that pools the
# worlds below the draw sees `keep` as 0 on average and takes `safe` (strategy fusion).
SAFE, DRAW, KEEP, FOLD = "safe", "draw", "keep", "fold"


@dataclass(frozen=True, slots=True)
class Word(Action):
    word: str

    def __str__(self) -> str:
        return self.word


class Gamble(Game):
    id = "gamble"
    title = "Gamble"
    min_players = 1
    max_players = 1
    Options = GameOptions

    def __init__(self, hook: bool = True) -> None:
        self.hook = hook

    def _setup(self, players: int, options: GameOptions, seed: int) -> State:
        return GambleState(self, Rng(seed), good=Rng(seed).below(2) == 1)

    def render_text(self, view: Mapping[str, Any]) -> str:
        return str(view)

    def evaluate(self, state: State) -> list[float]:
        assert isinstance(state, GambleState)
        return [float(state.score)]

    def revealed(self, state: State, events: list[Event], seat: int) -> Hashable | None:
        if not self.hook:
            return None
        shown = [e.public["good"] for e in events if e.kind == "card"]
        return shown[0] if shown else None


class GambleState(State):
    def __init__(self, game: Gamble, rng: Rng, good: bool) -> None:
        self.game_ = game
        self.players = 1
        self.options = GameOptions()
        self.rng = rng
        self.ply = 0
        self.seat: int | None = 0
        self.good = good
        self.drawn = False
        self.score = 0
        self._legal: list[Action] | None = None

    @property
    def game(self) -> Game:  # type: ignore[override]
        return self.game_

    def view(self, seat: int | None) -> dict[str, JSON]:
        return {"drawn": self.drawn, "good": self.good if self.drawn else None}

    def sample_hidden(self, seat: int | None, rng: Rng) -> Self:
        world = self.clone()
        if not self.drawn:
            world.good = rng.below(2) == 1
        return world

    def clone(self) -> Self:
        copy = type(self)(self.game_, self.rng.clone(), self.good)
        copy.ply, copy.seat, copy.drawn, copy.score = self.ply, self.seat, self.drawn, self.score
        return copy

    def to_json(self) -> dict[str, JSON]:
        return {"drawn": self.drawn, "good": self.good, "score": self.score, "seat": self.seat}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> State:
        raise NotImplementedError

    @staticmethod
    def _parse(text: str) -> Action:
        return Word(text)

    def _generate_legal(self) -> list[Action]:
        return [Word(KEEP), Word(FOLD)] if self.drawn else [Word(SAFE), Word(DRAW)]

    def _apply(self, action: Action) -> list[Event]:
        assert isinstance(action, Word)
        if action.word == DRAW:
            self.drawn = True
            return [Event("card", 0, {"good": self.good}, reveals=True)]
        if action.word == SAFE:
            self.score = 2
        elif action.word == KEEP:
            self.score = 10 if self.good else -10
        self.seat = None
        return []

    def _why_illegal(self, action: Action) -> str:
        return "not now"

    def _result(self) -> Result:
        return Result((self.score,), ({"score": self.score},), rank([[self.score]]))


def _choice(hook: bool, seed: int) -> Action:
    state = Gamble(hook).setup(1, seed=seed)
    return MctsBot(iterations=1500, scale=10.0).choose(observe(state, 0), Rng(seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_chance_nodes_plan_the_decision_after_a_reveal_per_card(seed):
    assert _choice(hook=True, seed=seed) == Word(DRAW)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_without_the_hook_the_pooled_worlds_shy_away_from_the_draw(seed):
    """The same search with the game's hook off: the failure the chance nodes cure."""
    assert _choice(hook=False, seed=seed) == Word(SAFE)


def test_the_tree_below_a_reveal_holds_one_subtree_per_outcome_and_none_mixed():
    state = Gamble().setup(1, seed=4)
    observation = observe(state, 0)
    bot, root, rng = MctsBot(iterations=1, scale=10.0), Node(), Rng(4)
    for _ in range(400):
        bot._iterate(observation, root, rng)
    draw = root.children[Word(DRAW)]
    assert draw.outcomes is not None and set(draw.outcomes) == {True, False}
    assert not draw.children  # the decisions live below the outcomes only
    good, bad = draw.outcomes[True], draw.outcomes[False]
    keep_good, keep_bad = good.children[Word(KEEP)], bad.children[Word(KEEP)]
    assert keep_good.value / keep_good.visits > 0.8 > 0.2 > keep_bad.value / keep_bad.visits
    below = sum(n.visits for o in (good, bad) for n in o.children.values())
    # The visit that added `draw`, and each outcome's first, end there as new leaves.
    assert below == draw.visits - 3


@pytest.mark.parametrize(
    ("game_id", "from_root"), [("topiary", False), ("harmonies", True), ("renature", False)]
)
def test_other_games_name_no_reveals(game_id, from_root):
    """Their trees are built as before; Harmonies' prospects ask for the lead from the root
    (MctsBot(iterations=200) against greedy, 10 deals: 10 wins with it, 5 without)."""
    game = games.get(game_id)
    assert game.lead_from_root is from_root
    state, rng = game.setup(2, seed=5), Rng(5)
    for _ in range(40):
        if state.is_over:
            break
        legal = state.legal_actions()
        events = state.apply(legal[rng.below(len(legal))])
        assert game.revealed(state, events, 0) is None


def test_the_reward_measures_the_lead_from_the_root_so_a_big_lead_still_separates_moves():
    from meadow.bots.mcts import leads, reward

    root = leads([60.0, 20.0])
    assert root == [40.0, -40.0]
    assert reward([60.0, 20.0], 0, 10.0, root[0]) == 0.5
    better = reward([62.0, 20.0], 0, 10.0, root[0]) - reward([60.0, 20.0], 0, 10.0, root[0])
    flat = reward([62.0, 20.0], 0, 10.0) - reward([60.0, 20.0], 0, 10.0)
    assert better > 0.05 > 0.001 > flat


def _topiary_positions(count: int) -> list[State]:
    game = games.get("topiary")
    state = game.setup(2, game.Options().model_dump(), 11)
    rng, positions = Rng(4), []
    while not state.is_over and len(positions) < count:
        legal = state.legal_actions()
        if len(legal) > 1:
            positions.append(state.clone())
        state.apply(legal[rng.below(len(legal))])
    return positions


def test_a_search_that_stops_once_its_move_is_decided_plays_the_same_move(monkeypatch):
    """Stopping early is only a saving: the most visited move could no longer change."""
    iterations = {"early": 0, "full": 0}
    original = MctsBot._iterate

    def counted(kind: str):
        def iterate(self, *args, **kwargs):
            iterations[kind] += 1
            return original(self, *args, **kwargs)

        return iterate

    for position in _topiary_positions(8):
        observation = observe(position, position.to_move)
        monkeypatch.setattr(MctsBot, "_iterate", counted("early"))
        early = MctsBot(iterations=400).choose(observation, Rng(9))
        monkeypatch.setattr(MctsBot, "_iterate", counted("full"))
        monkeypatch.setattr("meadow.bots.mcts.CHECK_EVERY", 10**9)
        full = MctsBot(iterations=400).choose(observation, Rng(9))
        monkeypatch.undo()
        assert early == full
    assert iterations["full"] == 8 * 400
    assert iterations["early"] < iterations["full"]


class SettledGamble(Gamble):
    """The gamble with no chance nodes, its keep-or-fold settled by the evaluation."""

    def __init__(self) -> None:
        super().__init__(hook=False)

    def settled_choice(self, state: State) -> Action | None:
        assert isinstance(state, GambleState)
        return best_by_evaluation(self, state) if state.drawn else None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_decision_settled_by_the_evaluation_is_played_per_world_and_the_draw_is_taken(seed):
    """Settled by the evaluation one step on, keep-or-fold follows each world's card: the
    draw is worth 5 on average and beats `safe`, which the pooled tree (above) could not see."""
    state = SettledGamble().setup(1, seed=seed)
    assert MctsBot(iterations=300, scale=10.0).choose(observe(state, 0), Rng(seed)) == Word(DRAW)


def test_best_by_evaluation_takes_the_best_lead_one_step_on():
    game = SettledGamble()
    for good, expected in ((True, KEEP), (False, FOLD)):
        state = GambleState(game, Rng(1), good=good)
        state.apply(Word(DRAW))
        assert best_by_evaluation(game, state) == Word(expected)


def _actions_below_root(root: Node) -> set[type]:
    kinds: set[type] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for action, child in node.children.items():
            if node is not root:
                kinds.add(type(action))
            stack.append(child)
    return kinds


def test_topiarys_placements_are_settled_below_the_root_and_searched_at_it():

    from meadow.games.topiary.actions import PlaceTile, PlaceVisitor, TakeTile

    state = games.get("topiary").setup(2, seed=7)
    observation = observe(state, 0)
    trees = {}
    for name, settle in (("settled", True), ("branching", False)):
        bot, root, rng = MctsBot(iterations=1, scale=10.0, settle=settle), Node(), Rng(7)
        for _ in range(600):
            bot._iterate(observation, root, rng)
        trees[name] = _actions_below_root(root)
    assert PlaceTile not in trees["settled"]
    assert {TakeTile, PlaceVisitor} <= trees["settled"]  # the turn after it is reached
    assert PlaceTile in trees["branching"]

    # At the root the placement is the decision asked for: searched like any other.
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    placing = observe(state, 0)
    root, bot = Node(), MctsBot(iterations=1, scale=10.0)
    for _ in range(50):
        bot._iterate(placing, root, Rng(3))
    assert root.children and all(isinstance(a, PlaceTile) for a in root.children)
