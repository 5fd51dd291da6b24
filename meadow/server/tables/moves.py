"""The move path: a move proposed, its line committed to the log, then settled (or
withdrawn); and an undo, which is a line of the log too.

Under the table's lock `_propose` checks the move number the client expected (a stale or
repeated submission gets 409 and is never applied twice), the seat, and legality (on a copy
of the state), and starts committing the move's line, which the table holds as pending.
Once the line is in the log, `_settle` swaps in the new state and has everyone told. The
lock is never held while waiting for a commit.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from sqlalchemy.exc import IntegrityError

from meadow.core.game import State
from meadow.core.rng import Rng
from meadow.core.undo import why_not_undoable
from meadow.server import metrics, outbound
from meadow.server.cluster import LINE
from meadow.server.errors import ApiError
from meadow.server.live import UNDO, Entry, Listener, LiveTable
from meadow.server.movelog import Taken, write_line
from meadow.server.ratings import rate
from meadow.store.writer import Done, Waiter, WriterClosed

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables


@dataclass
class Proposal:
    """A move checked and applied to a copy of the state, its line being committed."""

    live: LiveTable
    entry: Entry
    after: State
    now: datetime
    mover: Listener | None = None  # the socket it came on: its news carries the ack
    started: float = field(default_factory=time.perf_counter)  # for the move's latency


class MovePath:
    """The one path of a move, from whoever makes it: an HTTP route, a socket, a bot."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def submit(
        self,
        table_id: int,
        seat: int,
        expected: int,
        text: str,
        note: str | None = None,
        bot: str | None = None,
    ) -> tuple[State, Entry]:
        """Apply one move for `seat` if `expected` is the next move number; returns the
        state after it (never changed again: later moves apply to copies) and its log line,
        for a caller that answers the mover with more than an acknowledgement. Waits for
        the commit: for worker threads (HTTP routes, bots). `bot`: the bot that chose the
        move, which must still play the seat (its person may have taken it back while it
        thought).

        Raises:
            ApiError: 409 for a stale or repeated move number or a table not running,
                403 for another seat's turn.
            NotationError, IllegalAction: the engine's reason (400 / 422).
        """
        live = self.hub.memory.get(table_id)
        committed = Waiter()
        proposal = self._propose(live, seat, expected, text, note, committed, bot=bot)
        assert proposal is not None  # a worker thread may read the log
        failure: BaseException | None = None
        try:
            committed.wait()
        except BaseException as exc:
            failure = exc
        self._conclude(proposal, failure)
        return proposal.after, proposal.entry

    async def play(
        self, live: LiveTable, seat: int, expected: int, text: str, mover: Listener
    ) -> bool:
        """`submit` on the event loop, for a move sent on a table's socket (`mover`, the
        socket's listener): nothing here waits on the database or a lock held across a
        commit, so the loop serves other tables while this move's line is committed with
        theirs. True when the move's news to `mover` carried its acknowledgement (one
        frame, not two); False when the news went out without it (read back from the log
        first) and the caller must acknowledge the move itself.

        The move is settled (or withdrawn) by the commit's own callback on the loop, not
        by this coroutine: a caller that stops waiting (its connection cancelled by a
        server stopping) leaves no table pending."""
        loop = asyncio.get_running_loop()
        settled: asyncio.Future[bool] = loop.create_future()

        def committed(failure: BaseException | None) -> None:
            if failure is not None and self.hub.cluster.shared:
                # Taken: catch up with the other process's lines, off the loop.
                withdrawing = loop.run_in_executor(None, self._withdraw, live, expected, failure)
                withdrawing.add_done_callback(lambda w: _resolve(settled, w.exception()))
                return
            try:
                assert proposal is not None  # the writer has its line only if there is one
                acked = self._conclude(proposal, failure)
            except BaseException as exc:
                _resolve(settled, exc)
            else:
                _resolve(settled, None, acked)

        def done(failure: BaseException | None) -> None:  # on the log writer's thread
            loop.call_soon_threadsafe(committed, failure)

        proposal = self._propose(live, seat, expected, text, None, done, False, mover)
        if proposal is None:  # another process may have logged moves: read them, off the loop
            await asyncio.to_thread(self.submit, live.id, seat, expected, text)
            return False
        return await settled

    def _propose(
        self,
        live: LiveTable,
        seat: int,
        expected: int,
        text: str,
        note: str | None,
        done: Done,
        may_read: bool = True,
        mover: Listener | None = None,
        bot: str | None = None,
    ) -> Proposal | None:
        """Check a move and apply it to a copy of the state, then start committing its line
        (`done` hears when it is committed); the table holds it as pending until `_settle`
        or `_withdraw`. `mover`: the socket it came on. None when, in a cluster, the log
        must be read first and `may_read` is False."""
        with live.lock:
            if expected != live.moves_made + 1 and self.hub.cluster.shared and live.pending is None:
                if not may_read:
                    return None
                self.hub.news.catch_up(live)  # another process may have logged moves meanwhile
            _check_turn(live, seat, expected, "move")
            if bot is not None and live.seats[seat][1] != bot:
                raise ApiError(409, f"seat {seat} is no longer played by bot {bot}")
            state = live.state
            assert state is not None
            action = state.parse_action(text)
            after = state.clone()
            events = after.apply(action)
            # A seat's first decision after a bot took it, or its person took it back.
            note = note or live.takeover_notes.get(seat)
            entry = Entry(expected, seat, str(action), events, note)
            now = self._write(live, entry, done, after if after.is_over else None)
            live.pending = expected
            return Proposal(live, entry, after, now, mover)

    def _conclude(self, proposal: Proposal, failure: BaseException | None) -> bool:
        """The commit's outcome: the move stands, or (raising) it is withdrawn. True when
        the mover's news carried the acknowledgement."""
        if failure is not None:
            self._withdraw(proposal.live, proposal.entry.number, failure)
        return self._settle(proposal)

    def _settle(self, proposal: Proposal) -> bool:
        """The move's line is committed: it stands, and everyone hears of it. True when
        the mover's news carried the acknowledgement."""
        hub = self.hub
        live, entry = proposal.live, proposal.entry
        counted = metrics.of_game(live.game.id)
        counted.moves.inc()
        acked = False
        with live.lock:
            live.pending = None
            # Unless a catch-up meanwhile read this very line back from the log.
            if live.moves_made == entry.number - 1:
                live.clock.charge(entry.seat, proposal.now)
                if proposal.after.is_over:
                    live.status = "finished"
                live.state = proposal.after
                if entry.note is not None and live.takeover_notes.get(entry.seat) == entry.note:
                    del live.takeover_notes[entry.seat]  # said once, with this line
                hub.memory.remember(live, entry)
                acked = hub.telling.tell(live, entry, proposal.mover)
        counted.move_seconds.observe(time.perf_counter() - proposal.started)
        hub.cluster.publish(live.id, LINE)
        hub.news.unhost_if_over(live)
        hub.bots.schedule(live)
        hub.telling.mail_if_async(live)
        return acked

    def _withdraw(self, live: LiveTable, number: int, failure: BaseException) -> NoReturn:
        """The line was not committed: the table is as before it, and the caller is told."""
        with live.lock:
            live.pending = None
        if isinstance(failure, Taken | IntegrityError):
            if self.hub.cluster.shared:
                self.hub.news.catch_up(live)  # the other writer was another process
            raise ApiError(409, f"number {number} was taken meanwhile", move=number) from None
        if isinstance(failure, WriterClosed):
            raise ApiError(503, "the server is restarting: not recorded, try again") from None
        raise failure

    def undo(self, table_id: int, seat: int, expected: int) -> dict[str, Any]:
        """Take back the seat's last move, within its own turn: only while the seat is still
        to move, only its own move (never across another seat's), and only a move that
        revealed nothing and used no chance (its events say so). The undo is itself a line
        of the log, numbered like a move; the log is never rewritten.

        Raises:
            ApiError: 409 for a stale number or a game not running, 403 when the rule
                forbids this undo (with the reason).
        """
        hub = self.hub
        live = hub.memory.get(table_id)
        with live.lock:
            _check_turn(live, seat, expected, "undo")
            last = live.standing[-1] if live.standing else None
            if last is None or last.seat != seat:
                raise ApiError(403, "nothing of yours to undo this turn")
            why_not = _why_not_undoable(live, last)
            if why_not is not None:
                raise ApiError(403, f"move {last.number} stands: {why_not}")
            entry = Entry(expected, seat, UNDO, [], f"undo of move {last.number}", last.number)
            committed = Waiter()
            now = self._write(live, entry, committed)
            live.pending = expected
        try:
            committed.wait()
        except BaseException as failure:
            self._withdraw(live, expected, failure)
        metrics.of_game(live.game.id).moves.inc()
        with live.lock:
            live.pending = None
            if live.moves_made == expected - 1:
                live.clock.charge(seat, now)
                live.standing.pop()
                live.log.append(entry)
                live.rebuild()
                hub.looks.ask(live.id)
                hub.telling.tell(live, entry)
            assert live.state is not None
            answer = outbound.undo_message(live.state, seat, expected, seat, last.number)
        hub.cluster.publish(live.id, LINE)
        return answer

    def _write(
        self, live: LiveTable, entry: Entry, done: Done, final: State | None = None
    ) -> datetime:
        """Start committing a line; it is acknowledged only once `done` hears it committed.
        `final`: the state the line ends the game in (the ratings change in the same
        transaction). Returns the line's time."""
        now = datetime.now(UTC)
        used = live.clock.used_ms[entry.seat] + _ms(now - live.clock.turn_since)
        ratings = None
        # The game ends: its ratings change with this line (a table with hints is not rated).
        if final is not None and not live.hints:
            ratings = partial(
                rate, game_id=live.game.id, seats=list(live.seats), final=final, table_id=live.id
            )
        write_line(
            self.hub.writer,
            table=live.id,
            number=entry.number,
            seat=entry.seat,
            action=entry.action,
            note=entry.note,
            now=now,
            used_ms=used,
            status="finished" if final is not None else live.status,
            done=done,
            also=ratings,
        )
        return now


def _check_turn(live: LiveTable, seat: int, expected: int, what: str) -> None:
    """May `seat` log line `expected` now? (Under the table's lock.)"""
    if live.status != "running" or live.state is None:
        raise ApiError(409, f"the game is {live.status}, no {what} now", move=live.moves_made)
    if live.pending is not None:
        raise ApiError(
            409,
            f"{what} {expected}: move {live.pending} is being recorded",
            move=live.moves_made,
        )
    if expected != live.moves_made + 1:
        raise ApiError(
            409,
            f"{what} {expected} is not the next number: {live.moves_made} made so far",
            move=live.moves_made,
        )
    if live.state.to_move != seat:
        if what == "undo":
            raise ApiError(403, "undo only within your own turn")
        raise ApiError(403, f"it is not your turn (seat {live.state.to_move} is to move)")


def _why_not_undoable(live: LiveTable, last: Entry) -> str | None:
    """The one rule of `meadow.core.undo`, for the table's last standing move; a game's flag
    saves the work when it is set."""
    if any(event.reveals for event in last.events):
        return "it revealed something or used chance"
    before = live.state_before_last()
    # The worlds are drawn from public facts only, so that asking again answers the same.
    worlds = Rng((live.id << 32) | (last.number & 0xFFFFFFFF))
    return why_not_undoable(before, before.parse_action(last.action), worlds)


def _ms(span: timedelta) -> int:
    return max(0, int(span.total_seconds() * 1000))


def _resolve(
    future: asyncio.Future[bool], failure: BaseException | None, acked: bool = False
) -> None:
    """Tell a waiting coroutine its move's outcome, unless it stopped waiting."""
    if future.done():
        return
    if failure is not None:
        future.set_exception(failure)
    else:
        future.set_result(acked)
