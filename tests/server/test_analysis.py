"""The coach at the server: a finished game's analysis asked for, computed once (by one
process, decided by the database), kept, and shown to everyone who may see the game."""

from __future__ import annotations

import random
import secrets
import time
from pathlib import Path

import pytest

from meadow.server.coach import Coach
from meadow.server.settings import Settings
from meadow.store import Database, GameAnalysis, Table, User
from tests.server.conftest import Client, Server, at_once, own_server, signed_in, two_processes
from tests.server.test_play import play_out

QUICK = {"MEADOW_ANALYSIS_WORLDS": "1", "MEADOW_ANALYSIS_CPU_SHARE": "1"}


def finished_game(person: Client, game: str = "topiary") -> int:
    created = person.post(
        "/api/tables", json={"game": game, "players": 2, "seats": [None, "random"]}
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert person.post(f"/api/tables/{table_id}/start").status_code == 204
    play_out({0: person}, table_id, random.Random(table_id))
    return table_id


def wait_until_done(person: Client, table_id: int, seconds: float = 240) -> dict:
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        state = person.get(f"/api/tables/{table_id}/analysis").json()
        seen.append((state["status"], state["done_moves"]))
        if state["status"] in ("done", "failed"):
            return state
        time.sleep(0.3)
    raise AssertionError(f"no analysis in {seconds} s: {seen[-5:]}")


def analyses_logged(servers: list[Server], table_id: int, seconds: float = 20) -> int:
    """How many times the servers logged this table's analysis as done. The worker stores
    the result before its process logs, so a reader who saw "done" waits for the line; then
    a moment more, in which a second computation (were there one) would also end."""
    line = f"analysis of table {table_id} done"

    def logged() -> int:
        logs = (log.read_text() for s in servers for log in s.data_dir.glob("server-*.log"))
        return "".join(logs).count(line)

    deadline = time.monotonic() + seconds
    while not logged() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    return logged()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def coached(request, tmp_path_factory):
    with own_server(tmp_path_factory, request.param, **QUICK) as server:
        yield server


def test_a_finished_game_is_analysed_once_and_kept(coached: Server):
    me = coached.client().signup(f"coached-{secrets.token_hex(3)}")
    table_id = finished_game(me)
    assert me.get(f"/api/tables/{table_id}/analysis").json()["status"] == "none"
    asked = me.post(f"/api/tables/{table_id}/analysis")
    assert asked.status_code == 202, asked.text
    assert asked.json()["status"] in ("queued", "running")
    done = wait_until_done(me, table_id)
    assert done["status"] == "done", done
    analysis = done["analysis"]
    assert analysis["game"] == "topiary" and analysis["moves"] == done["total_moves"]
    assert done["done_moves"] == done["total_moves"] > 0
    assert [seat["seat"] for seat in analysis["seats"]] == [0, 1]
    assert all(d["mark"] for d in analysis["decisions"])
    # Asked again, by anyone: the analysis kept, not a second one.
    other = coached.client().signup(f"other-{secrets.token_hex(3)}")
    again = other.post(f"/api/tables/{table_id}/analysis")
    assert again.status_code == 202 and again.json()["analysis"] == analysis
    # Anyone who may see the game may read it, signed in or not.
    assert coached.client().get(f"/api/tables/{table_id}/analysis").json() == done


def test_only_a_finished_game_and_only_a_person_may_ask(coached: Server):
    me = coached.client().signup(f"early-{secrets.token_hex(3)}")
    created = me.post(
        "/api/tables", json={"game": "topiary", "players": 2, "seats": [None, "random"]}
    )
    table_id = created.json()["id"]
    assert me.post(f"/api/tables/{table_id}/start").status_code == 204
    early = me.post(f"/api/tables/{table_id}/analysis")
    assert early.status_code == 409 and "finished" in early.json()["error"]
    nobody = coached.client()
    assert nobody.post(f"/api/tables/{table_id}/analysis").status_code == 401
    assert me.post("/api/tables/999999/analysis").status_code == 404


def test_a_private_game_is_analysed_for_its_people_only(coached: Server):
    me = coached.client().signup(f"private-{secrets.token_hex(3)}")
    created = me.post(
        "/api/tables",
        json={"game": "topiary", "players": 2, "seats": [None, "random"], "private": True},
    )
    table_id = created.json()["id"]
    assert me.post(f"/api/tables/{table_id}/start").status_code == 204
    play_out({0: me}, table_id, random.Random(5))
    stranger = coached.client().signup(f"stranger-{secrets.token_hex(3)}")
    assert stranger.get(f"/api/tables/{table_id}/analysis").status_code == 404
    assert stranger.post(f"/api/tables/{table_id}/analysis").status_code == 404


def test_two_racing_requests_make_one_analysis(coached: Server):
    people = [coached.client().signup(f"racer-{k}-{secrets.token_hex(3)}") for k in range(2)]
    table_id = finished_game(people[0])
    calls = [lambda p=p: p.post(f"/api/tables/{table_id}/analysis") for p in people * 3]
    answers = at_once(calls)
    assert [a.status_code for a in answers] == [202] * 6
    assert wait_until_done(people[0], table_id)["status"] == "done"
    assert analyses_logged([coached], table_id) == 1


def test_a_person_may_have_so_many_analyses_waiting(tmp_path_factory):
    # One worker resting nine tenths of its time: the first analysis keeps the rest waiting.
    slow = {"MEADOW_ANALYSIS_CPU_SHARE": "0.1", "MEADOW_ANALYSES_PER_PERSON": "2"}
    with own_server(tmp_path_factory, "sqlite", **slow) as server:
        me = server.client().signup(f"greedy-{secrets.token_hex(3)}")
        tables = [finished_game(me) for _ in range(3)]
        codes = [me.post(f"/api/tables/{t}/analysis").status_code for t in tables]
        assert codes == [202, 202, 429]
        refused = me.post(f"/api/tables/{tables[2]}/analysis")
        assert "analyses_per_person 2" in refused.json()["error"]
        # Someone else may still ask for it.
        other = server.client().signup(f"patient-{secrets.token_hex(3)}")
        assert other.post(f"/api/tables/{tables[2]}/analysis").status_code == 202


def test_a_host_may_turn_analysis_off(tmp_path_factory):
    with own_server(tmp_path_factory, "sqlite", MEADOW_ANALYSIS="false") as server:
        me = server.client().signup(f"off-{secrets.token_hex(3)}")
        table_id = finished_game(me)
        refused = me.post(f"/api/tables/{table_id}/analysis")
        assert refused.status_code == 403 and "MEADOW_ANALYSIS" in refused.json()["error"]
        assert me.get(f"/api/tables/{table_id}/analysis").json()["enabled"] is False


def test_two_processes_analyse_a_game_once(tmp_path_factory):
    """Both processes of a cluster are asked for the same game at the same moment; the
    database lets one of them take the work."""
    with two_processes(tmp_path_factory, **QUICK) as (a, b):
        me = a.client().signup(f"cluster-{secrets.token_hex(3)}")
        table_id = finished_game(me)
        me_on_b = signed_in(b, me)
        answers = at_once(
            [lambda c=c: c.post(f"/api/tables/{table_id}/analysis") for c in (me, me_on_b) * 2]
        )
        assert [r.status_code for r in answers] == [202] * 4
        assert wait_until_done(me_on_b, table_id)["status"] == "done"
        assert analyses_logged([a, b], table_id) == 1


def test_only_one_of_many_claims_takes_the_work(tmp_path: Path):
    """The claim is the database's guarded update: of eight coaches (as of eight processes,
    each with its own engine) racing for one queued analysis, one gets it, every time."""
    url = f"sqlite:///{tmp_path / 'claims.sqlite3'}"
    Database(url).migrate()
    coaches = [Coach(Database(url), Settings(database_url=url)) for _ in range(8)]
    with coaches[0].db.write() as s:
        user = User(name="claimer")
        s.add(user)
        s.flush()
        for number in range(1, 6):
            s.add(
                Table(
                    id=number,
                    game="topiary",
                    options={},
                    players=2,
                    seed="1",
                    mode="live",
                    invite=f"i{number}",
                    host_id=user.id,
                )
            )
        s.flush()  # the tables first: the analyses refer to them
        for number in range(1, 6):
            s.add(GameAnalysis(table_id=number, total_moves=10, requested_by=user.id))
        s.commit()
    taken = []
    for _ in range(5):
        taken += [got for got in at_once([c._claim for c in coaches]) if got is not None]
        tables = [table for table, _ in taken]
        assert len(set(tables)) == len(tables), f"a table claimed twice: {taken}"
    assert sorted(table for table, _ in taken) == [1, 2, 3, 4, 5]
    with coaches[0].db.open() as s:
        rows = s.query(GameAnalysis).all()
        assert all(r.status == "running" and r.claim for r in rows)
        assert len({r.claim for r in rows}) == 5


def hint_table(person: Client, hints: bool = True) -> int:
    created = person.post(
        "/api/tables",
        json={"game": "harmonies", "players": 2, "seats": [None, "random"], "hints": hints},
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    assert person.post(f"/api/tables/{table_id}/start").status_code == 204
    return table_id


def my_turn(person: Client, table_id: int) -> dict:
    for _ in range(200):
        state = person.table(table_id)["game_state"]
        if state["to_move"] == 0 and state["legal"]:
            return state
        time.sleep(0.05)
    raise AssertionError("never my turn")


def test_a_hint_is_a_legal_move_of_mine_counted_once_a_decision(coached: Server):
    me = coached.client().signup(f"hinted-{secrets.token_hex(3)}")
    table_id = hint_table(me)
    assert me.table(table_id)["hints"] is True  # shown to everyone
    state = my_turn(me, table_id)
    hint = me.post(f"/api/tables/{table_id}/hint")
    assert hint.status_code == 200, hint.text
    found = hint.json()
    assert found["move"] in state["legal"] and found["number"] == state["move"] + 1
    assert found["words"]
    again = me.post(f"/api/tables/{table_id}/hint")
    assert again.json() == found  # the same decision: the kept hint, not a second count
    assert me.get(f"/api/tables/{table_id}/analysis").json()["hints"] == [1, 0]
    played = me.post(
        f"/api/tables/{table_id}/moves", json={"move": state["move"] + 1, "action": found["move"]}
    )
    assert played.status_code == 200, played.text
    # The next decision: a hint of its own, counted.
    state = my_turn(me, table_id)
    assert me.post(f"/api/tables/{table_id}/hint").json()["number"] == state["move"] + 1
    assert me.get(f"/api/tables/{table_id}/analysis").json()["hints"] == [2, 0]
    final = play_out({0: me}, table_id, random.Random(3))
    assert final["over"]
    # Not rated, and its record says hints were at hand.
    assert all(seat["rating"] is None for seat in me.table(table_id)["seats"])
    assert me.get(f"/api/tables/{table_id}/record").json()["hints"] == [2, 0]


def test_a_rated_table_refuses_a_hint_at_the_server(coached: Server):
    me = coached.client().signup(f"rated-{secrets.token_hex(3)}")
    table_id = hint_table(me, hints=False)
    my_turn(me, table_id)
    refused = me.post(f"/api/tables/{table_id}/hint")
    assert refused.status_code == 403 and "rated" in refused.json()["error"]
    assert "hints" not in me.get(f"/api/tables/{table_id}/record").json()


def test_a_hint_is_only_for_my_own_turn_at_my_own_seat(coached: Server):
    me = coached.client().signup(f"own-{secrets.token_hex(3)}")
    other = coached.client().signup(f"other-{secrets.token_hex(3)}")
    created = me.post(
        "/api/tables",
        json={"game": "harmonies", "players": 2, "seats": [None, None], "hints": True},
    )
    table_id = created.json()["id"]
    assert other.post(f"/api/tables/{table_id}/join").status_code == 200
    assert me.post(f"/api/tables/{table_id}/start").status_code == 204
    watcher = coached.client().signup(f"watcher-{secrets.token_hex(3)}")
    assert watcher.post(f"/api/tables/{table_id}/hint").status_code == 403
    assert coached.client().post(f"/api/tables/{table_id}/hint").status_code == 401
    # My whole first turn played; then it is the other person's, and my hint is refused.
    while (state := me.table(table_id)["game_state"])["to_move"] == 0:
        move = {"move": state["move"] + 1, "action": state["legal"][0]}
        assert me.post(f"/api/tables/{table_id}/moves", json=move).status_code == 200
    refused = me.post(f"/api/tables/{table_id}/hint")
    assert refused.status_code == 409 and "your own turn" in refused.json()["error"]
    assert other.post(f"/api/tables/{table_id}/hint").status_code == 200


def test_racing_hint_requests_count_one(coached: Server):
    me = coached.client().signup(f"racing-{secrets.token_hex(3)}")
    table_id = hint_table(me)
    my_turn(me, table_id)
    answers = at_once([lambda: me.post(f"/api/tables/{table_id}/hint")] * 6)
    codes = sorted(a.status_code for a in answers)
    assert set(codes) <= {200, 409} and 200 in codes
    moves = {a.json()["move"] for a in answers if a.status_code == 200}
    assert len(moves) == 1
    assert me.get(f"/api/tables/{table_id}/analysis").json()["hints"] == [1, 0]
