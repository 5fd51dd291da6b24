"""Table clocks: time per decision or per seat for the whole game, and who has run out.

A person past the limit, plus a grace period, loses the seat to the table's takeover bot;
so does a person who left a running game, once the grace period has passed. The decisions
here are pure (given the time), so the tests can name the instant."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime, timedelta


@dataclass
class Clock:
    move_seconds: int | None
    game_seconds: int | None
    grace_seconds: int
    turn_since: datetime  # when the pending decision began
    used_ms: list[int] = field(default_factory=list)  # per seat, decisions before this one
    left_at: list[datetime | None] = field(default_factory=list)  # per seat

    @property
    def timed(self) -> bool:
        return self.move_seconds is not None or self.game_seconds is not None

    def charge(self, seat: int, now: datetime) -> int:
        """Book the time since the decision began to `seat`; the next one starts now.
        Returns the seat's time used so far, in milliseconds."""
        self.used_ms[seat] += max(0, int((now - self.turn_since).total_seconds() * 1000))
        self.turn_since = now
        return self.used_ms[seat]

    def overdue(self, to_move: int | None, now: datetime) -> dict[int, str]:
        """Seats a bot should take now, with the reason the log will give.

        >>> from datetime import UTC, datetime, timedelta
        >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
        >>> clock = Clock(60, None, 30, t0, [0, 0], [None, None])
        >>> clock.overdue(0, t0 + timedelta(seconds=89))
        {}
        >>> clock.overdue(0, t0 + timedelta(seconds=91))
        {0: 'ran out of time (60 s per move)'}
        """
        late: dict[int, str] = {}
        grace = self.grace_seconds
        for seat, left in enumerate(self.left_at):
            if left is not None and (now - left).total_seconds() > grace:
                late[seat] = "left the table"
        if to_move is None or to_move in late:
            return late
        thinking = (now - self.turn_since).total_seconds()
        if self.move_seconds is not None and thinking > self.move_seconds + grace:
            late[to_move] = f"ran out of time ({self.move_seconds} s per move)"
        used = self.used_ms[to_move] / 1000 + thinking
        if self.game_seconds is not None and used > self.game_seconds + grace:
            late[to_move] = f"ran out of time ({self.game_seconds} s for the game)"
        return late

    def due(self, to_move: int | None, seats: Collection[int] | None = None) -> datetime | None:
        """The first moment `overdue` may name a seat (one of `seats`, if given), if nothing
        is played meanwhile; None when nothing can run out. A table resting out of memory is
        woken then; one in memory is looked at then.

        >>> from datetime import UTC, datetime, timedelta
        >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
        >>> Clock(60, None, 30, t0, [0, 0], [None, None]).due(0) == t0 + timedelta(seconds=90)
        True
        >>> Clock(None, 600, 30, t0, [0, 590_000], [None, None]).due(1) - t0
        datetime.timedelta(seconds=40)
        >>> Clock(None, None, 30, t0, [0, 0], [None, t0]).due(0) - t0
        datetime.timedelta(seconds=30)
        >>> Clock(None, None, 30, t0, [0, 0], [None, None]).due(0) is None
        True
        >>> Clock(60, None, 30, t0, [0, 0], [t0, None]).due(1, seats={1}) - t0
        datetime.timedelta(seconds=90)
        >>> Clock(60, None, 30, t0, [0, 0], [t0, None]).due(0, seats={1}) is None
        True
        """
        grace = timedelta(seconds=self.grace_seconds)
        moments = [
            left + grace
            for seat, left in enumerate(self.left_at)
            if left is not None and (seats is None or seat in seats)
        ]
        if seats is not None and to_move not in seats:
            to_move = None
        if to_move is not None and self.move_seconds is not None:
            moments.append(self.turn_since + timedelta(seconds=self.move_seconds) + grace)
        if to_move is not None and self.game_seconds is not None:
            left_ms = self.game_seconds * 1000 - self.used_ms[to_move]
            moments.append(self.turn_since + timedelta(milliseconds=left_ms) + grace)
        return min(moments, default=None)
