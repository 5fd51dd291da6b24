"""Seats and the waiting room: a table is created, people join and leave it, its host
starts it; later a person takes back a seat a bot took, and the people of a finished game
ask for a rematch.

Each step is decided under a lock on the table's row (`_locked`), so that steps at once,
through any process, are decided one after another by the database.
"""

from __future__ import annotations

import logging
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session as DbSession

from meadow import games
from meadow.core.rng import new_seed
from meadow.server.errors import ApiError
from meadow.server.live import LiveTable
from meadow.server.tables.memory import from_row
from meadow.store import Seat, Table, User

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables

log = logging.getLogger("meadow.server")


class Seating:
    """The steps of a table before and around its game."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def create(
        self,
        host: User,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seats: list[str | None],
        mode: str,
        clock: dict[str, Any] | None = None,
        most_open: int | None = None,
        private: bool = False,
        hints: bool = False,
        seed: int | None = None,
        kept_for: int | None = None,
    ) -> int:
        """A new open table; `seats` holds a bot name per seat, None for a person. The host
        takes the first seat for a person. `clock`: move_seconds or game_seconds,
        grace_seconds, and the takeover bot. `most_open`: how many open tables one person
        may host (409 past it), counted under a lock on the host's row so that creates at
        once, through any process, never pass it together. `private`: listed nowhere, reached
        only through its invitation. `hints`: the coach suggests moves on request, and the game
        is not rated. `seed`: a deal chosen in advance (a guided first game's), else a new one.
        `kept_for`: a person the first seat for a person after the host's is kept for."""
        bot_rules = self.hub.bot_rules
        clock = clock or {}
        game = games.get(game_id)
        if players not in game.player_counts:
            raise ApiError(
                400, f"{game.title} is for {game.min_players}-{game.max_players} players"
            )
        checked = game.options(players, options).model_dump(mode="json")
        if len(seats) != players:
            raise ApiError(400, f"{players} players need {players} seats, not {len(seats)}")
        seats = [None if bot is None else bot_rules.check(bot, game.id) for bot in seats]
        if mode not in ("live", "async"):
            raise ApiError(400, f"mode {mode!r}: a table is 'live' or 'async'")
        takeover = bot_rules.check(clock.get("takeover_bot") or "easy", game.id)
        with self.hub.db.write() as s:
            if most_open is not None:
                _check_open_tables(s, host.id, most_open)
            table = Table(
                game=game.id,
                options=checked,
                players=players,
                seed=str(new_seed() if seed is None else seed),
                mode=mode,
                invite=secrets.token_urlsafe(12),
                host_id=host.id,
                move_seconds=clock.get("move_seconds"),
                game_seconds=clock.get("game_seconds"),
                grace_seconds=clock.get("grace_seconds", 30),
                takeover_bot=takeover,
                private=private,
                hints=hints,
            )
            host_seated = False
            keep = kept_for
            for number, bot in enumerate(seats):
                user_id = reserved = None
                if bot is None and not host_seated:
                    user_id, host_seated = host.id, True
                elif bot is None and keep is not None:
                    reserved, keep = keep, None
                table.seats.append(
                    Seat(number=number, user_id=user_id, bot=bot, reserved_for=reserved)
                )
            if keep is not None:
                raise ApiError(400, "no seat for a person is left to keep: make one a person's")
            s.add(table)
            s.commit()
            live = from_row(table)  # the joins and the start to come need not read it back
        self.hub.memory.keep(live)
        return live.id

    def join(self, table_id: int, user: User) -> int:
        """Seat a person at the seat kept for them (a rematch), else at the first free seat
        for a person of an open table that is kept for nobody else."""
        live = self.hub.memory.get(table_id)
        with live.lock:
            with self.hub.db.write() as s:
                table = _locked(s, table_id)
                _refuse_unless_open(table)
                _seats_as_stored(live, table)
                if live.seat_of(user.id) is not None:
                    raise ApiError(409, "you already have a seat at this table")
                empty = [t for t in table.seats if t.user_id is None and t.bot is None]
                kept = [t.number for t in empty if t.reserved_for == user.id]
                free = kept or [t.number for t in empty if t.reserved_for is None]
                if not free:
                    if empty:
                        raise ApiError(409, "the free seats are kept for the last game's players")
                    raise ApiError(409, "every seat is taken")
                number = free[0]
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(user_id=user.id)
                )
                table.updated_at = datetime.now(UTC)
                s.commit()
            live.seats[number] = (user.id, None)
        self.hub.telling.table_changed(live)
        return number

    def leave(self, table_id: int, user: User) -> None:
        """Give up one's seat: at an open table it is free again (the host leaving closes
        the table: its status becomes "abandoned"); in a running game a bot takes it after
        the grace period."""
        hub = self.hub
        live = hub.memory.get(table_id)
        with live.lock:
            with hub.db.write() as s:
                table = _locked(s, table_id)
                number = next((t.number for t in table.seats if t.user_id == user.id), None)
                if number is None:
                    raise ApiError(409, "you have no seat at this table")
                status = table.status
                if status not in ("open", "running"):
                    raise ApiError(409, f"the game is {status}")
                now = datetime.now(UTC)
                change = {"user_id": None} if status == "open" else {"left_at": now}
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(**change)
                )
                table.updated_at = now
                if status == "open" and table.host_id == user.id:
                    table.status = "abandoned"
                s.commit()
            if status == "running":
                if live.status != "running":  # started through another process
                    hub.news.catch_up(live)
                live.clock.left_at[number] = now
                hub.looks.ask(live.id)
                hub.cluster.publish(live.id)
                return
            live.seats[number] = (None, None)
            live.status = table.status
        hub.telling.table_changed(live)

    def reclaim(self, table_id: int, user: User) -> int:
        """A person whose seat a bot took (time out, or leaving) takes it back: the bot stops
        at once, the person plays from the next decision, and the log says so with that
        decision. A turn clock starts afresh for them; a game clock that ran out cannot be
        given back (409)."""
        hub = self.hub
        live = hub.memory.get(table_id)
        with live.lock:
            with hub.db.write() as s:
                table = _locked(s, table_id)
                if table.status != "running":
                    raise ApiError(409, f"the game is {table.status}: no seat to take back")
                number = next((t.number for t in table.seats if t.user_id == user.id), None)
                if number is None:
                    raise ApiError(409, "you have no seat at this table")
                if table.seats[number].bot is None:
                    raise ApiError(409, "you play your seat already")
                if live.clock.game_seconds is not None and (
                    live.clock.used_ms[number] >= live.clock.game_seconds * 1000
                ):
                    raise ApiError(409, "your time for the game is used up: the bot plays on")
                now = datetime.now(UTC)
                s.execute(
                    update(Seat)
                    .where(Seat.table_id == table_id, Seat.number == number)
                    .values(bot=None, left_at=None)
                )
                if live.state is not None and live.state.to_move == number:
                    table.turn_since = now  # a fresh turn clock, or the bot would be back
                    live.clock.turn_since = now
                s.commit()
            live.seats[number] = (user.id, None)
            live.clock.left_at[number] = None
            hub.looks.ask(live.id)
            log.info("table %s: %s took seat %s back from the bot", live.id, user.name, number)
            # The move log keeps no name: an erased account's name must leave every copy.
            note = f"its player took seat {number} back from the bot"
            # If the bot made no move meanwhile, its taking the seat is still to be logged.
            unsaid = live.takeover_notes.get(number)
            live.takeover_notes[number] = f"{unsaid}; {note}" if unsaid else note
            hub.telling.seat_changed(live, number, None, "reclaimed")
        hub.cluster.publish(live.id)
        return number

    def rematch(self, table_id: int, user: User) -> int:
        """The same game again for the people of a finished one: the first of them to ask
        hosts a new table with the same options, clocks, bots and privacy, each person's
        seat kept for them; whoever asks after is seated at theirs. Decided under the old
        table's row lock, so that two asking at once make one rematch, not two."""
        hub = self.hub
        with hub.db.write() as s:
            old = _locked(s, table_id)
            if old.status != "finished":
                raise ApiError(409, "a rematch follows a finished game")
            if all(seat.user_id != user.id for seat in old.seats):
                raise ApiError(403, "only the people who played this game may ask for a rematch")
            new_id = offered = old.rematch_id
            if offered is None:
                new = _again(old, user)
                s.add(new)
                s.flush()
                new_id = old.rematch_id = new.id
                s.commit()
        if offered is None:  # its pages offer the rematch at once, here and elsewhere
            watched = hub.memory.watched(table_id)
            if watched is not None:
                hub.telling.announce_table(watched)
            hub.cluster.publish(table_id)
        elif hub.news.current(new_id).seat_of(user.id) is None:
            self.join(new_id, user)
        return new_id

    def start(self, table_id: int, user: User) -> None:
        """The host starts the game once every seat is taken; this process hosts its bots
        and clocks."""
        hub = self.hub
        live = hub.memory.get(table_id)
        with live.lock:
            with hub.db.write() as s:
                table = _locked(s, table_id)
                if table.host_id != user.id:
                    raise ApiError(403, "only the host can start the game")
                _refuse_unless_open(table)
                _seats_as_stored(live, table)
                empty = [n for n, (u, bot) in enumerate(live.seats) if u is None and bot is None]
                if empty:
                    raise ApiError(409, f"seats {empty} are still empty")
                table.status = "running"
                table.updated_at = table.turn_since = datetime.now(UTC)
                s.commit()
            live.status = "running"
            live.clock.turn_since = table.turn_since
            live.state = live.game.setup(live.players, live.options, live.seed)
            hub.looks.ask(live.id)
        hub.news.host_here([live.id])  # its bots and clocks: here, where it started
        hub.telling.table_changed(live)
        hub.bots.schedule(live)


def _check_open_tables(s: DbSession, host_id: int, most: int) -> None:
    s.get(User, host_id, with_for_update=True)  # one host's creates, one after another
    hosting = s.scalars(
        select(Table.id).where(Table.host_id == host_id, Table.status == "open").limit(most)
    ).all()
    if len(hosting) >= most:
        raise ApiError(
            409,
            f"you host {most} open tables already ({', '.join(map(str, hosting))}), the most "
            "one person may: start one, or leave it to close it",
        )


def _again(old: Table, host: User) -> Table:
    """A finished table's rematch, hosted by `host`: its other people's seats kept."""
    table = Table(
        game=old.game,
        options=dict(old.options),
        players=old.players,
        seed=str(new_seed()),
        mode=old.mode,
        invite=secrets.token_urlsafe(12),
        host_id=host.id,
        move_seconds=old.move_seconds,
        game_seconds=old.game_seconds,
        grace_seconds=old.grace_seconds,
        takeover_bot=old.takeover_bot,
        # As public as the game before: watched in "Games to watch" if that one could be.
        # Its seats are kept, so the lobby's list of open tables does not offer it.
        private=old.private,
        hints=old.hints,
    )
    for seat in old.seats:
        person = seat.user_id
        table.seats.append(
            Seat(
                number=seat.number,
                bot=seat.bot if person is None else None,
                user_id=person if person == host.id else None,
                reserved_for=person if person not in (None, host.id) else None,
            )
        )
    return table


def _refuse_unless_open(table: Table) -> None:
    if table.status == "abandoned":
        raise ApiError(409, "this table was closed before its game began")
    if table.status != "open":
        raise ApiError(409, "the game has already started")


def _locked(s: DbSession, table_id: int) -> Table:
    """The table's row, locked until the transaction ends: joins, leaves and the start of
    one table are decided one after another by the database, whichever process serves
    them. (SQLite's writers already take the whole database, `Database.write`.)"""
    table = s.get(Table, table_id, with_for_update=True)
    if table is None:
        raise ApiError(404, f"there is no table {table_id}")
    return table


def _seats_as_stored(live: LiveTable, table: Table) -> None:
    """The seats as the database has them: in a cluster another process may have seated
    someone since this one last looked (the lobby's steps read them; moves never do)."""
    live.seats = [(seat.user_id, seat.bot) for seat in table.seats]
