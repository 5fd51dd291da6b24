"""Tables without HTTP: what only timing inside the server, or two processes' tables on one
database, can show."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from sqlalchemy import Connection, func, select

from meadow.server.errors import ApiError
from meadow.server.live import Listener
from meadow.server.movelog import Line
from meadow.server.tables import Tables
from meadow.store import Database, Move, Seat, User


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Tables]:
    db = Database(f"sqlite:///{tmp_path / 'tables.db'}")
    db.migrate()
    tables = Tables(db)
    yield tables
    tables.close()
    db.dispose()


def started_table(hub: Tables) -> int:
    with hub.db.write() as s:
        host, guest = User(name="host", password_hash="x"), User(name="guest", password_hash="x")
        s.add_all([host, guest])
        s.commit()
    table_id = hub.create(host, "topiary", 2, {}, [None, None], "live")
    hub.join(table_id, guest)
    hub.start(table_id, host)
    return table_id


def test_a_move_whose_socket_stops_waiting_is_still_settled(hub: Tables) -> None:
    # A server stopping cancels each connection's task, maybe while its move's line is
    # being committed: the move must still be settled, or the table would stay pending.
    live = hub.get(started_table(hub))
    release = threading.Event()
    write_lines = hub.writer.together

    def held(connection: Connection, lines: list[Line]) -> None:
        release.wait(10)
        write_lines(connection, lines)

    hub.writer.together = held

    async def cancel_while_committing() -> None:
        assert live.state is not None
        seat, action = live.state.to_move, str(live.state.legal_actions()[0])
        assert seat is not None
        playing = asyncio.create_task(hub.play(live, seat, 1, action, Listener(seat)))
        while live.pending is None:
            await asyncio.sleep(0.01)
        playing.cancel()
        release.set()
        for _ in range(500):
            if live.pending is None:
                break
            await asyncio.sleep(0.01)

    asyncio.run(cancel_while_committing())
    assert live.pending is None and live.moves_made == 1
    with hub.db.open() as s:
        assert s.scalar(select(func.count()).select_from(Move)) == 1


def test_the_movers_socket_hears_its_news_with_the_ack_and_no_other_does(hub: Tables):
    """One frame answers a move sent on a socket: its news, marked `ack`. A second tab of
    the same seat and the other seats hear the same news unmarked."""
    live = hub.get(started_table(hub))

    async def move_with_three_listening() -> tuple[bool, list[dict], list[dict], list[dict]]:
        assert live.state is not None
        seat, action = live.state.to_move, str(live.state.legal_actions()[0])
        assert seat is not None
        mover, second_tab, opponent = Listener(seat), Listener(seat), Listener(1 - seat)
        for listener in (mover, second_tab, opponent):
            hub.subscribe(live, listener)
        acked = await hub.play(live, seat, 1, action, mover)
        heard = [
            [orjson.loads(listener.queue.get_nowait()) for _ in range(listener.queue.qsize())]
            for listener in (mover, second_tab, opponent)
        ]
        return acked, *heard

    acked, mover, second_tab, opponent = asyncio.run(move_with_three_listening())
    assert acked
    assert [m["kind"] for m in mover] == ["sync", "move"] and mover[1]["ack"] is True
    assert second_tab[1] == {key: value for key, value in mover[1].items() if key != "ack"}
    assert [m["kind"] for m in opponent] == ["sync", "move"] and "ack" not in opponent[1]
    assert "action" not in opponent[1]  # the action's text is the mover's own


def test_a_move_from_a_socket_not_listening_is_not_acked_by_its_news(hub: Tables):
    # Its caller must then answer with an `ack` of its own (the socket route does).
    live = hub.get(started_table(hub))

    async def move_unheard() -> bool:
        assert live.state is not None
        seat, action = live.state.to_move, str(live.state.legal_actions()[0])
        assert seat is not None
        return await hub.play(live, seat, 1, action, Listener(seat))

    assert asyncio.run(move_unheard()) is False
    assert live.moves_made == 1


@pytest.fixture
def other(hub: Tables) -> Iterator[Tables]:
    """A second process's tables on the same database, as in a cluster."""
    tables = Tables(hub.db)
    yield tables
    tables.close()


def people(hub: Tables, *names: str) -> list[User]:
    with hub.db.write() as s:
        found = [User(name=name, password_hash="x") for name in names]
        s.add_all(found)
        s.commit()
    return found


def test_a_join_through_another_process_counts_at_the_start(hub: Tables, other: Tables):
    host, guest = people(hub, "host", "guest")
    table_id = hub.create(host, "topiary", 2, {}, [None, None], "live")
    other.join(table_id, guest)  # this process has not heard of it yet
    hub.start(table_id, host)
    assert hub.get(table_id).status == "running"
    assert hub.get(table_id).seats == [(host.id, None), (guest.id, None)]


def test_two_joins_through_two_processes_never_share_a_seat(hub: Tables, other: Tables):
    host, first, second = people(hub, "host", "first", "second")
    table_id = hub.create(host, "topiary", 2, {}, [None, None], "live")
    other.get(table_id)  # both processes hold the table with its second seat free
    hub.join(table_id, first)
    with pytest.raises(ApiError, match="every seat is taken"):
        other.join(table_id, second)
    with hub.db.open() as s:
        seats = s.scalars(select(Seat).where(Seat.table_id == table_id)).all()
        assert sorted((seat.number, seat.user_id) for seat in seats) == [
            (0, host.id),
            (1, first.id),
        ]
