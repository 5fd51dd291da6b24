"""Bots at tables: when a bot is asked to move, its thinking in a worker process, its move
through the one move path, and a bot taking a person's seat.

Bots think in other processes (a search holds the interpreter for its whole budget); a
thread per worker waits for the answer and submits it like any player's move, so a bot too
is one move at a time. Only the process that hosts a table asks its bots.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from sqlalchemy import update

from meadow.core.errors import MeadowError
from meadow.server import metrics
from meadow.server.errors import ApiError
from meadow.server.live import LiveTable
from meadow.server.thinking import think
from meadow.store import Seat

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables

log = logging.getLogger("meadow.server")


class BotsAtTables:
    """The bots of the tables hosted here."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def schedule(self, live: LiveTable) -> None:
        """Ask the bot to move if it is a bot's turn at a table hosted here, once a move."""
        hub = self.hub
        with live.lock:
            if hub.handing_over or live.status != "running" or live.state is None:
                return
            if live.pending is not None:
                return  # scheduled again once the pending line is settled
            if not hub.cluster.hosts(live.id):
                return  # another process hosts this table's bots
            seat = live.state.to_move
            if seat is None or live.seats[seat][1] is None:
                return
            expected = live.moves_made + 1
            if live.bot_asked == expected:
                return  # already thinking about it
            live.bot_asked = expected
        metrics.BOTS_QUEUED.inc()
        hub.bot_threads.submit(self._bot_move, live, seat, expected)

    def take_over(self, live: LiveTable, seat: int, reason: str) -> None:
        """The table's takeover bot plays `seat` from now on (under the table's lock); the
        log says so with the bot's first move."""
        bot = live.takeover_bot
        with self.hub.db.write() as s:
            s.execute(
                update(Seat).where(Seat.table_id == live.id, Seat.number == seat).values(bot=bot)
            )
            s.commit()
        user, _ = live.seats[seat]
        live.seats[seat] = (user, bot)
        note = f"bot {bot} took seat {seat}: its player {reason}"
        live.takeover_notes[seat] = note
        log.info("table %s: %s", live.id, note)
        self.hub.telling.seat_changed(live, seat, bot, reason)
        self.hub.cluster.publish(live.id)

    def give_seat_to_bot(self, table_id: int, seat: int, user_id: int, reason: str) -> bool:
        """The takeover bot plays the seat of a running game at once, as on a time-out, if
        this process hosts the table and `user_id` still plays the seat (its person was
        banned, or deleted the account: `moderation`). True if it was handed over here."""
        if not self.hub.cluster.hosts(table_id):
            return False
        live = self.hub.memory.get(table_id)
        with live.lock:
            if live.status != "running" or live.seats[seat] != (user_id, None):
                return False
            self.take_over(live, seat, reason)
        self.schedule(live)
        return True

    def _bot_move(self, live: LiveTable, seat: int, expected: int) -> None:
        metrics.BOTS_QUEUED.dec()
        try:
            self._think_and_play(live, seat, expected)
        finally:
            with live.lock:
                if live.bot_asked == expected:
                    live.bot_asked = None  # asked again at the next look if still its turn
            self.hub.looks.ask(live.id)
            self.hub.memory.forget_if_done(live)  # the bot's move may have ended the game

    def _think_and_play(self, live: LiveTable, seat: int, expected: int) -> None:
        hub = self.hub
        with live.lock:
            bot_name = live.seats[seat][1]
            if live.state is None or live.moves_made + 1 != expected or bot_name is None:
                return
            state = live.state.to_json()
        try:
            limit = hub.bot_rules.max_seconds
            started = time.perf_counter()
            with metrics.BOTS_THINKING.track_inprogress():
                future = hub.thinkers.submit(think, live.game.id, state, seat, bot_name, limit)
                thought = future.result()
            metrics.of_game(live.game.id).think_seconds.observe(time.perf_counter() - started)
            if thought.overran:
                log.warning(
                    "table %s: bot %s overran its %g s at move %s and was stopped; "
                    "a random legal move was played for it",
                    live.id,
                    bot_name,
                    limit,
                    expected,
                )
            if hub.handing_over:
                return  # the table's new host thinks again for it
            hub.moves.submit(live.id, seat, expected, thought.move, bot=bot_name)
        except (ApiError, MeadowError) as exc:  # the table moved on meanwhile
            log.info("table %s: bot move %s not played: %s", live.id, expected, exc)
        except Exception:
            if hub.handing_over:  # its thinker stopped with the process
                log.info("table %s: bot move %s left to the next host", live.id, expected)
                return
            log.exception("table %s: bot %s failed at move %s", live.id, bot_name, expected)
