"""Table chat: what the people at a table, seated or watching, say to each other.

A line is stored with its table (the database is the truth, as for moves), then told to
every socket of the table in this process and, through the cluster's news, in the others:
each process reads the lines it has not told yet, in the order of their numbers. A table
keeps its latest lines in memory for the sync a socket gets when it opens. Nobody reads
what a person they muted writes; a line the site's host hid is read by nobody.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from meadow.server import access, outbound
from meadow.server.cluster import CHAT
from meadow.server.errors import ApiError
from meadow.store import ChatMessage, Mute, Table, User

if TYPE_CHECKING:
    from meadow.server.live import LiveTable
    from meadow.server.tables import Tables

MAX_CHARS = 500
KEPT = 200  # the latest lines a table holds in memory; older ones are read from the store


MAX_MARKS = 2  # combining marks kept on one letter: accents stay, a Zalgo pile does not
# What could make a line pass for another person's (a right-to-left override turning text
# around, zero-width characters, a line separator starting a fake line) or is no text at
# all: control characters (Cc; a line break stays), format characters (Cf: the bidi
# controls, zero-width spaces, soft hyphens...) and lone surrogates (Cs, which the store
# could not even encode).
_DROPPED = frozenset({"Cc", "Cf", "Cs"})
_SEPARATORS = frozenset({"Zl", "Zp"})  # U+2028, U+2029: a space, as a line break would be
_ZWJ = "\u200d"
_PRINTABLE_ASCII = re.compile(r"[\n\x20-\x7e]*")  # most lines: nothing to clean, at once


def cleaned(text: str) -> str:
    """The text as it is stored: `plain`, without space around it; refused when nothing is
    left or it is too long."""
    kept = plain(text).strip()
    if not kept:  # a rule no schema states (the schema allows control characters): 400
        raise ApiError(400, "a chat message needs some text")
    if len(kept) > MAX_CHARS:
        raise ApiError(422, f"a chat message is at most {MAX_CHARS} characters, not {len(kept)}")
    return kept


def plain(text: str) -> str:
    """`text` with nothing that disguises who said what: no control or format characters
    (but a line break), line separators as spaces, NFC, at most MAX_MARKS combining marks
    in a row. A zero-width joiner stays only inside an emoji sequence (after a symbol, or
    its marks, and before a symbol: a family, a woman technologist), where it cannot turn
    or hide text; anywhere else it goes. Idempotent: lines stored before this cleaning are
    shown through it too."""
    if _PRINTABLE_ASCII.fullmatch(text):
        return text
    kept = "".join(_kept_character(c) for c in text)
    kept = unicodedata.normalize("NFC", _joined_emoji(unicodedata.normalize("NFC", kept)))
    return _capped_marks(kept)


def _kept_character(c: str) -> str:
    if c == "\n" or c == _ZWJ:
        return c
    category = unicodedata.category(c)
    if category in _SEPARATORS:
        return " "
    return "" if category in _DROPPED else c


def _joined_emoji(text: str) -> str:
    """Without the zero-width joiners that join no two symbols."""
    out: list[str] = []
    base = ""  # the latest character that is not a combining mark
    for at, c in enumerate(text):
        after = text[at + 1 : at + 2]
        if c != _ZWJ or (_symbol(base, "So", "Sk") and _symbol(after, "So")):
            out.append(c)
        if not _mark(c):
            base = c
    return "".join(out)


def _symbol(c: str, *categories: str) -> bool:
    return bool(c) and unicodedata.category(c) in categories


def _mark(c: str) -> bool:
    return unicodedata.category(c).startswith("M")


def _capped_marks(text: str) -> str:
    """Only the first MAX_MARKS of each run of combining marks (which keeps the text NFC:
    what composed with its letter is not a mark any more, and marks kept are not moved)."""
    out: list[str] = []
    run = 0
    for c in text:
        run = run + 1 if _mark(c) else 0
        if run <= MAX_MARKS:
            out.append(c)
    return "".join(out)


def line(row: ChatMessage) -> dict[str, Any]:
    """A line as pages read it."""
    return {
        "id": row.id,
        "user": row.user_id,
        "name": row.user.name,
        "seat": row.seat,
        "move": row.move,
        "text": plain(row.text),  # a line stored before the cleaning, too
        "at": _utc(row.created_at).isoformat(),
    }


def stored_lines(s: DbSession, table_id: int, after: int = 0) -> list[dict[str, Any]]:
    """The table's lines after number `after`, not hidden, in order."""
    rows = s.scalars(
        select(ChatMessage)
        .where(
            ChatMessage.table_id == table_id,
            ChatMessage.id > after,
            ChatMessage.hidden_at.is_(None),
        )
        .order_by(ChatMessage.id)
    ).all()
    return [line(row) for row in rows]


def muted_by(s: DbSession, user_id: int | None) -> frozenset[int]:
    """Whom `user_id` has muted (nobody, for a visitor)."""
    if user_id is None:
        return frozenset()
    return frozenset(s.scalars(select(Mute.muted_id).where(Mute.user_id == user_id)))


def readable(lines: list[dict[str, Any]], muted: frozenset[int]) -> list[dict[str, Any]]:
    return [entry for entry in lines if entry["user"] not in muted]


def rename(live: LiveTable, user_id: int, name: str) -> bool:
    """The person's lines kept in memory under the name the store now has for them (an
    erased account's neutral one); whether any were (`live.lock` held)."""
    theirs = [entry for entry in live.chat if entry["user"] == user_id]
    for entry in theirs:
        entry["name"] = name
    return bool(theirs)


def load(live: LiveTable, s: DbSession) -> None:
    """A table's latest lines, as it is loaded into memory."""
    latest = s.scalars(
        select(ChatMessage)
        .where(ChatMessage.table_id == live.id, ChatMessage.hidden_at.is_(None))
        .order_by(ChatMessage.id.desc())
        .limit(KEPT)
    ).all()
    live.chat = [line(row) for row in reversed(latest)]
    # Hidden lines after the last one kept are read past by `hear`, which leaves them out.
    live.chat_seen = latest[0].id if latest else 0


def is_member(hub: Tables, table_id: int, user_id: int) -> bool:
    """Whether the person sits at the table (or is its host, or has a seat kept there)."""
    with hub.db.open() as s:
        table = s.get(Table, table_id)
        return table is not None and access.is_member(table, user_id)


def say(hub: Tables, table_id: int, user: User, text: str) -> dict[str, Any]:
    """Store a line by `user` at the table and tell everyone there."""
    text = cleaned(text)
    with hub.db.write() as s:
        # Locked: the lines of one table commit in the order of their numbers, whichever
        # process stores them, so that a reader who has told line N misses none below it.
        table = s.get(Table, table_id, with_for_update=True)
        if table is None:
            raise ApiError(404, f"there is no table {table_id}")
        if table.status == "abandoned":
            raise ApiError(409, "this table was closed: nobody is there to read it")
        if table.private and not access.is_member(table, user.id):
            # Its invitation or spectator key lets one read a private table, not write there.
            raise ApiError(403, "at a private table only its seats write")
        seat = next((t.number for t in table.seats if t.user_id == user.id), None)
        row = ChatMessage(
            table_id=table_id,
            user_id=user.id,
            seat=seat,
            move=table.moves_made,
            text=text,
            created_at=datetime.now(UTC),
        )
        s.add(row)
        s.flush()
        said = line(row)
        s.commit()
    live = hub.watched(table_id)  # else nobody here listens: a page opened later reads it
    if live is not None:
        hear(hub, live)
    hub.cluster.publish(table_id, CHAT)
    return said


def hear(hub: Tables, live: LiveTable) -> None:
    """Tell this process's sockets of the table the lines stored since the last told."""
    with live.lock:
        with hub.db.open() as s:
            fresh = stored_lines(s, live.id, live.chat_seen)
        for entry in fresh:
            live.chat.append(entry)
            message = outbound.message("chat", **entry)
            for listener in live.listeners:
                if entry["user"] not in listener.muted:
                    listener.send(message)
            live.chat_seen = entry["id"]
        del live.chat[:-KEPT]


def mute(hub: Tables, s: DbSession, user: User, name: str, muted: bool) -> None:
    """Mute (or unmute) the person called `name` for `user`, on every socket of `user`'s
    in this process at once (others read the mutes again when they open)."""
    other = s.scalar(select(User).where(User.name == name))
    if other is None:
        raise ApiError(404, f"there is nobody called {name!r}")
    if other.id == user.id:
        raise ApiError(400, "you cannot mute yourself")
    found = s.get(Mute, (user.id, other.id))
    if muted and found is None:
        s.add(Mute(user_id=user.id, muted_id=other.id))
    elif not muted and found is not None:
        s.delete(found)
    s.commit()
    for live in hub.held():
        with live.lock:
            for listener in live.listeners:
                if listener.user_id == user.id:
                    listener.muted = (
                        listener.muted | {other.id} if muted else listener.muted - {other.id}
                    )


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
