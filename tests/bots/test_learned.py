"""Learned evaluations: what a model sees, when it is refused, and how the bots fall back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from meadow import games
from meadow.bots import learned as learned_module
from meadow.bots import make_bot, observe
from meadow.bots.learned import (
    Card,
    LearnedEvaluation,
    Model,
    ModelError,
    evaluation_of,
    model_path,
    status,
)
from meadow.core.encoding import Encoding, encoding
from meadow.core.errors import MeadowError
from meadow.core.game import margins
from meadow.core.rng import Rng
from tests.rl.helpers import HIDING, hidden


def random_model(coding: Encoding, folder: Path, seed: int = 1, scale: float = 10.0) -> Path:
    """A model of random weights for `coding`, written where `model_path` looks in `folder`:
    what a model is made of, without the minutes of training."""
    rng = np.random.default_rng(seed)
    size, actions = coding.observation_size, coding.size
    weights = {
        "value.first": rng.normal(0, 0.1, (size, 8)).astype(np.float32),
        "value.first_bias": np.zeros(8, np.float32),
        "value.second": rng.normal(0, 0.5, (8, 1)).astype(np.float32),
        "value.second_bias": np.zeros(1, np.float32),
        "policy.first": rng.normal(0, 0.1, (size, 8)).astype(np.float32),
        "policy.first_bias": np.zeros(8, np.float32),
        "policy.second": rng.normal(0, 0.5, (8, actions)).astype(np.float32),
        "policy.second_bias": np.zeros(actions, np.float32),
    }
    card = Card(
        game=coding.game.id,
        players=coding.players,
        options=coding.options.model_dump(mode="json"),
        fingerprint=coding.fingerprint(),
        observation_size=size,
        actions=actions,
        scale=scale,
        made={"summary": "random weights, for tests"},
    )
    path = model_path(coding.game.id, coding.players, folder)
    Model(card, weights).save(path, weights)
    return path


def _midgame(game_id: str, seed: int, plies: int, options=None):
    state = games.get(game_id).setup(2, options, seed=seed)
    rng = Rng(seed)
    for _ in range(plies):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.fixture
def models(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv(learned_module.ENV, str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("game_id", games.ids())
def test_a_model_reads_the_same_in_worlds_its_seat_cannot_tell_apart(game_id, models):
    options = HIDING.get(game_id)
    coding = encoding(game_id, 2, options)
    random_model(coding, models)
    judge = evaluation_of(coding.game, 2, coding.options.model_dump(mode="json"))
    assert isinstance(judge, LearnedEvaluation)
    differed = 0
    for seed, plies in ((1, 12), (2, 40)):
        state = _midgame(game_id, seed, plies, options)
        for seat in range(2):
            seen = judge.model.lead_corrections(coding.observe(state, seat))
            assert seen != 0  # random weights: a correction that is there to differ
            for k in range(3):
                world = state.sample_hidden(seat, Rng(50 * seed + k))
                differed += hidden(world) != hidden(state)
                assert judge.model.lead_corrections(coding.observe(world, seat)) == seen
    assert differed  # the worlds hid something different, or the test shows nothing


def test_the_learned_evaluation_moves_each_lead_by_its_own_seats_correction(models):
    coding = encoding("harmonies", 2)
    random_model(coding, models, scale=10.0)
    judge = evaluation_of(coding.game, 2, {})
    assert isinstance(judge, LearnedEvaluation)
    state = _midgame("harmonies", 3, 30)
    hand = coding.game.evaluate(state)
    moved = judge.corrections(state)
    values = judge.evaluate(state)
    expected_lead = margins(hand, 0) + (moved[0] - moved[1]) / 2
    assert margins(values, 0) == pytest.approx(expected_lead, rel=1e-5)
    assert margins(values, 1) == pytest.approx(-expected_lead, rel=1e-5)
    assert judge.evaluate_seat(state, 1) == pytest.approx(values[1], rel=1e-5)


def test_a_won_game_is_rated_above_a_lost_one(models):
    """At the end the learned evaluation is the result: the winner ahead by its margin."""
    coding = encoding("topiary", 2)
    random_model(coding, models)
    judge = evaluation_of(coding.game, 2, {})
    state = _midgame("topiary", 4, 1_000)
    assert state.is_over
    scores = [float(s) for s in state.result().scores]
    winner = max(range(2), key=lambda seat: scores[seat])
    values = judge.evaluate(state)
    assert margins(values, winner) > 0 > margins(values, 1 - winner)
    assert values == scores


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("greedy:eval=learned", "greedy:eval=learned"),
        ("mcts:50:eval=learned", "mcts:50:eval=learned"),
        ("reply:4:10:eval=learned", "reply:4:10:eval=learned"),
        ("turn:2:0.1s:eval=learned", "turn:2:0.1s:eval=learned"),
        ("mcts:50:eval=hand", "mcts:50"),
    ],
)
def test_a_search_takes_the_learned_evaluation_by_name(spec, name):
    assert make_bot(spec).name == name


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        ("random:eval=learned", "only greedy, mcts, turn and reply"),
        ("mcts:50:eval=deep", "eval=learned"),
        ("mcts:50:eval=learned:eval=hand", "once"),
    ],
)
def test_a_bad_evaluation_setting_is_one_line(spec, why):
    with pytest.raises(MeadowError, match=why):
        make_bot(spec)


@pytest.mark.parametrize("game_id", games.ids())
def test_a_search_with_a_learned_evaluation_plays_a_legal_game(game_id, models):
    coding = encoding(game_id, 2)
    random_model(coding, models)
    state = games.get(game_id).setup(2, seed=9)
    bots = [make_bot("greedy:eval=learned"), make_bot("greedy")]
    rng = Rng(9)
    for _ in range(3_000):
        if state.is_over:
            break
        mover = state.to_move
        state.apply(bots[mover].choose(observe(state, mover), rng))
    assert state.is_over


def _changed_board(folder: Path) -> None:
    """A Renature base board with one cloud count changed: the host's own data."""
    source = Path(__file__).parents[2] / "meadow/games/renature/data/board_base.json"
    board = json.loads(source.read_text(encoding="utf-8"))
    (folder / "renature").mkdir(parents=True)
    board["clouds"]["b3"] = 2
    text = json.dumps(board, indent=2)
    (folder / "renature" / "board_base.json").write_text(text + "\n", encoding="utf-8")


def test_the_same_game_data_saved_again_keeps_its_model(models, tmp_path_factory, monkeypatch):
    """A host who copies the packaged files into the drop-in folder changes no fact."""
    random_model(encoding("renature", 2), models)
    drop_ins = tmp_path_factory.mktemp("game-data")
    source = Path(__file__).parents[2] / "meadow/games/renature/data/board_base.json"
    (drop_ins / "renature").mkdir()
    board = json.loads(source.read_text(encoding="utf-8"))
    (drop_ins / "renature" / "board_base.json").write_text(json.dumps(board), encoding="utf-8")
    monkeypatch.setenv("MEADOW_GAME_DATA", str(drop_ins))
    assert status("renature")["learned"] == "in use"


def test_a_name_given_its_language_keeps_the_model(models, tmp_path_factory, monkeypatch):
    """The language a card's name is written in is for the page: a host's file that says it
    changes no fact the game plays by; a changed cost in the same file does."""
    random_model(encoding("mystic_vale", 2), models)
    source = Path(__file__).parents[2] / "meadow/games/mystic_vale/data/vales.json"
    vales = json.loads(source.read_text(encoding="utf-8"))
    drop_ins = tmp_path_factory.mktemp("game-data")
    (drop_ins / "mystic_vale").mkdir()
    vales["vales"][0]["name_language"] = "en"
    (drop_ins / "mystic_vale" / "vales.json").write_text(json.dumps(vales), encoding="utf-8")
    monkeypatch.setenv("MEADOW_GAME_DATA", str(drop_ins))
    assert status("mystic_vale")["learned"] == "in use"
    vales["vales"][0]["end_vp"] += 1
    other = tmp_path_factory.mktemp("game-data")
    (other / "mystic_vale").mkdir()
    (other / "mystic_vale" / "vales.json").write_text(json.dumps(vales), encoding="utf-8")
    monkeypatch.setenv("MEADOW_GAME_DATA", str(other))
    assert status("mystic_vale")["learned"] == "stale"


def test_a_model_of_other_game_data_is_refused_and_the_bots_fall_back(
    models, tmp_path_factory, monkeypatch, caplog
):
    coding = encoding("renature", 2)
    random_model(coding, models)
    assert status("renature") == {"learned": "in use", "made": "random weights, for tests"}
    drop_ins = tmp_path_factory.mktemp("game-data")
    _changed_board(drop_ins)
    monkeypatch.setenv("MEADOW_GAME_DATA", str(drop_ins))
    found = status("renature")
    assert found["learned"] == "stale"
    assert "trained on other game data" in found["reason"]
    assert "meadow train renature" in found["reason"]
    assert "\n" not in found["reason"]
    with pytest.raises(ModelError, match="other game data"):
        Model.load(model_path("renature", 2)).check(encoding("renature", 2))
    assert evaluation_of(coding.game, 2, {}) is coding.game  # the hand-written one plays
    assert "the hand-written evaluation plays instead" in caplog.text


def test_topiary_keeps_its_model_whatever_lies_in_the_drop_in_folder(
    models, tmp_path_factory, monkeypatch
):
    """Topiary reads no drop-in files, so one lying there changes nothing it learned."""
    random_model(encoding("topiary", 2), models)
    drop_ins = tmp_path_factory.mktemp("game-data")
    shutil.copytree(Path(__file__).parents[2] / "meadow/games/topiary/data", drop_ins / "topiary")
    (drop_ins / "topiary" / "tiles.json").write_text("{}", encoding="utf-8")
    monkeypatch.setenv("MEADOW_GAME_DATA", str(drop_ins))
    assert status("topiary")["learned"] == "in use"


def test_a_broken_model_file_is_one_line(models):
    coding = encoding("topiary", 2)
    path = random_model(coding, models)
    path.write_text('{"format": 99}', encoding="utf-8")
    found = status("topiary")
    assert found["learned"] == "stale" and "model format 99" in found["reason"]


def test_a_model_for_other_options_leaves_those_to_the_hand_written_evaluation(models):
    coding = encoding("harmonies", 2, {"side": "B"})
    random_model(coding, models)
    assert status("harmonies", 2, {"side": "B"})["learned"] == "in use"
    assert status("harmonies", 2, {})["learned"] == "none"
    game = coding.game
    assert evaluation_of(game, 2, {}) is game


def test_the_lobby_says_when_a_learned_level_plays_without_its_model(
    models, tmp_path_factory, monkeypatch
):
    from meadow.bots import levels

    monkeypatch.setitem(
        levels.LADDER, "renature", {**levels.LADDER["renature"], "hard": "reply:8:1s:eval=learned"}
    )
    random_model(encoding("renature", 2), models)
    hard = next(entry for entry in levels.describe("renature") if entry["level"] == "hard")
    assert hard["evaluation"] == "in use"
    medium = next(entry for entry in levels.describe("renature") if entry["level"] == "medium")
    assert "evaluation" not in medium  # greedy by the hand-written evaluation: nothing to say
    drop_ins = tmp_path_factory.mktemp("game-data")
    _changed_board(drop_ins)
    monkeypatch.setenv("MEADOW_GAME_DATA", str(drop_ins))
    hard = next(entry for entry in levels.describe("renature") if entry["level"] == "hard")
    assert hard["evaluation"] == "stale"


def test_a_model_file_keeps_its_weights_compact_and_close(models):
    """Half floats, and the policy's matrices in 8 bits with a scale per column: a quarter
    of the size, the same choices."""
    coding = encoding("renature", 2)
    path = random_model(coding, models)
    rng = np.random.default_rng(3)
    weights = {
        "value.first": rng.normal(0, 0.1, (coding.observation_size, 8)).astype(np.float32),
        "value.first_bias": np.zeros(8, np.float32),
        "value.second": rng.normal(0, 0.5, (8, 1)).astype(np.float32),
        "value.second_bias": np.zeros(1, np.float32),
        "policy.first": rng.normal(0, 0.1, (coding.observation_size, 8)).astype(np.float32),
        "policy.first_bias": np.zeros(8, np.float32),
        "policy.second": rng.normal(0, 0.5, (8, coding.size)).astype(np.float32),
        "policy.second_bias": np.zeros(coding.size, np.float32),
    }
    model = Model.load(path)
    model.save(path, weights)
    with np.load(path.with_suffix(".npz")) as stored:
        assert stored["policy.second"].dtype == np.int8
        assert stored["value.first"].dtype == np.float16
    again = Model.load(path)
    state = _midgame("renature", 5, 20)
    seen = coding.observe(state, 0)
    exact = np.maximum(seen @ weights["policy.first"], 0) @ weights["policy.second"]
    assert np.argmax(again.policy(seen)) == np.argmax(exact)
    assert np.allclose(again.policy(seen), exact, atol=0.05 * np.abs(exact).max())
