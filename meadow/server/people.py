"""People: the links the site mails (a password reset, an address to confirm) and what admins
do to people, chat and tables. Every admin action is written to the audit log in the
transaction that does it.

The browser's routes and `meadow admin` (another process, maybe while servers run) call the
same functions on the same database: what is decided here is decided in the database, under
the rows' locks. What a running server must then do in memory (hand a banned person's seats
to a bot, close their sockets, tell a table's pages that a line was hidden or the table
closed) each server process reads from the audit log (`meadow.server.moderation`).
"""

from __future__ import annotations

import getpass
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session as DbSession

from meadow.server import auth
from meadow.server.errors import ApiError
from meadow.store import (
    AuditEntry,
    ChatMessage,
    Mute,
    Rating,
    Seat,
    Session,
    Table,
    Token,
    User,
)
from meadow.store.models import name_key

RESET, EMAIL = "reset", "email"  # what a mailed link is for

# What the audit log records; the actions a server process acts on are in `moderation`.
BAN, UNBAN = "ban", "unban"
MAKE_ADMIN, UNMAKE_ADMIN = "make-admin", "unmake-admin"
HIDE_CHAT, CLOSE_TABLE = "hide-chat", "close-table"
EXPORT, ERASE, DELETE = "export", "erase", "delete"  # DELETE: by the account's owner
RESET_LINK = "reset-link"  # an admin made a reset link to hand over (no e-mail on the site)
GONE = frozenset({BAN, ERASE, DELETE})  # the person may no longer play or hear a table
SIGN_OUT = "sign-out"  # sessions ended by a reset, a new password or an undone address

_TOKEN = 43  # the length of secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Actor:
    """Who does something: an admin's account, or someone at the server's shell."""

    user_id: int | None = None
    shell: str | None = None

    @classmethod
    def at_the_shell(cls) -> Actor:
        try:
            login = getpass.getuser()
        except (KeyError, OSError):  # no name for this uid (a container, say)
            login = "unknown"
        return cls(shell=f"shell:{login}"[:80])


def audit(
    s: DbSession,
    actor: Actor,
    action: str,
    *,
    user_id: int | None = None,
    table_id: int | None = None,
    chat_id: int | None = None,
    detail: str | None = None,
) -> None:
    s.add(
        AuditEntry(
            at=_now(),
            actor_id=actor.user_id,
            actor=actor.shell,
            action=action,
            user_id=user_id,
            table_id=table_id,
            chat_id=chat_id,
            detail=detail,
        )
    )


# -- mailed links -----------------------------------------------------------------------


def new_token(
    s: DbSession,
    user_id: int,
    purpose: str,
    lifetime: timedelta,
    email: str | None = None,
    superseding: bool = True,
) -> str:
    """A link's secret for `user_id`; the store keeps its SHA-256. `superseding`: the
    person's earlier links of the same purpose stop working, only the latest one mailed
    does."""
    if superseding:
        s.execute(delete(Token).where(Token.user_id == user_id, Token.purpose == purpose))
    token = secrets.token_urlsafe(32)
    now = _now()
    s.add(
        Token(
            token_hash=auth.token_hash(token),
            user_id=user_id,
            purpose=purpose,
            email=email,
            created_at=now,
            expires_at=now + lifetime,
        )
    )
    return token


def use_token(s: DbSession, token: str, purpose: str) -> Token | None:
    """The link's row, deleted in this transaction (a link works once: of two uses at once,
    the row lock lets one find it), or None if the link is unknown, used or expired."""
    if len(token) != _TOKEN:
        return None
    found = s.get(Token, auth.token_hash(token), with_for_update=True)
    if found is None or found.purpose != purpose:
        return None
    s.delete(found)
    s.flush()
    if _aware(found.expires_at) < _now():
        return None
    return found


def with_confirmed_address(s: DbSession, email: str) -> list[User]:
    """Accounts that may be sent a reset link at `email`: a confirmed address (any case),
    a password to reset (a guest has none: a link would give its account one), neither
    banned nor deleted."""
    return list(
        s.scalars(
            select(User).where(
                func.lower(User.email) == email.lower(),
                User.email_confirmed.is_(True),
                User.password_hash.is_not(None),
                User.banned_at.is_(None),
                User.deleted_at.is_(None),
            )
        )
    )


def address_changes(
    s: DbSession, user: User, email: str | None, lifetime: timedelta
) -> tuple[dict[str, Any], str | None]:
    """What saving `email` as the person's address changes, and the secret of the link to
    mail to it if it is new (None: nothing to confirm). A new address waits for its link
    (`pending_email`) while a confirmed one keeps serving; giving the confirmed one again
    drops a change not yet confirmed; none removes both."""
    confirmed = user.email if user.email_confirmed else None
    if email is None or email == confirmed:
        s.execute(delete(Token).where(Token.user_id == user.id, Token.purpose == EMAIL))
        if email is None:
            return {"email": None, "email_confirmed": False, "pending_email": None}, None
        return {"pending_email": None}, None
    if email == user.pending_email:
        return {}, None
    return {"pending_email": email}, new_token(s, user.id, EMAIL, lifetime, email)


def sign_out_everywhere(s: DbSession, user_id: int, but: str | None = None) -> None:
    """End the person's sessions (all but the one whose token hash is `but`), and with them
    the sockets opened in them, in every server process (`moderation` reads the entry): a
    socket that outlived its session would go on hearing the seat's hidden view."""
    _end_sessions(s, user_id, but)
    audit(s, Actor(user_id=user_id), SIGN_OUT, user_id=user_id)


def _end_sessions(s: DbSession, user_id: int, but: str | None = None) -> None:
    ending = delete(Session).where(Session.user_id == user_id)
    if but is not None:
        ending = ending.where(Session.token_hash != but)
    s.execute(ending, execution_options={"synchronize_session": False})


# -- finding people ---------------------------------------------------------------------


def audit_entries(s: DbSession, limit: int = 100) -> list[AuditEntry]:
    """The audit log, newest first."""
    return list(s.scalars(select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)))


def find_person(s: DbSession, who: str) -> User:
    """A person by name (any case) or by number (`#17`)."""
    if who.startswith("#") and who[1:].isdigit():
        found = s.get(User, int(who[1:]))
    else:
        key = name_key(who)
        found = None if "\x00" in key else s.scalar(select(User).where(User.name_key == key))
    if found is None:
        raise ApiError(404, f"there is nobody called {who!r}")
    return found


def person_by_id(s: DbSession, user_id: int) -> User:
    found = s.get(User, user_id)
    if found is None:
        raise ApiError(404, f"there is no person {user_id}")
    return found


def people(
    s: DbSession,
    find: str | None = None,
    *,
    banned: bool = False,
    admins: bool = False,
    guests: bool = False,
    limit: int = 100,
) -> list[User]:
    """People, newest first: those whose name or e-mail address holds `find` (any case),
    only banned ones, only admins; guests and deleted accounts only if asked for."""
    query = select(User).order_by(User.id.desc()).limit(limit)
    if find:
        pattern = f"%{_escaped(find.casefold())}%"
        query = query.where(
            or_(
                User.name_key.like(pattern, escape="\\"),
                User.email.ilike(pattern, escape="\\"),
                User.pending_email.ilike(pattern, escape="\\"),
            )
        )
    if banned:
        query = query.where(User.banned_at.is_not(None))
    if admins:
        query = query.where(User.is_admin.is_(True))
    if not guests:
        query = query.where(User.password_hash.is_not(None) | User.deleted_at.is_not(None))
    return list(s.scalars(query))


def summary(user: User) -> dict[str, Any]:
    """A person as admins see them in a list."""
    return {
        "id": user.id,
        "name": user.name,
        "email": user.email,
        "email_confirmed": user.email_confirmed,
        "pending_email": user.pending_email,
        "guest": user.password_hash is None and user.deleted_at is None,
        "admin": user.is_admin,
        "banned_at": iso(user.banned_at),
        "deleted_at": iso(user.deleted_at),
        "created_at": iso(user.created_at),
    }


# -- what admins do -----------------------------------------------------------------------


def ban(s: DbSession, actor: Actor, user: User, reason: str | None = None) -> None:
    """The person may no longer log in, join, chat or play: their sessions and links end now,
    their seats at open tables are freed (tables they host there close), and the servers
    hand their running seats to the takeover bot (`moderation`)."""
    _not_deleted(user)
    if actor.user_id == user.id:
        raise ApiError(409, "you cannot ban yourself")
    if user.is_admin:
        raise ApiError(409, f"{user.name} is an admin: unmake them an admin first")
    if user.banned_at is not None:
        raise ApiError(409, f"{user.name} is banned already")
    user.banned_at = _now()
    _end_sessions(s, user.id)  # the ban's entry ends every socket
    s.execute(delete(Token).where(Token.user_id == user.id))
    leave_open_tables(s, user.id)
    audit(s, actor, BAN, user_id=user.id, detail=reason)


def unban(s: DbSession, actor: Actor, user: User) -> None:
    """The person may log in again (a bot plays on at their running seats until they take
    a seat back)."""
    _not_deleted(user)
    if user.banned_at is None:
        raise ApiError(409, f"{user.name} is not banned")
    user.banned_at = None
    audit(s, actor, UNBAN, user_id=user.id)


def set_admin(s: DbSession, actor: Actor, user: User, admin: bool) -> None:
    _not_deleted(user)
    if user.password_hash is None:
        raise ApiError(409, f"{user.name} is a guest: only an account may be an admin")
    if user.banned_at is not None and admin:
        raise ApiError(409, f"{user.name} is banned")
    if user.is_admin == admin:
        raise ApiError(409, f"{user.name} is {'an admin' if admin else 'no admin'} already")
    user.is_admin = admin
    audit(s, actor, MAKE_ADMIN if admin else UNMAKE_ADMIN, user_id=user.id)


def hide_chat(s: DbSession, actor: Actor, chat_id: int) -> ChatMessage:
    """Nobody reads the line any more, anywhere (it stays in the store, marked)."""
    line = s.get(ChatMessage, chat_id)
    if line is None:
        raise ApiError(404, f"there is no chat line {chat_id}")
    # Guarded: of two admins hiding it at once, one does (and one entry is written).
    hidden = s.execute(
        update(ChatMessage)
        .where(ChatMessage.id == chat_id, ChatMessage.hidden_at.is_(None))
        .values(hidden_at=_now()),
        execution_options={"synchronize_session": False},
    )
    if hidden.rowcount != 1:
        raise ApiError(409, f"chat line {chat_id} is hidden already")
    audit(s, actor, HIDE_CHAT, user_id=line.user_id, table_id=line.table_id, chat_id=chat_id)
    return line


def close_table(s: DbSession, actor: Actor, table_id: int) -> str:
    """Close an open or running table: its status becomes "abandoned". A running game ends
    there without a result: no rating changes, nobody (bots neither) moves again, its moves
    stay in the log and its page shows the last position. Returns the status it had."""
    table = s.get(Table, table_id, with_for_update=True)
    if table is None:
        raise ApiError(404, f"there is no table {table_id}")
    was = table.status
    if was not in ("open", "running"):
        raise ApiError(409, f"table {table_id} is {was}: only open or running tables close")
    table.status = "abandoned"
    table.updated_at = _now()
    audit(s, actor, CLOSE_TABLE, table_id=table_id, detail=f"was {was}")
    return was


def export(s: DbSession, actor: Actor, user: User) -> dict[str, Any]:
    """Everything the site keeps about a person (no password hash, no session's or link's
    secret), for them or for the law."""
    audit(s, actor, EXPORT, user_id=user.id)
    seats = s.execute(
        select(Seat.number, Table)
        .join(Table, Seat.table_id == Table.id)
        .where(Seat.user_id == user.id)
    ).all()
    lines = s.scalars(
        select(ChatMessage).where(ChatMessage.user_id == user.id).order_by(ChatMessage.id)
    ).all()
    muted = s.scalars(
        select(User.name).join(Mute, Mute.muted_id == User.id).where(Mute.user_id == user.id)
    ).all()
    sessions = s.scalars(select(Session).where(Session.user_id == user.id)).all()
    ratings = s.scalars(select(Rating).where(Rating.user_id == user.id)).all()
    return {
        "exported_at": _now().isoformat(),
        "person": {
            **summary(user),
            "notify": user.notify,
            "email_confirmed_at": iso(user.email_confirmed_at),
            "settings": user.settings,
        },
        "sessions": [
            {"created_at": iso(x.created_at), "expires_at": iso(x.expires_at)} for x in sessions
        ],
        "ratings": [{"game": r.game, "rating": r.rating, "games": r.games} for r in ratings],
        "tables": [
            {
                "table": table.id,
                "game": table.game,
                "status": table.status,
                "seat": number,
                "host": table.host_id == user.id,
                "created_at": iso(table.created_at),
            }
            for number, table in sorted(seats, key=lambda row: row[1].id)
        ],
        "chat": [
            {
                "id": line.id,
                "table": line.table_id,
                "text": line.text,
                "at": iso(line.created_at),
                "hidden": line.hidden_at is not None,
            }
            for line in lines
        ],
        "muted": sorted(muted),
    }


def erase(s: DbSession, actor: Actor, user: User, action: str = ERASE) -> None:
    """Delete the account: what identifies the person goes (name, password, addresses,
    settings, sessions, links, mutes, ratings); the row stays with a neutral name, so that
    the games and chat it was part of still read whole ("deleted player 17"). Seats at open
    tables are freed; the servers hand running seats to the takeover bot (`moderation`)."""
    _not_deleted(user)
    uid = user.id
    leave_open_tables(s, uid)
    _end_sessions(s, uid)  # the erasure's entry ends every socket
    for gone in (
        delete(Token).where(Token.user_id == uid),
        delete(Mute).where(or_(Mute.user_id == uid, Mute.muted_id == uid)),
        delete(Rating).where(Rating.user_id == uid),
    ):
        s.execute(gone, execution_options={"synchronize_session": False})
    neutral = f"deleted player {uid}"
    user.name = user.name_key = neutral
    user.password_hash = user.email = user.pending_email = user.settings = None
    user.email_confirmed = user.notify = user.is_admin = False
    user.email_confirmed_at = None
    user.deleted_at = _now()
    audit(s, actor, action, user_id=uid)


def leave_open_tables(s: DbSession, user_id: int) -> list[int]:
    """The person's seats at open tables are free again, and seats kept for them there are
    kept no longer; the open tables they host close, as when a host leaves. Under the
    tables' row locks, so a join or start at once is decided before or after. Returns the
    tables changed."""
    touched = select(Seat.table_id).where(
        or_(Seat.user_id == user_id, Seat.reserved_for == user_id)
    )
    changed = list(
        s.scalars(
            select(Table.id)
            .where(
                Table.status == "open",
                or_(Table.id.in_(touched), Table.host_id == user_id),
            )
            .order_by(Table.id)
            .with_for_update()
        )
    )
    if not changed:
        return []
    now = _now()
    options = {"synchronize_session": False}
    in_them = Seat.table_id.in_(changed)
    s.execute(update(Seat).where(in_them, Seat.user_id == user_id).values(user_id=None), options)
    s.execute(
        update(Seat).where(in_them, Seat.reserved_for == user_id).values(reserved_for=None),
        options,
    )
    s.execute(update(Table).where(Table.id.in_(changed)).values(updated_at=now), options)
    s.execute(
        update(Table)
        .where(Table.id.in_(changed), Table.host_id == user_id)
        .values(status="abandoned"),
        options,
    )
    return changed


def _not_deleted(user: User) -> None:
    if user.deleted_at is not None:
        raise ApiError(409, f"{user.name}: the account was deleted")


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else _aware(moment).isoformat()
