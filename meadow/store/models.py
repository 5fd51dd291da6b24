"""The tables of the store. The move log is the truth of a game: a table's state is its
game, options, players and seed replayed through its moves in order."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, DateTime, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def now() -> datetime:
    return datetime.now(UTC)


def name_key(name: str) -> str:
    """What two names share when they are the same name to a person: `Alice` and `alice`,
    or `ａｌｉｃｅ` (full width) and `alice`. Unique among accounts."""
    return unicodedata.normalize("NFKC", name).casefold()


def _key_of_name(context: Any) -> str:
    return name_key(context.get_current_parameters()["name"])


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        datetime: DateTime(timezone=True),
    }


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    # `name_key(name)`; set from the name when an account is made (`#` and the id for
    # accounts that shared a key before keys were unique: migration 0006).
    name_key: Mapped[str] = mapped_column(String(60), unique=True, index=True, default=_key_of_name)
    password_hash: Mapped[str | None] = mapped_column(String(200))  # None: a guest
    email: Mapped[str | None] = mapped_column(String(200))  # for "your turn" notices
    notify: Mapped[bool] = mapped_column(default=False)
    # How the browser shows things to this person (`server.routers.accounts.Display`).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=now)
    # `email` proven by a link sent to it: notices and password resets go only to such an
    # address. A new address waits in `pending_email` until its link is followed, while the
    # old one keeps serving.
    email_confirmed: Mapped[bool] = mapped_column(default=False)
    pending_email: Mapped[str | None] = mapped_column(String(200))
    # When `email` was confirmed (None: before migration 0013, long ago): a reset waits a
    # day after a confirmation while the address it replaced may undo the change.
    email_confirmed_at: Mapped[datetime | None]
    is_admin: Mapped[bool] = mapped_column(default=False)  # may moderate (`meadow admin`)
    banned_at: Mapped[datetime | None]  # may not log in, join, chat or play
    # The person deleted the account (or an admin erased it): the row stays, with a neutral
    # name and nothing else, so that the games and chat it was part of still read whole.
    deleted_at: Mapped[datetime | None]


class Session(Base):
    """A signed-in browser: the cookie holds a random token, the page sends `csrf` back in a
    header on every request that changes something."""

    __tablename__ = "sessions"

    # The SHA-256 (hex) of the cookie's token, never the token: a copy of the database (a
    # backup, a read-only leak) opens no one's session.
    token_hash: Mapped[str] = mapped_column("token", String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=now)
    expires_at: Mapped[datetime]

    # Every request that finds a session wants its person: one query, not two.
    user: Mapped[User] = relationship(lazy="joined")


class Table(Base):
    """A game at the table: open (seats filling), running, finished or abandoned."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]
    players: Mapped[int]
    # Decimal text: seeds are unsigned 64-bit, wider than SQL integers. It never leaves the
    # server before the game is over.
    seed: Mapped[str] = mapped_column(String(24))
    mode: Mapped[str] = mapped_column(String(10))  # live | async
    status: Mapped[str] = mapped_column(String(10), default="open")
    invite: Mapped[str] = mapped_column(String(32), unique=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    moves_made: Mapped[int] = mapped_column(default=0)  # the last move number committed
    # Clocks (optional): seconds per decision, or per seat for the whole game; past them,
    # and `grace_seconds` more, the takeover bot plays the seat. Leaving does the same.
    move_seconds: Mapped[int | None]
    game_seconds: Mapped[int | None]
    grace_seconds: Mapped[int] = mapped_column(default=30)
    takeover_bot: Mapped[str] = mapped_column(String(40), default="easy")
    private: Mapped[bool] = mapped_column(default=False)  # never listed: the invitation only
    # Hints allowed (the coach suggests a move on request): shown to everyone, never rated.
    hints: Mapped[bool] = mapped_column(default=False)
    # The table its people were offered to play again at, once one of them asked for it.
    rematch_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="SET NULL"))
    turn_since: Mapped[datetime] = mapped_column(default=now)  # the pending decision began
    # A running table resting out of its host's memory (idle, nobody watching): when its
    # clock may next hand a seat to the bot, so that the host wakes it then. None: never,
    # or the table is in memory (its clock is watched there).
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)

    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.number", cascade="all, delete-orphan", back_populates="table"
    )


class Seat(Base):
    """One seat: a person (`user_id`), a bot (`bot`, a level or bot name), or still empty."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    bot: Mapped[str | None] = mapped_column(String(40))
    used_ms: Mapped[int] = mapped_column(default=0)  # thinking time used, for game clocks
    left_at: Mapped[datetime | None]  # the person left a running game
    # Held for this person (a rematch keeps each seat for whoever played it): nobody else
    # may take it.
    reserved_for: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # The seat's rating in this game before and after it ended (a person's, or the bot
    # level's), written with the ratings in the last move's transaction.
    rating_before: Mapped[float | None]
    rating_after: Mapped[float | None]
    # Hints this seat asked for (a table that allows them); the last one is kept for the
    # decision it was asked at (`hint_move`), so that asking again costs nothing.
    hints_used: Mapped[int] = mapped_column(default=0)
    hint_move: Mapped[int | None]
    hint: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    table: Mapped[Table] = relationship(back_populates="seats")
    user: Mapped[User | None] = relationship(foreign_keys=[user_id])
    reserved: Mapped[User | None] = relationship(foreign_keys=[reserved_for])


class Move(Base):
    """One decision, in the game's notation. Append-only; (table, number) is unique, so a
    move number can be taken once only, whichever process or request tries."""

    __tablename__ = "moves"
    __table_args__ = (UniqueConstraint("table_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    number: Mapped[int]  # 1, 2, ... in the order applied
    seat: Mapped[int]
    action: Mapped[str] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(String(200))  # e.g. "bot took over on time-out"
    created_at: Mapped[datetime] = mapped_column(default=now)


class ChatMessage(Base):
    """A line of a table's chat, by a seated person or a spectator. Plain text, shown
    escaped; `hidden_at` set by the site's host takes it out of every view (kept for the
    record of what was said)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    seat: Mapped[int | None]  # None: said by a spectator
    move: Mapped[int]  # moves made when it was said: where it falls in the replay
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=now)
    hidden_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(lazy="joined")


class Mute(Base):
    """`user_id` reads nothing `muted_id` writes, at any table."""

    __tablename__ = "mutes"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    muted_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )


class Rating(Base):
    """A person's (or, rated apart, a bot's) Elo rating in one game."""

    __tablename__ = "ratings"
    __table_args__ = (
        UniqueConstraint("game", "user_id"),
        UniqueConstraint("game", "bot"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    bot: Mapped[str | None] = mapped_column(String(40))
    rating: Mapped[float]
    games: Mapped[int] = mapped_column(default=0)

    user: Mapped[User | None] = relationship()


class Token(Base):
    """A link's secret, mailed to a person: to set a new password (`reset`), to confirm an
    e-mail address (`email`, the address it confirms), or to undo a change of a confirmed
    address (`undo`, the address it restores). Kept as the SHA-256 of the token, as
    sessions are; used once (the row goes), and only until `expires_at`."""

    __tablename__ = "tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(10))
    email: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=now)
    expires_at: Mapped[datetime]


class AuditEntry(Base):
    """One thing an admin did, through the browser or `meadow admin` (and the deletion of an
    account by its owner): who (`actor_id`, or `actor` for the shell), what, on whom or
    what, and when. The server processes also read new entries to carry out what they
    decided (`server.moderation`)."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=now)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    actor: Mapped[str | None] = mapped_column(String(80))  # "shell:<login>" for the CLI
    action: Mapped[str] = mapped_column(String(20))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="SET NULL"))
    chat_id: Mapped[int | None] = mapped_column(ForeignKey("chat.id", ondelete="SET NULL"))
    detail: Mapped[str | None] = mapped_column(Text)

    acting: Mapped[User | None] = relationship(foreign_keys=[actor_id])
    subject: Mapped[User | None] = relationship(foreign_keys=[user_id])


class Site(Base):
    """Facts about this site, one row each, made once per database: `id` names the site's
    keys and channels in a Redis that other sites may share; `secret` signs marks only the
    site may give (a browser known to a name, `server.auth.known_browser`)."""

    __tablename__ = "site"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class GameAnalysis(Base):
    """The coach's analysis of a finished game (`meadow.analysis`): asked for once, kept, and
    computed by exactly one process, the one whose guarded update set `claim` (docs/ai.md)."""

    __tablename__ = "analyses"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(10), default="queued", index=True)
    # queued | running | done | failed
    requested_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    requested_at: Mapped[datetime] = mapped_column(default=now)
    # A fresh token each time a process takes the work: its every write names it, so a
    # process that lost the work (it fell silent, and another took it over) writes nothing.
    claim: Mapped[str | None] = mapped_column(String(40))
    heard_at: Mapped[datetime | None]  # the computing process's last word
    done_moves: Mapped[int] = mapped_column(default=0)
    total_moves: Mapped[int] = mapped_column(default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(String(200))
    finished_at: Mapped[datetime | None]
