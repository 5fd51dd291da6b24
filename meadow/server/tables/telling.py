"""Telling listeners: what each socket of a table hears, built from its seat's view only
(`outbound`), and the e-mail of an async table's next player.

A listener hears a sync when it subscribes (everything since the move it asks from), then
each line as its seat sees it. One message is built per seat, however many listen as that
seat; the mover's own socket hears its move with `"ack": true`, its answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meadow.core.game import State
from meadow.server import chat, outbound
from meadow.server.live import Entry, Listener, LiveTable, encode
from meadow.store import User

if TYPE_CHECKING:
    from meadow.server.tables.hub import Tables


class Telling:
    """The news of this process's tables, to the sockets listening here."""

    def __init__(self, hub: Tables) -> None:
        self.hub = hub

    def tell(self, live: LiveTable, entry: Entry, mover: Listener | None = None) -> bool:
        """Every listener of this process hears of a new line, each as its seat sees it;
        one message per seat, however many listen as that seat (spectators, second tabs).
        A socket that holds its seat's view of the move before hears the view's patch, any
        other (its seat changed, or no view of that move was kept) the whole view. The
        socket the line came on (`mover`) hears it with `"ack": true`, its answer; True
        when it was among the listeners."""
        assert live.state is not None
        told: dict[int | None, _Told] = {}
        acked = False
        for listener in live.listeners:
            seat = live.seat_of(listener.user_id)
            news = told.get(seat)
            if news is None:
                news = told[seat] = _Told(live.state, seat, entry, live.views.get(seat))
            patched = listener.seen == (seat, entry.number - 1)
            listener.seen = (seat, entry.number)
            if listener is mover:
                listener.send({**news.message(patched), "ack": True})
                acked = True
                continue
            listener.send_text(news.text(patched))
        # Only the seats heard now: a seat nobody hears gets the whole view when heard again.
        live.views = {seat: (entry.number, news.view) for seat, news in told.items()}
        return acked

    def seat_changed(
        self, live: LiveTable, seat: int, bot: str | None, reason: str | None = None
    ) -> None:
        """Every listener here hears that a bot took `seat`, or (`bot` None) its person took
        it back; `reason` as the log gives it."""
        fields: dict[str, Any] = {"seat": seat, "bot": bot}
        if reason is not None:
            fields["reason"] = reason
        for listener in live.listeners:
            listener.send(outbound.message("seat", **fields))

    def sync(
        self,
        live: LiveTable,
        seat: int | None,
        since: int = 0,
        muted: frozenset[int] = frozenset(),
    ) -> dict[str, Any]:
        """Everything since move `since` for one recipient: the events of each move, where
        the game stands now, and the latest chat but what the recipient muted."""
        with live.lock:
            moves = [outbound.log_line(entry, seat) for entry in live.log[max(0, since) :]]
            fields: dict[str, Any] = {
                "table": live.id,
                "status": live.status,
                "moves": moves,
                "chat": chat.readable(live.chat, muted),
            }
            if live.state is not None:
                fields.update(outbound.position(live.state, seat, live.moves_made))
                live.views[seat] = (live.moves_made, fields["view"])  # the next line patches it
            return outbound.message("sync", **fields)

    def subscribe(self, live: LiveTable, listener: Listener, since: int = 0) -> LiveTable:
        """A listener hears everything since move `since` (a sync), then each line: both
        under the lock, so that no line is missed or told before the sync. Returns the
        table it listens to: `live`, or the table read anew if `live` left memory."""
        while True:
            if not live.gone:
                live = self.hub.memory.keep(live)  # a table read but not kept is kept now
            with live.lock:
                if not live.gone:
                    live.listeners.append(listener)
                    seat = live.seat_of(listener.user_id)
                    listener.send(self.sync(live, seat, since, listener.muted))
                    listener.seen = _seen(live, seat)
                    return live
            live = self.hub.news.current(live.id)

    def unsubscribe(self, live: LiveTable, listener: Listener) -> None:
        with live.lock:
            if listener in live.listeners:
                live.listeners.remove(listener)
        self.hub.memory.forget_if_done(live)

    def table_changed(self, live: LiveTable) -> None:
        """Seats or status changed: this process's listeners get a sync, the others news."""
        self.announce_table(live)
        self.hub.cluster.publish(live.id)

    def announce_table(self, live: LiveTable) -> None:
        """Every listener here hears a sync of the table as it stands."""
        with live.lock:
            for listener in live.listeners:
                seat = live.seat_of(listener.user_id)
                listener.send(self.sync(live, seat, live.moves_made, listener.muted))
                listener.seen = _seen(live, seat)

    def mail_if_async(self, live: LiveTable) -> None:
        """Async tables: tell the person whose move it now is, if they asked for e-mail."""
        mailer = self.hub.mailer
        if mailer is None or not mailer.on or live.mode != "async":
            return
        seat = live.state.to_move if live.state else None
        if seat is None or live.seats[seat][1] is not None or live.seats[seat][0] is None:
            return
        # Looking the person up touches the database: not on the caller's (maybe the event
        # loop's) time.
        mailer.later(self._mail_your_turn, live.seats[seat][0], live.game.title, live.id)

    def _mail_your_turn(self, user_id: int, title: str, table_id: int) -> None:
        mailer = self.hub.mailer
        assert mailer is not None
        with self.hub.db.open() as s:
            person = s.get(User, user_id)
            if person is None or not person.notify or not person.email:
                return
            if not person.email_confirmed:  # nobody proved the address theirs yet
                return
            mailer.your_turn(person.email, person.name, title, table_id)


def _seen(live: LiveTable, seat: int | None) -> tuple[int | None, int] | None:
    """What a socket just sent a sync holds: its seat's view of the present, if any."""
    return None if live.state is None else (seat, live.moves_made)


class _Told:
    """A line's news for one seat (or every spectator): the seat's view built once, the
    message with the whole view and, when the seat's view of the move before was kept, the
    message with the view's patch; each encoded once, when first wanted."""

    def __init__(
        self, state: State, seat: int | None, entry: Entry, before: tuple[int, Any] | None
    ) -> None:
        self.view = state.view(seat)
        self.full = _news(state, seat, entry, self.view)
        self.patched: dict[str, Any] | None = None
        # An undo sends the whole view: the page rebuilds its position from it.
        if before is not None and before[0] == entry.number - 1 and entry.undoes is None:
            self.patched = outbound.patched(self.full, before[1])
        self.texts: dict[bool, str] = {}

    def message(self, patched: bool) -> dict[str, Any]:
        return self.patched if patched and self.patched is not None else self.full

    def text(self, patched: bool) -> str:
        patched = patched and self.patched is not None
        text = self.texts.get(patched)
        if text is None:
            text = self.texts[patched] = encode(self.message(patched))
        return text


def _news(state: State, seat: int | None, entry: Entry, view: dict[str, Any]) -> dict[str, Any]:
    if entry.undoes is not None:
        return outbound.undo_message(state, seat, entry.number, entry.seat, entry.undoes, view)
    return outbound.move_message(
        state, seat, entry.number, entry.seat, entry.action, entry.events, entry.note, view
    )
