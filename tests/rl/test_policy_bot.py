"""A trained policy at a real table: bot specs, the tournament, what it may see."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest

from meadow import games
from meadow.bots import observe
from meadow.cli import main
from meadow.core.errors import MeadowError
from meadow.core.rng import Rng
from meadow.rl.encoding import encoding
from meadow.rl.players import make_player
from meadow.rl.policy_bot import PolicyBot, register_policy
from tests.rl.helpers import hidden
from tests.server.conftest import Server
from tests.server.test_play import play_out

MODULE = "tests.rl.policies"


def _midgame(game_id: str, plies: int = 10):
    state = games.get(game_id).setup(2, seed=6)
    rng = Rng(6)
    for _ in range(plies):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("game_id", games.ids())
def test_a_policy_plays_the_index_it_picks(game_id):
    state = _midgame(game_id)
    seat = state.to_move
    coding = encoding(game_id, 2)
    seen = []

    def spy(observation, action_mask):
        seen.append((observation, action_mask))
        return int(np.flatnonzero(action_mask)[-1])

    action = PolicyBot(spy).choose(observe(state, seat), Rng(0))
    assert action == max(state.legal_actions(), key=coding.index)
    observation, mask = seen[0]
    assert np.array_equal(observation, coding.observation(state.view(seat)))
    assert np.array_equal(mask, coding.mask(state.legal_actions()))


def test_hidden_information_never_reaches_the_policy():
    state = _midgame("topiary", plies=7)
    seat = state.to_move
    world = state.sample_hidden(seat, Rng(9))
    assert hidden(world) != hidden(state)
    seen = []

    def spy(observation, action_mask):
        seen.append(observation)
        return int(np.flatnonzero(action_mask)[0])

    bot = PolicyBot(spy)
    assert bot.choose(observe(state, seat), Rng(0)) == bot.choose(observe(world, seat), Rng(0))
    assert np.array_equal(seen[0], seen[1])


def test_specs_name_modules_and_files_where_imports_are_trusted(tmp_path):
    bot = make_player(f"policy:{MODULE}:first_legal", trust_imports=True)
    assert bot.name == f"policy:{MODULE}:first_legal"
    state = _midgame("harmonies")
    assert bot.choose(observe(state, state.to_move), Rng(0)) in state.legal_actions()
    numpy_index = make_player(f"policy:{MODULE}:last_legal", trust_imports=True)
    assert numpy_index.choose(observe(state, state.to_move), Rng(0)) in state.legal_actions()
    agent = tmp_path / "agent.py"
    agent.write_text("def act(observation, action_mask):\n    return int(action_mask.argmax())\n")
    from_file = make_player(f"policy:{agent}:act", trust_imports=True)
    assert from_file.choose(observe(state, state.to_move), Rng(0)) in state.legal_actions()


def test_the_server_takes_only_policies_the_host_named(monkeypatch):
    spec = f"policy:{MODULE}:first_legal"
    with pytest.raises(MeadowError, match="chosen by name only"):
        make_player(spec)  # as the server calls it: anyone may name a seat's bot there
    with pytest.raises(MeadowError, match="no policy 'ppo'"):
        make_player("policy:ppo")
    monkeypatch.setenv("MEADOW_POLICIES", f"ppo={MODULE}:first_legal; other={MODULE}:last_legal")
    assert make_player("policy:ppo").name == "policy:ppo"
    register_policy("inline", lambda observation, action_mask: int(action_mask.argmax()))
    assert make_player("policy:inline").name == "policy:inline"


def test_bad_policies_are_explained(monkeypatch):
    for spec, reason in (
        (f"policy:{MODULE}:missing", "has no attribute 'missing'"),
        (f"policy:{MODULE}:not_callable", "not_callable is not callable"),
        ("policy:no_such_module_here:act", "cannot import no_such_module_here"),
        ("policy:/nowhere/agent.py:act", "no file"),
    ):
        with pytest.raises(MeadowError, match=reason):
            make_player(spec, trust_imports=True)
    bot = make_player(f"policy:{MODULE}:first_illegal", trust_imports=True)
    state = _midgame("renature")
    with pytest.raises(MeadowError, match=r"chose index \d+ \(.+\), which is not legal now"):
        bot.choose(observe(state, state.to_move), Rng(0))
    monkeypatch.setenv("MEADOW_POLICIES", "broken")
    with pytest.raises(MeadowError, match="MEADOW_POLICIES: 'broken'"):
        make_player("policy:anything")


def test_a_policy_plays_a_tournament(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    spec = f"policy:{MODULE}:first_legal"
    with pytest.raises(SystemExit) as exited:
        main(["tournament", "topiary", "--bots", f"{spec},random", "-n", "2", "--seed", "4"])
    out, err = capsys.readouterr()
    assert exited.value.code in (0, None), err
    assert "policy:tests" in out and "random (#2)" in out  # rich may wrap the long name


def test_a_policy_takes_a_seat_at_the_server(tmp_path):
    """The host names a policy; a table seats it like any bot, and it plays a whole game."""
    server = Server(tmp_path, None, env={"MEADOW_POLICIES": "first=tests.rl.policies:first_legal"})
    server.start()
    try:
        me = server.client().signup("policy-opponent")
        refused = me.post(
            "/api/tables",
            json={"game": "topiary", "players": 2, "seats": [None, "policy:unnamed"]},
        )
        assert refused.status_code == 400 and "policy" in refused.json()["error"]
        created = me.post(
            "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "policy:first"]}
        )
        table_id = created.json()["id"]
        assert me.post(f"/api/tables/{table_id}/start").status_code == 204
        final = play_out({0: me}, table_id, random.Random(3))
        assert final["over"]
        record = me.get(f"/api/tables/{table_id}/record").json()
        assert record["actions"]  # the policy's moves are in the log like anyone's
    finally:
        server.stop()
