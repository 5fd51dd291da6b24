"""Refusals, races, secrets and crashes: the server never applies a move twice, never loses
an acknowledged one, and never tells a seat what it may not know."""

from __future__ import annotations

import json
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from meadow import games
from meadow.server import patch
from tests.server.conftest import Client, Server


def new_table(
    server: Server, game_id: str = "topiary", bot: str | None = None
) -> tuple[int, Client, Client]:
    """A running 2-player table: two people, or a person and `bot`."""
    host = server.client().signup(f"h-{secrets.token_hex(5)}")
    other = server.client().signup(f"o-{secrets.token_hex(5)}")
    created = host.post("/api/tables", json={"game": game_id, "players": 2, "seats": [None, bot]})
    table_id = created.json()["id"]
    if bot is None:
        other.post(f"/api/tables/{table_id}/join")
    assert host.post(f"/api/tables/{table_id}/start").status_code == 204
    return table_id, host, other


def play_first_moves(table_id: int, seats: dict[int, Client], moves: int) -> None:
    """Whoever is to move plays their first legal action, `moves` times."""
    watcher = next(iter(seats.values()))
    for _ in range(moves):
        mover = seats[watcher.table(table_id)["game_state"]["to_move"]]
        mine = mover.table(table_id)["game_state"]
        reply = mover.post(
            f"/api/tables/{table_id}/moves",
            json={"move": mine["move"] + 1, "action": mine["legal"][0]},
        )
        assert reply.status_code == 200, reply.text


def twin(server: Server, client: Client) -> Client:
    """A second browser signed in as the same person."""
    copy = server.client()
    copy.http.cookies = client.http.cookies
    copy.csrf = client.csrf
    return copy


def test_two_clients_racing_for_one_move_number_get_exactly_one_move(server: Server):
    table_id, host, other = new_table(server)
    pairs = {0: (host, twin(server, host)), 1: (other, twin(server, other))}
    for _ in range(12):
        state = host.table(table_id)["game_state"]
        first, second = pairs[state["to_move"]]
        mine = first.table(table_id)["game_state"]
        body = {"move": mine["move"] + 1, "action": mine["legal"][0]}
        replies: list[httpx.Response] = []
        barrier = threading.Barrier(2)

        def send(
            client: Client,
            body: dict = body,
            barrier: threading.Barrier = barrier,
            replies: list = replies,
        ) -> None:
            barrier.wait()
            replies.append(client.post(f"/api/tables/{table_id}/moves", json=body))

        threads = [threading.Thread(target=send, args=(c,)) for c in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(r.status_code for r in replies) == [200, 409]
        assert host.table(table_id)["moves_made"] == body["move"]
    assert len(engine_state(server, table_id).actions) == 12


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"move": 1, "action": "fly to the moon"}, 400, ""),
        ({"move": 7, "action": "visit O-N0"}, 409, "0 made so far"),
        ({"move": 1}, 422, "action"),
        ({"move": "one", "action": "visit O-N0"}, 422, "move"),
    ],
)
def test_bad_moves_get_a_reason_and_change_nothing(server: Server, body, status, words):
    table_id, host, _ = new_table(server)
    reply = host.post(f"/api/tables/{table_id}/moves", json=body)
    assert reply.status_code == status, reply.text
    assert words in reply.json()["error"]
    assert host.table(table_id)["moves_made"] == 0


def test_malformed_oversize_foreign_and_unsigned_requests_are_4xx(server: Server):
    table_id, host, other = new_table(server)
    path = f"/api/tables/{table_id}/moves"
    raw = host.post(path, content=b"{not json", headers={"content-type": "application/json"})
    assert raw.status_code == 422
    huge = host.post(path, json={"move": 1, "action": "x" * 200_000})
    assert huge.status_code == 413
    legal = host.table(table_id)["game_state"]["legal"][0]
    out_of_turn = other.post(path, json={"move": 1, "action": legal})
    assert out_of_turn.status_code == 403 and "not your turn" in out_of_turn.json()["error"]
    no_csrf = host.http.post(path, json={"move": 1, "action": legal})
    assert no_csrf.status_code == 403 and "X-CSRF-Token" in no_csrf.json()["error"]
    stranger = server.client().post(path, json={"move": 1, "action": legal})
    assert stranger.status_code == 401
    assert host.table(table_id)["moves_made"] == 0
    assert host.get("/api/tables/999999").status_code == 404


def socket_to(server: Server, client: Client | None, table_id: int, since: int = 0) -> Any:
    headers = {"Cookie": client.cookies} if client else {}
    return connect(
        f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws?since={since}",
        additional_headers=headers,
        open_timeout=10,
    )


def test_each_seat_and_a_spectator_hear_each_move_with_their_own_view(server: Server):
    table_id, host, other = new_table(server, "renature")
    with (
        socket_to(server, host, table_id) as mine,
        socket_to(server, other, table_id) as theirs,
        socket_to(server, None, table_id) as spectator,
    ):
        first = [json.loads(ws.recv(timeout=10)) for ws in (mine, theirs, spectator)]
        assert [m["kind"] for m in first] == ["sync"] * 3
        assert first[0]["legal"] and not first[1]["legal"] and not first[2]["legal"]
        action = first[0]["legal"][0]
        assert (
            host.post(
                f"/api/tables/{table_id}/moves", json={"move": 1, "action": action}
            ).status_code
            == 200
        )
        news = [json.loads(ws.recv(timeout=10)) for ws in (mine, theirs, spectator)]
    assert [m["kind"] for m in news] == ["move"] * 3
    assert [m["number"] for m in news] == [1, 1, 1]
    assert news[0]["action"] == action
    assert "action" not in news[1] and "action" not in news[2]
    truth = engine_state(server, table_id)
    for seat, message, sync in zip((0, 1, None), news, first, strict=True):
        # Each socket holds its seat's view from the sync: the move patches it.
        assert "view" not in message
        reached = patch.apply(sync["view"], message["patch"])
        assert reached == json.loads(json.dumps(truth.state.view(seat)))
    seed = str(truth.seed)
    for message in news + first:
        assert seed not in json.dumps(message)


def test_a_socket_gets_the_whole_view_first_and_patches_after_and_after_a_resync(
    server: Server,
):
    table_id, host, other = new_table(server, "harmonies")
    players = {0: host, 1: other}
    with socket_to(server, None, table_id) as watching:
        held = json.loads(watching.recv(timeout=10))
        assert held["kind"] == "sync" and "view" in held and "patch" not in held
        view, number = held["view"], held["move"]
        for _ in range(4):
            mover = players[host.table(table_id)["game_state"]["to_move"]]
            state = mover.table(table_id)["game_state"]
            body = {"move": state["move"] + 1, "action": state["legal"][0]}
            answer = mover.post(f"/api/tables/{table_id}/moves", json=body)
            assert answer.status_code == 200 and "view" in answer.json()  # HTTP: whole
            news = json.loads(watching.recv(timeout=10))
            assert news["kind"] == "move" and news["move"] == number + 1
            assert "view" not in news and len(json.dumps(news)) < len(json.dumps(view))
            view, number = patch.apply(view, news["patch"]), news["move"]
        truth = engine_state(server, table_id)
        assert view == json.loads(json.dumps(truth.state.view(None)))
    # A resync (a new socket, from the last move it saw): the whole view, then patches.
    with socket_to(server, host, table_id, since=number) as again:
        sync = json.loads(again.recv(timeout=10))
        assert sync["kind"] == "sync" and sync["moves"] == [] and sync["move"] == number
        assert sync["view"] == json.loads(json.dumps(truth.state.view(0)))
        mover = players[sync["to_move"]]
        state = mover.table(table_id)["game_state"]
        body = {"move": state["move"] + 1, "action": state["legal"][0]}
        assert mover.post(f"/api/tables/{table_id}/moves", json=body).status_code == 200
        news = json.loads(again.recv(timeout=10))
        assert "patch" in news and "view" not in news
        truth = engine_state(server, table_id)
        assert patch.apply(sync["view"], news["patch"]) == json.loads(
            json.dumps(truth.state.view(0))
        )


def engine_state(server: Server, table_id: int) -> Truth:
    """The table's game as the engine has it, rebuilt from the server's own database (the
    seed included, which no client ever gets while the game runs)."""
    from sqlalchemy import select

    from meadow.core.record import GameRecord
    from meadow.store import Database, Move, Table

    url = server.database_url or f"sqlite:///{server.data_dir / 'meadow.sqlite3'}"
    db = Database(url)
    try:
        with db.open() as s:
            table = s.get(Table, table_id)
            assert table is not None
            actions = s.scalars(
                select(Move.action).where(Move.table_id == table_id).order_by(Move.number)
            ).all()
            record = GameRecord(table.game, table.players, dict(table.options), int(table.seed))
    finally:
        db.dispose()
    standing: list[str] = []
    for action in actions:
        if action == "#undo":  # the log's mark for an undo
            standing.pop()
        else:
            standing.append(action)
    record.actions = standing
    return Truth(record.replay(), record.seed, list(actions))


@dataclass
class Truth:
    state: Any
    seed: int
    actions: list[str]


def test_a_reconnecting_client_resyncs_from_the_last_move_it_saw(server: Server):
    table_id, host, other = new_table(server)
    play_first_moves(table_id, {0: host, 1: other}, 3)
    with socket_to(server, host, table_id, since=1) as ws:
        sync = json.loads(ws.recv(timeout=10))
    assert sync["move"] == 3
    assert [m["number"] for m in sync["moves"]] == [2, 3]


def test_the_seed_and_record_stay_secret_while_the_game_runs(server: Server):
    table_id, host, _ = new_table(server, "mystic_vale")
    reply = host.get(f"/api/tables/{table_id}/record")
    assert reply.status_code == 409 and "once the game is over" in reply.json()["error"]
    seed = str(engine_state(server, table_id).seed)
    assert seed not in json.dumps(host.table(table_id))


@pytest.mark.parametrize("game_id", games.ids())
def test_views_served_match_what_the_engine_lets_each_seat_know(server: Server, game_id: str):
    """What a seat and a spectator are served is the engine's view of the game for that
    seat, so the games' own secrecy tests (views of states that differ only in hidden data)
    cover the server too; and the seed is in nothing served."""
    table_id, host, other = new_table(server, game_id, bot=None)
    play_first_moves(table_id, {0: host, 1: other}, 4)
    served = {
        0: host.table(table_id),
        1: other.table(table_id),
        None: server.client().table(table_id),
    }
    truth = engine_state(server, table_id)
    for seat, info in served.items():
        assert info["game_state"]["view"] == json.loads(json.dumps(truth.state.view(seat)))
        assert str(truth.seed) not in json.dumps(info)
    # The move log each one is sent on (re)connecting: the events as the engine gives them
    # to that seat, and an action's text only to the seat that chose it.
    engine_events = replayed_events(truth)
    for seat, client in ((0, host), (1, other), (None, None)):
        with socket_to(server, client, table_id) as ws:
            log = json.loads(ws.recv(timeout=10))["moves"]
        assert str(truth.seed) not in json.dumps(log)
        for line, (mover, action, events) in zip(log, engine_events, strict=True):
            expected = json.loads(json.dumps([e.for_seat(seat) for e in events]))
            assert line["events"] == expected
            assert line.get("action") == (action if seat == mover else None)


def replayed_events(truth: Truth) -> list[tuple[int, str, list]]:
    """(mover, action, events) of every move, from the engine."""
    record_state = truth.state
    game = games.get(record_state.game.id)
    state = game.setup(record_state.players, record_state.options.model_dump(), truth.seed)
    moves = []
    for action in truth.actions:
        mover = state.to_move
        moves.append((mover, action, state.apply(state.parse_action(action))))
    return moves


def test_moves_over_the_socket_follow_the_same_rules(server: Server):
    table_id, host, _ = new_table(server)
    with socket_to(server, host, table_id) as mine, socket_to(server, None, table_id) as watcher:
        legal = json.loads(mine.recv(timeout=10))["legal"]
        json.loads(watcher.recv(timeout=10))

        def say(ws: Any, message: Any) -> dict:
            ws.send(message if isinstance(message, str) else json.dumps(message))
            while True:  # skip news until the answer
                reply = json.loads(ws.recv(timeout=10))
                if reply["kind"] in ("ack", "error") or reply.get("ack"):
                    return reply

        assert say(mine, "{not json")["status"] == 422
        assert say(mine, {"kind": "move", "move": 1, "action": "fly"})["status"] == 400
        stale = say(mine, {"kind": "move", "move": 5, "action": legal[0]})
        assert stale["status"] == 409 and stale["move"] == 0
        refused = say(watcher, {"kind": "move", "move": 1, "action": legal[0]})
        assert refused["status"] == 403 and "no seat" in refused["error"]
        mine.send(json.dumps({"kind": "move", "move": 1, "action": legal[0]}))
        # The mover's answer is the news of its move, marked as its ack; nothing else.
        own_news = json.loads(mine.recv(timeout=10))
        assert own_news["kind"] == "move" and own_news["number"] == 1
        assert own_news["action"] == legal[0] and own_news["ack"] is True
        news = json.loads(watcher.recv(timeout=10))
        assert news["kind"] == "move" and news["number"] == 1 and "ack" not in news
        again = say(mine, {"kind": "move", "move": 1, "action": legal[0]})
        assert again["status"] == 409
    assert host.table(table_id)["moves_made"] == 1


def test_a_socket_from_another_site_is_refused(server: Server):
    """A page elsewhere cannot ride on a player's cookie (cross-site WebSocket hijacking)."""
    table_id, host, _ = new_table(server)
    with pytest.raises(InvalidStatus) as refused:
        connect(
            f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws",
            additional_headers={"Cookie": host.cookies},
            origin="https://evil.example",
            open_timeout=10,
        )
    assert refused.value.response.status_code == 403


def test_a_socket_closed_while_its_move_is_recorded_ends_quietly(server: Server):
    """The client goes while its move's line is being committed: the move stands, the news
    finds the socket gone, and the conversation ends without an error in the server's log
    (before, each such socket left an 'Exception in ASGI application' traceback there)."""
    log = server.data_dir / f"server-{server.port}.log"
    tracebacks = log.read_text().count("Traceback")
    for _ in range(5):
        table_id, host, _ = new_table(server)
        with socket_to(server, host, table_id) as ws:
            legal = json.loads(ws.recv(timeout=10))["legal"]
            ws.send(json.dumps({"kind": "move", "move": 1, "action": legal[0]}))
        deadline = time.monotonic() + 10
        while host.table(table_id)["moves_made"] != 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert host.table(table_id)["moves_made"] == 1
    time.sleep(0.5)  # what the server has to log of it, it has logged by now
    assert log.read_text().count("Traceback") == tracebacks
