"""Tables without HTTP: what only timing inside the server, or two processes' tables on one
database, can show."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import orjson
import pytest
from sqlalchemy import Connection, func, select, update

from meadow import games
from meadow.core.rng import Rng
from meadow.core.undo import why_not_undoable
from meadow.server import chat
from meadow.server.cluster import FRESH, LINE, Alone
from meadow.server.errors import ApiError
from meadow.server.live import Listener, LiveTable
from meadow.server.movelog import Line
from meadow.server.tables import REST_EVERY_SECONDS, Tables
from meadow.server.thinking import Thought
from meadow.store import Database, Move, Seat, Table, User


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Tables]:
    db = Database(f"sqlite:///{tmp_path / 'tables.db'}")
    db.migrate()
    tables = Tables(db)
    yield tables
    tables.close()
    db.dispose()


T = TypeVar("T")


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: a browser test's Playwright may have left an
    event loop running in this thread of the same test process."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def listening(live: LiveTable, seat: int) -> Listener:
    """A socket of the person at `seat`."""
    return Listener(live.seats[seat][0])


def started_table(
    hub: Tables, names: str = "", mode: str = "live", clock: dict[str, int] | None = None
) -> int:
    with hub.db.write() as s:
        host = User(name=f"host{names}", password_hash="x")
        guest = User(name=f"guest{names}", password_hash="x")
        s.add_all([host, guest])
        s.commit()
    table_id = hub.create(host, "topiary", 2, {}, [None, None], mode, clock)
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
        playing = asyncio.create_task(hub.play(live, seat, 1, action, listening(live, seat)))
        while live.pending is None:
            await asyncio.sleep(0.01)
        playing.cancel()
        release.set()
        for _ in range(500):
            if live.pending is None:
                break
            await asyncio.sleep(0.01)

    run_alone(cancel_while_committing())
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
        mover, second_tab, opponent = (
            listening(live, seat),
            listening(live, seat),
            listening(live, 1 - seat),
        )
        for listener in (mover, second_tab, opponent):
            hub.subscribe(live, listener)
        acked = await hub.play(live, seat, 1, action, mover)
        heard = [
            [orjson.loads(listener.queue.get_nowait()) for _ in range(listener.queue.qsize())]
            for listener in (mover, second_tab, opponent)
        ]
        return acked, *heard

    acked, mover, second_tab, opponent = run_alone(move_with_three_listening())
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
        return await hub.play(live, seat, 1, action, listening(live, seat))

    assert run_alone(move_unheard()) is False
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


def test_a_running_seat_that_nobody_holds_is_given_to_a_bot_at_once(hub: Tables):
    # The start refuses empty seats; a table stored with one anyway must not stall for good.
    table_id = started_table(hub)
    live = hub.get(table_id)
    with hub.db.write() as s:
        s.execute(
            update(Seat).where(Seat.table_id == table_id, Seat.number == 1).values(user_id=None)
        )
        s.commit()
    live.seats[1] = (None, None)
    hub.check_clocks()
    assert live.seats[1] == (None, "easy")
    with hub.db.open() as s:
        stored = s.scalars(select(Seat).where(Seat.table_id == table_id, Seat.number == 1)).one()
        assert stored.bot == "easy"


def an_unflagged_move_that_reveals() -> tuple[int, list[str]]:
    """A seeded 2-player Vale of Magic game and its moves up to (and with) one that leaves
    its mover to move on, carries no `reveals` flag in its events (Mystic Vale set none on
    `push`, `sleeve` or `choose` when they showed the druid its deck, or shuffled), and yet
    shows hidden information or uses chance by the undo rule. Found by playing seeded
    random games."""
    game = games.get("mystic_vale")
    for seed in range(1, 200):
        state, rng, played = game.setup(2, {"vale_of_magic": True}, seed), Rng(seed), []
        while not state.is_over and len(played) < 300:
            seat = state.to_move
            action = rng.choice(state.legal_actions())
            after = state.clone()
            events = after.apply(action)
            played.append(str(action))
            flagged = any(event.reveals for event in events)
            stays = after.to_move == seat and not flagged
            if stays and why_not_undoable(state, action, Rng(seed), flags=False) is not None:
                return seed, played
            state = after
    raise AssertionError("no seeded game has an unflagged move that reveals")


def test_a_move_that_reveals_cannot_be_taken_back_whatever_its_events_say(hub: Tables):
    """Issue 19, 5: Mystic Vale showed a druid the top of its deck (`deck_top`, and the
    choices that follow) and still let it take the move back. Whether a move may be undone
    is decided by `meadow.core.undo` from what the move did, whatever its events say."""
    seed, moves = an_unflagged_move_that_reveals()
    with hub.db.write() as s:
        host, guest = (
            User(name="vale-host", password_hash="x"),
            User(name="vale-guest", password_hash="x"),
        )
        s.add_all([host, guest])
        s.commit()
    table_id = hub.create(host, "mystic_vale", 2, {"vale_of_magic": True}, [None, None], "live")
    live = hub.get(table_id)
    live.seed = seed  # the game the search found (a table's seed is otherwise its own)
    hub.join(table_id, guest)
    hub.start(table_id, host)
    for number, action in enumerate(moves, start=1):
        assert live.state is not None
        hub.submit(table_id, live.state.to_move, number, action)
    assert live.state is not None
    with pytest.raises(ApiError) as refused:
        hub.undo(table_id, live.state.to_move, len(moves) + 1)
    assert refused.value.status == 403 and "stands" in refused.value.message


class HeldThinker:
    """Stands for the bot workers: counts the thinks asked for and answers only when let
    (as a bot that ran past its bound, with `overran`)."""

    def __init__(self, overran: bool = False) -> None:
        self.asked = 0
        self.go = threading.Event()
        self.overran = overran

    def submit(self, think: Any, game_id: str, state: dict, seat: int, *rest: Any) -> Any:
        from concurrent.futures import Future

        self.asked += 1
        answer: Future[Thought] = Future()

        def later() -> None:
            self.go.wait(10)
            position = games.get(game_id).state_from_json(state)
            answer.set_result(Thought(str(position.legal_actions()[0]), self.overran))

        threading.Thread(target=later, daemon=True).start()
        return answer

    def shutdown(self, **_: Any) -> None:
        self.go.set()


def table_against_a_bot(hub: Tables) -> tuple[int, LiveTable]:
    """A started Topiary table: a person in seat 0, the random bot in seat 1."""
    with hub.db.write() as s:
        host = User(name="host", password_hash="x")
        s.add(host)
        s.commit()
    table_id = hub.create(host, "topiary", 2, {}, [None, "random"], "live")
    hub.start(table_id, host)
    return table_id, hub.get(table_id)


def test_a_bot_thinking_is_not_asked_again_at_every_look(hub: Tables):
    """The clock's look, twice a second, once queued a think for every bot to move: a think
    longer than half a second ran again and again, and the queue grew with the tables."""
    held = HeldThinker()
    hub.thinkers = held  # type: ignore[assignment]
    table_id, live = table_against_a_bot(hub)
    while live.state is not None and live.state.to_move == 0:  # the person's turn first
        hub.submit(table_id, 0, live.moves_made + 1, str(live.state.legal_actions()[0]))
    assert live.state is not None and live.state.to_move == 1
    for _ in range(5):
        hub.check_clocks()
    deadline = time.monotonic() + 5
    while held.asked < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert held.asked == 1
    made = live.moves_made
    held.go.set()
    deadline = time.monotonic() + 10
    while live.moves_made == made and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.moves_made > made  # the one think was played (and the turn went on)


def test_a_bot_stopped_past_its_bound_still_moves_and_the_host_hears_of_it(
    hub: Tables, caplog: pytest.LogCaptureFixture
):
    """Issue 22: a think that does not end held its bot worker and its table for ever. The
    worker stops it (meadow.bots.bounds) and answers with a random legal move, marked."""
    held = HeldThinker(overran=True)
    hub.thinkers = held  # type: ignore[assignment]
    table_id, live = table_against_a_bot(hub)
    while live.state is not None and live.state.to_move == 0:
        hub.submit(table_id, 0, live.moves_made + 1, str(live.state.legal_actions()[0]))
    made = live.moves_made
    held.go.set()
    hub.check_clocks()
    deadline = time.monotonic() + 10
    while live.moves_made == made and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.moves_made > made
    warned = [r for r in caplog.records if "overran" in r.getMessage()]
    assert warned and f"table {table_id}:" in warned[0].getMessage()
    assert warned[0].levelname == "WARNING"


def test_a_bot_that_was_thinking_when_its_person_took_the_seat_back_plays_nothing(hub: Tables):
    """Seen in a loaded test run: a person took back the seat a bot had taken while the bot
    was thinking, and the bot's move came in after, played for the person's seat and
    carrying the note meant for the person's first move. "The bot stops at once" means the
    think already under way too."""
    held = HeldThinker()
    hub.thinkers = held  # type: ignore[assignment]
    table_id = started_table(hub)
    live = hub.get(table_id)
    host_id = live.seats[0][0]
    assert host_id is not None and live.state is not None and live.state.to_move == 0
    assert hub.give_seat_to_bot(table_id, 0, host_id, "left the table")
    deadline = time.monotonic() + 5
    while held.asked < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert held.asked == 1  # the bot is thinking
    with hub.db.open() as s:
        host = s.get(User, host_id)
    assert host is not None
    assert hub.reclaim(table_id, host) == 0
    held.go.set()  # its answer arrives now, for a seat that is no longer its own
    deadline = time.monotonic() + 10
    while live.bot_asked is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.bot_asked is None and live.moves_made == 0
    _, line = hub.submit(table_id, 0, 1, str(live.state.legal_actions()[0]))
    assert line.note is not None and "its player took seat 0 back from the bot" in line.note


def test_a_finished_table_leaves_memory_once_nobody_watches_it_and_comes_back_intact(
    hub: Tables,
):
    """Issue 26: a process kept every table it had loaded, some 0.5 MB for each game."""
    table_id = started_table(hub)
    live = hub.get(table_id)

    def held() -> list[int]:
        return [table.id for table in hub.held()]

    async def play_watched_then_leave() -> Any:
        watcher = listening(live, 1)
        assert hub.subscribe(live, watcher) is live
        rng = Rng(3)
        while live.state is not None and not live.state.is_over:
            legal = live.state.legal_actions()
            hub.submit(table_id, live.state.to_move, live.moves_made + 1, str(rng.choice(legal)))
        assert table_id in held()  # watched: kept
        hub.unsubscribe(live, watcher)
        return live.state.result()

    final = run_alone(play_watched_then_leave())
    assert table_id not in held()
    again = hub.get(table_id)  # its page opened again: read anew from the log
    assert again is not live and again.status == "finished"
    assert again.moves_made == live.moves_made
    assert again.state is not None and again.state.result() == final
    assert table_id not in held()  # read, not kept

    async def a_late_socket() -> None:
        late = listening(live, 0)
        kept = hub.subscribe(live, late)  # it held the old table: it gets the one kept now
        assert kept is not live and kept.listeners == [late]
        assert held() == [table_id]
        hub.unsubscribe(kept, late)

    run_alone(a_late_socket())
    assert held() == []


def test_a_game_the_bot_ends_leaves_memory_too(hub: Tables):
    table_id, live = table_against_a_bot(hub)
    deadline = time.monotonic() + 60
    while live.status == "running" and time.monotonic() < deadline:
        state = live.state
        if state is not None and state.to_move == 0 and live.pending is None:
            with contextlib.suppress(ApiError):  # the bot moved meanwhile
                hub.submit(table_id, 0, live.moves_made + 1, str(state.legal_actions()[0]))
        else:
            time.sleep(0.005)
    assert live.status == "finished"
    while table_id in [t.id for t in hub.held()] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert table_id not in [t.id for t in hub.held()]


def stored_due(hub: Tables, table_id: int) -> datetime | None:
    with hub.db.open() as s:
        due = s.scalars(select(Table.due_at).where(Table.id == table_id)).one()
    return None if due is None else due.replace(tzinfo=due.tzinfo or UTC)


def test_an_idle_running_table_rests_out_of_memory_and_comes_back_intact(hub: Tables):
    """Issue 26: a running turn-based table waiting days for a move stayed in memory."""
    table_id = started_table(hub)
    live = hub.get(table_id)
    for _ in range(3):
        assert live.state is not None
        move = str(live.state.legal_actions()[0])
        hub.submit(table_id, live.state.to_move, live.moves_made + 1, move)
    now = datetime.now(UTC)
    assert hub.rest_idle(now) == []  # just played: not idle
    later = now + timedelta(seconds=hub.idle_seconds + REST_EVERY_SECONDS)
    assert hub.rest_idle(later) == [table_id]
    assert live.gone and table_id not in [t.id for t in hub.held()]
    assert stored_due(hub, table_id) is None  # no clock: nothing can run out
    again = hub.get(table_id)  # opened again: rebuilt from its log, and kept
    assert again is not live and again.status == "running"
    assert again.moves_made == live.moves_made == 3
    assert again.state is not None and live.state is not None
    assert again.state.to_json() == live.state.to_json()
    assert [t.id for t in hub.held()] == [table_id]
    hub.submit(table_id, again.state.to_move, 4, str(again.state.legal_actions()[0]))
    assert again.moves_made == 4


def test_a_watched_table_or_one_a_bot_is_to_play_does_not_rest(hub: Tables):
    table_id = started_table(hub)
    live = hub.get(table_id)
    later = datetime.now(UTC) + timedelta(seconds=hub.idle_seconds + REST_EVERY_SECONDS)

    async def watched() -> list[int]:
        watcher = listening(live, 1)
        hub.subscribe(live, watcher)
        rested = hub.rest_idle(later)
        hub.unsubscribe(live, watcher)
        return rested

    assert run_alone(watched()) == []
    live.seats[0] = (live.seats[0][0], "easy")  # a bot to play: it is about to move
    hub.rest_at = later
    assert hub.rest_idle(later) == []
    assert table_id in [t.id for t in hub.held()]


def test_a_resting_table_is_woken_when_its_clock_runs_out(hub: Tables):
    clock = {"move_seconds": 60, "grace_seconds": 30}
    table_id = started_table(hub, mode="async", clock=clock)
    hub.idle_seconds = 10
    live = hub.get(table_id)
    start = live.clock.turn_since
    assert hub.rest_idle(start + timedelta(seconds=20)) == [table_id]
    assert stored_due(hub, table_id) == start + timedelta(seconds=90)  # 60 s and the grace
    assert hub.wake_due(start + timedelta(seconds=89)) == []
    assert table_id not in [t.id for t in hub.held()]
    assert hub.wake_due(start + timedelta(seconds=91)) == [table_id]
    assert stored_due(hub, table_id) is None  # held again: its clock is watched in memory
    woken = hub.get(table_id)
    assert woken is not live and woken.seats[0][1] is None
    hub.check_clocks(start + timedelta(seconds=91))
    assert woken.seats[0][1] == "easy"  # the person's time ran out: the bot plays the seat


def test_news_of_a_resting_table_brings_it_back_to_its_host(hub: Tables):
    """Moved through another process, a resting table's due time may have come forward:
    its host holds it again to watch its clock from the new position."""
    table_id = started_table(hub)
    later = datetime.now(UTC) + timedelta(seconds=hub.idle_seconds + REST_EVERY_SECONDS)
    assert hub.rest_idle(later) == [table_id]
    hub.follow(table_id, LINE)
    deadline = time.monotonic() + 10
    while hub.watched(table_id) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert hub.watched(table_id) is not None


class HostedElsewhere(Alone):
    """A cluster in which another process hosts every table."""

    def hosts(self, table_id: int) -> bool:
        return False


def test_a_table_hosted_elsewhere_and_unwatched_is_let_go_at_its_news(hub: Tables):
    """Issue 26: a table created or joined through a process that does not host it had
    every move applied there too, heard through the news, for nobody."""
    table_id = started_table(hub)
    live = hub.get(table_id)
    hub.cluster = HostedElsewhere()
    hub.follow(table_id, LINE)
    assert live.gone and hub.watched(table_id) is None

    again = hub.get(table_id)  # asked for again: read from the log

    async def watched_then_news() -> None:
        watcher = listening(again, 1)
        hub.subscribe(again, watcher)
        hub.follow(table_id, LINE)
        assert not again.gone  # someone here watches it: it follows the table
        hub.unsubscribe(again, watcher)

    run_alone(watched_then_news())


class Channels(HostedElsewhere):
    """A cluster that records which tables the process says it holds."""

    def __init__(self) -> None:
        self.held: set[int] = set()

    def hold(self, table_id: int) -> None:
        self.held.add(table_id)

    def let_go(self, table_id: int) -> None:
        self.held.discard(table_id)


def test_a_process_hears_exactly_the_tables_in_its_memory(hub: Tables):
    """Issue 26: news of a table reaches a process only while it holds the table (or hosts
    it), so the table map and the channels heard must never drift apart."""
    hub.cluster = channels = Channels()
    table_id = started_table(hub)
    assert channels.held == {table_id}
    hub.follow(table_id, LINE)  # hosted elsewhere, watched by nobody: let go
    assert channels.held == set()
    live = hub.get(table_id)

    async def watched() -> None:
        watcher = listening(live, 0)
        hub.subscribe(live, watcher)
        assert channels.held == {table_id}
        hub.unsubscribe(live, watcher)

    run_alone(watched())
    hub.follow(table_id, LINE)
    assert channels.held == set() and hub.watched(table_id) is None


def test_a_table_that_begins_to_be_heard_reads_what_it_missed(hub: Tables, other: Tables):
    """News published before a process heard the table's channel reached nobody there:
    FRESH (the channel heard from now on) reads the log, and never lets the table go."""
    hub.cluster = HostedElsewhere()
    table_id = started_table(hub)
    live = hub.get(table_id)
    elsewhere = other.get(table_id)
    assert elsewhere.state is not None and elsewhere.state.to_move is not None
    seat, action = elsewhere.state.to_move, str(elsewhere.state.legal_actions()[0])
    run_alone(other.play(elsewhere, seat, 1, action, None))
    assert live.moves_made == 0  # its news was sent before this process heard the table
    hub.follow(table_id, FRESH)
    deadline = time.monotonic() + 10
    while live.moves_made == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert live.moves_made == 1 and not live.gone


def test_a_table_that_begins_to_be_heard_reads_the_chat_it_missed(hub: Tables, other: Tables):
    """The chat's news, too, may have gone out before this process heard the table (CI
    found it: a line said on one process just as a socket opened on the other)."""
    hub.cluster = HostedElsewhere()
    table_id = started_table(hub)
    live = hub.get(table_id)
    with hub.db.open() as s:
        host = s.get(User, live.seats[0][0])
    assert host is not None
    chat.say(other, table_id, host, "said before this process listened")
    assert [line["text"] for line in live.chat] == []
    hub.follow(table_id, FRESH)
    deadline = time.monotonic() + 10
    while not live.chat and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [line["text"] for line in live.chat] == ["said before this process listened"]


def test_the_clocks_look_only_at_tables_that_changed_or_whose_time_is_up(hub: Tables):
    """Issue 26: the clock's look, twice a second, went through every table held, whether
    it moved or not; at 10,000 open tables that doubled the CPU of every move."""
    quiet = [started_table(hub, str(n)) for n in range(20)]
    timed = started_table(hub, clock={"move_seconds": 10, "grace_seconds": 5})
    start = hub.get(timed).clock.turn_since
    assert hub.check_clocks(start) == 21  # every table new to memory, once
    assert hub.check_clocks(start + timedelta(seconds=1)) == 0
    moved = hub.get(quiet[3])
    assert moved.state is not None and moved.state.to_move is not None
    seat, action = moved.state.to_move, str(moved.state.legal_actions()[0])
    hub.submit(quiet[3], seat, 1, action)
    assert hub.check_clocks(start + timedelta(seconds=2)) == 1  # the table that moved
    assert hub.check_clocks(start + timedelta(seconds=14)) == 0  # 10 s and the grace: not yet
    assert hub.get(timed).seats[0][1] is None
    assert hub.check_clocks(start + timedelta(seconds=16)) == 1
    assert hub.get(timed).seats[0][1] == "easy"  # its person's time ran out
    assert hub.check_clocks(start + timedelta(seconds=17)) <= 1  # the bot's think, if it ended
    assert hub.check_clocks(start + timedelta(seconds=61)) == 21  # the minute's safety net
