"""`meadow export games`: the finished games of a real server, one JSON line each, in the
replay download's format; each replays to the scores the server told at the end."""

from __future__ import annotations

import json
import random
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from meadow.core.record import GameRecord
from tests.server.conftest import Server
from tests.server.test_backup import meadow_database, one_line, run
from tests.server.test_play import play_out
from tests.server.test_safety import new_table


def move(client, table_id: int, prefix: str) -> None:
    state = client.table(table_id)["game_state"]
    action = next(a for a in state["legal"] if a.startswith(prefix))
    reply = client.post(
        f"/api/tables/{table_id}/moves", json={"move": state["move"] + 1, "action": action}
    )
    assert reply.status_code == 200, reply.text


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[int, dict[str, Any]]:
    """Games played to the end on the server, by table: the names at their seats, their
    final state as the server told it, and their record as the replay download gives it.
    One game took a move back; one game is left running."""
    played: dict[int, dict[str, Any]] = {}

    table_id, host, other = new_table(server, "topiary")
    final = play_out({0: host, 1: other}, table_id, random.Random(1))
    played[table_id] = {"people": [host.name, other.name], "bots": [None, None], "final": final}

    table_id, host, _ = new_table(server, "harmonies", bot="random")
    move(host, table_id, "take")
    move(host, table_id, "place")
    undone = host.post(f"/api/tables/{table_id}/undo", json={"move": 3})
    assert undone.status_code == 200, undone.text
    final = play_out({0: host}, table_id, random.Random(2))
    played[table_id] = {"people": [host.name, None], "bots": [None, "random"], "final": final}
    played[table_id]["undos"] = 1

    running, host, _ = new_table(server, "topiary", bot="random")
    move(host, running, "")

    for table_id, game in played.items():
        reply = host.get(f"/api/tables/{table_id}/record")
        assert reply.status_code == 200, reply.text
        game["record"] = reply.json()
    return played


def export(capsys, monkeypatch, server: Server, path: Path, *options: str) -> list[dict]:
    args = ["export", "games", str(path), *options, "--data-dir", str(server.data_dir)]
    code, out, err = run(capsys, monkeypatch, args, server.database_url)
    assert code == 0, err
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert f"{len(lines)} finished games written to {path}" in out
    return lines


def test_every_finished_game_replays_to_its_final_scores(
    server: Server, finished, capsys, monkeypatch, tmp_path
):
    lines = export(capsys, monkeypatch, server, tmp_path / "games.jsonl")
    assert sorted(line["table"] for line in lines) == sorted(finished)  # not the running one
    ends = [datetime.fromisoformat(line["finished_at"]) for line in lines]
    assert ends == sorted(ends) and all(end.utcoffset() == timedelta(0) for end in ends)
    for line in lines:
        game = finished[line["table"]]
        record = GameRecord.from_json(line)
        assert record.to_json() == game["record"]  # the replay download's very record
        assert "#undo" not in record.actions
        undos = game.get("undos", 0)
        assert len(record.actions) == game["final"]["move"] - 2 * undos
        replayed = record.replay()
        assert replayed.is_over
        assert list(replayed.result().scores) == line["scores"]
        assert line["scores"] == game["final"]["result"]["scores"]
        assert [seat["person"] for seat in line["seats"]] == game["people"]
        assert [seat["bot"] for seat in line["seats"]] == game["bots"]
        assert [seat["seat"] for seat in line["seats"]] == list(range(record.players))
        assert sorted(seat for group in line["ranking"] for seat in group) == [0, 1]


def test_the_filters_choose_by_game_and_by_the_day_a_game_ended(
    server: Server, finished, capsys, monkeypatch, tmp_path
):
    harmonies = [t for t, game in finished.items() if game["record"]["game"] == "harmonies"]
    only = export(capsys, monkeypatch, server, tmp_path / "h.jsonl", "--game", "harmonies")
    assert [line["table"] for line in only] == harmonies

    every = export(capsys, monkeypatch, server, tmp_path / "all.jsonl")
    days = sorted(date.fromisoformat(line["finished_at"][:10]) for line in every)
    since_first = export(
        capsys, monkeypatch, server, tmp_path / "since.jsonl", "--since", days[0].isoformat()
    )
    assert len(since_first) == len(every)
    after_last = (days[-1] + timedelta(days=1)).isoformat()
    assert export(capsys, monkeypatch, server, tmp_path / "none.jsonl", "--since", after_last) == []
    none = export(capsys, monkeypatch, server, tmp_path / "n.jsonl", "--game", "mystic-vale")
    assert none == []


def test_a_path_that_cannot_be_written_is_one_line_before_any_work(
    server: Server, capsys, monkeypatch, tmp_path
):
    (tmp_path / "a-file").write_text("not a directory")
    where = ["--data-dir", str(server.data_dir)]
    target = tmp_path / "a-file" / "games.jsonl"
    code, _, err = run(
        capsys, monkeypatch, ["export", "games", str(target), *where], server.database_url
    )
    assert code == 2 and "cannot write" in one_line(err)
    code, _, err = run(
        capsys,
        monkeypatch,
        ["export", "games", str(tmp_path / "g.jsonl"), "--game", "chess", *where],
        server.database_url,
    )
    assert code == 2 and "no game 'chess'" in one_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]


def test_a_database_of_an_older_schema_is_not_exported(capsys, monkeypatch, tmp_path):
    old = meadow_database(tmp_path / "old", "0008")
    code, _, err = run(
        capsys,
        monkeypatch,
        ["export", "games", str(tmp_path / "g.jsonl"), "--data-dir", str(old.parent)],
    )
    assert code == 2 and "has schema 0008" in one_line(err)
    assert not (tmp_path / "g.jsonl").exists()
