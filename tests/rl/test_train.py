"""`meadow train` on a tiny budget: a model that loads, plays, resumes, and seats a policy."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import numpy as np
import pytest

from meadow import games
from meadow.bots import make_bot, observe
from meadow.bots.learned import ENV, LearnedEvaluation, Model, evaluation_of, model_path
from meadow.cli import main
from meadow.core.encoding import encoding
from meadow.core.errors import MeadowError
from meadow.core.game import margins
from meadow.core.rng import Rng
from meadow.rl.players import make_player
from meadow.rl.selfplay import Games, Recipe, play
from meadow.rl.train import Plan, Trainer, check_plan
from tests.server.conftest import Server
from tests.server.test_play import play_out

TINY = Plan(game="topiary", rounds=2, games=4, epochs=1, jobs=1, against=("random",), curve_games=2)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("models")
    curve = Trainer(TINY, out).run()
    return out, curve


def test_self_play_writes_each_seats_observation_and_its_target():
    found = play(Recipe("topiary", 2, {}, "greedy", 0.2, seed=3, models=None))
    coding = encoding("topiary", 2)
    assert found.observations.shape == (len(found), coding.observation_size)
    assert len(found) % 2 == 0  # one row per seat at each decision
    assert np.all(found.chosen < coding.size)
    assert len(found.legal_ends) == len(found.chosen)
    # two seats' leads are each other's negatives, now and at the end: so are their targets
    assert np.allclose(found.targets[0::2], -found.targets[1::2])
    assert np.any(found.targets != 0)
    again = play(Recipe("topiary", 2, {}, "greedy", 0.2, seed=3, models=None))
    assert np.array_equal(found.observations, again.observations)  # seeded: the same game


def test_training_writes_a_model_that_loads_and_a_curve(trained):
    out, curve = trained
    assert [point.round for point in curve] == [0, 1]
    assert curve[1].games == 8
    model = Model.load(model_path("topiary", 2, out))
    model.check(encoding("topiary", 2))
    assert model.card.made["command"].startswith("meadow train topiary")
    assert len(model.card.made["curve"]) == 2
    lines = (out / "topiary-2p-curve.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["round"] for line in lines] == [0, 1]
    assert (out / "topiary-2p-curve.png").read_bytes()[:4] == b"\x89PNG"
    assert 0 <= curve[-1].win_share["random"] <= 1
    assert 0 <= model.card.made["shrink"] <= 1
    assert "the final lead" in model.card.made["value"]
    assert model.card.made["summary"].startswith("8 self-play games")
    assert " lead error " in model.card.made["summary"]


def test_the_trained_evaluation_plays_a_legal_game_and_rates_the_winner_ahead(trained, monkeypatch):
    out, _ = trained
    monkeypatch.setenv(ENV, str(out))
    game = games.get("topiary")
    judge = evaluation_of(game, 2, {})
    assert isinstance(judge, LearnedEvaluation)
    state = game.setup(2, seed=21)
    bots = [make_bot("greedy:eval=learned"), make_player("policy:learned")]
    rng = Rng(21)
    before_end = None
    while not state.is_over:
        mover = state.to_move
        state.apply(bots[mover].choose(observe(state, mover), rng))
        if not state.is_over:
            before_end = state.clone()
    winner = max(range(2), key=lambda seat: state.result().scores[seat])
    assert margins(judge.evaluate(state), winner) > margins(judge.evaluate(state), 1 - winner)
    assert before_end is not None and not before_end.is_over
    assert np.isfinite(judge.evaluate(before_end)).all()


def test_a_run_cut_short_resumes_at_the_round_it_was_in(trained, tmp_path):
    """The second round's games were lost: it is played again from the model the first
    round left, so the same seeds play the same games, and the curve keeps one line each."""
    out, _ = trained
    resumed = tmp_path / "resumed"
    kept = resumed / "data" / "topiary-2p"
    kept.mkdir(parents=True)
    for name in ("topiary-2p.json", "topiary-2p.npz", "topiary-2p-curve.jsonl"):
        (resumed / name).write_bytes((out / name).read_bytes())
    for name in (
        "round-00.npz",
        "after-round-00.json",
        "after-round-00.npz",
        "after-round-00-trained.npz",
    ):
        (kept / name).write_bytes((out / "data" / "topiary-2p" / name).read_bytes())
    curve = Trainer(TINY, resumed).run()
    assert [point.round for point in curve] == [0, 1]
    lines = (resumed / "topiary-2p-curve.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    replayed = Games.load(kept / "round-01.npz")
    original = Games.load(out / "data" / "topiary-2p" / "round-01.npz")
    assert np.array_equal(replayed.observations, original.observations)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rounds": 0}, "--rounds 0"),
        ({"games": 1}, "--games 1"),
        ({"careless": 1.0}, "--careless"),
        ({"players": 3}, "training is for 2 players"),
        ({"targets": "middle"}, "--targets 'middle': one of end, round"),
    ],
)
def test_a_plan_that_cannot_run_is_one_line(change, message):
    plan = Plan(**{**TINY.__dict__, **change})
    with pytest.raises(MeadowError, match=message):
        check_plan(plan)


def test_the_command_refuses_an_unknown_opponent_before_playing(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["train", "topiary", "--against", "grandmaster", "--out", str(tmp_path)])
    assert stopped.value.code != 0
    assert "no bot 'grandmaster'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_the_trained_policy_takes_a_seat_at_the_server(trained, tmp_path):
    out, _ = trained
    server = Server(tmp_path, None, env={ENV: str(out)})
    server.start()
    try:
        me = server.client().signup("learned-opponent")
        created = me.post(
            "/api/tables",
            json={"game": "topiary", "players": 2, "seats": [None, "policy:learned"]},
        )
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        assert me.post(f"/api/tables/{table_id}/start").status_code == 204
        final = play_out({0: me}, table_id, random.Random(5))
        assert final["over"]
        record = me.get(f"/api/tables/{table_id}/record").json()
        assert record["actions"]
    finally:
        server.stop()


def _processes_marked(mark: str) -> list[int]:
    """Processes whose environment holds `mark` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if mark.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "terminate"])
def test_a_run_stopped_part_way_stops_its_workers(tmp_path, stop):
    """Before, a run ended by a signal left its worker processes behind, playing and then
    waiting for ever."""
    mark = f"MEADOW_TEST_MARK={uuid.uuid4().hex}"
    env = {**os.environ, mark.split("=")[0]: mark.split("=")[1]}
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "meadow",
            "train",
            "topiary",
            "--games",
            "400",
            "--out",
            str(tmp_path),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(_processes_marked(mark)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)  # the run and its two workers
    assert len(_processes_marked(mark)) >= 3
    run.send_signal(stop)
    run.wait(timeout=60)
    deadline = time.monotonic() + 10
    while _processes_marked(mark) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _processes_marked(mark) == []
    assert run.returncode != 0


@pytest.fixture
def small_rounds(monkeypatch):
    """Rounds played on from two moves in two worlds: the same rows, fewer of them."""
    from meadow.rl import selfplay

    monkeypatch.setattr(selfplay, "ROUND_WIDTH", 2)
    monkeypatch.setattr(selfplay, "ROUND_WORLDS", 2)
    monkeypatch.setattr(selfplay, "FIRST_LOOK_WORLDS", 1)


def test_targets_from_a_round_teach_the_value_on_the_moves_played_on(small_rounds):
    found = play(Recipe("topiary", 2, {}, "greedy", 0.2, seed=3, models=None, targets="round"))
    coding = encoding("topiary", 2)
    taught = np.isfinite(found.targets)
    played = int((~taught).sum())
    # the positions played keep their rows (the policy's examples point at them), untaught
    assert played % 2 == 0 and not taught[:played].any() and taught[played:].all()
    assert found.chosen_rows.max() < played
    # two rows a position played on, one per seat: what a round added to one seat's lead it
    # took from the other's
    siblings = found.targets[played:]
    assert len(siblings) % 2 == 0 and len(siblings) > played  # two moves each decision
    assert np.allclose(siblings[0::2], -siblings[1::2])
    assert np.any(siblings != 0)
    assert found.observations.shape == (len(found), coding.observation_size)


def test_a_rounds_targets_are_drawn_from_what_the_mover_knows(small_rounds):
    """Two positions the mover cannot tell apart (the tiles still in the bag in another
    order) give the same targets: no hidden fact is taught. (The rows may differ: each is
    what a seat sees after the move, a tile drawn included.)"""
    from meadow.rl.selfplay import siblings_played_on

    game = games.get("topiary")
    state = game.setup(2, seed=8)
    seat = state.to_move
    twin = observe(state, seat).world(Rng(99))
    coding = encoding("topiary", 2)
    one = siblings_played_on(state, observe(state, seat), coding, Rng(5))
    other = siblings_played_on(twin, observe(twin, seat), coding, Rng(5))
    targets = [target for _, target in one]
    assert targets == [target for _, target in other] and any(targets)
    # only what tells a move from its siblings: the mover's targets add up to nothing
    assert abs(sum(targets[seat::2])) < 1e-9


def test_the_value_is_fitted_on_the_rows_a_round_taught_only(small_rounds, tmp_path):
    plan = Plan(**{**TINY.__dict__, "targets": "round", "curve_games": 0})
    trainer = Trainer(plan, tmp_path)
    data = Games.join(
        [
            play(Recipe("topiary", 2, {}, "greedy", 0.2, seed=s, models=None, targets="round"))
            for s in (1, 2, 3)
        ]
    )
    trainer.scale = float(np.nanstd(data.targets))
    trainer._fit(data, held_from=0)
    weights = trainer.weights()
    assert all(np.isfinite(array).all() for array in weights.values())
    assert 0 <= trainer.shrink <= 1
    assert "--targets round" in trainer.command()


def test_a_model_taught_by_rounds_says_so_in_its_card(trained, small_rounds, tmp_path):
    """Its card and its summary name the round's target, not the final lead it was not
    taught."""
    _, curve = trained
    plan = Plan(**{**TINY.__dict__, "targets": "round", "curve_games": 0})
    trainer = Trainer(plan, tmp_path)
    data = play(Recipe("topiary", 2, {}, "greedy", 0.2, seed=1, models=None, targets="round"))
    trainer.scale = float(np.nanstd(data.targets))
    trainer._fit(data, held_from=0)
    trainer._write_model(0, curve)
    made = Model.load(model_path("topiary", 2, tmp_path)).card.made
    assert "what a round played on added to the lead" in made["value"]
    assert "final lead" not in made["value"]
    assert " round error " in made["summary"] and "lead error" not in made["summary"]
