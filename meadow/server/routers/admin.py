"""The site's admins in the browser: the operations of `meadow admin`, each written to the
audit log. Every route needs an admin's session: 403 for anyone else."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from meadow.server import chat, people
from meadow.server.deps import DatabaseRoute, db_session, db_writer, signed_in
from meadow.server.errors import ApiError, refusals
from meadow.server.routers.tables import MAX_ID
from meadow.store import AuditEntry, ChatMessage, User

router = APIRouter(prefix="/api/admin", tags=["admin"], route_class=DatabaseRoute)

PersonId = Annotated[int, Path(ge=1, le=MAX_ID, description="The person's number.")]
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="The table's number.")]
ChatId = Annotated[int, Path(ge=1, le=MAX_ID, description="The chat line's number.")]
# Every admin route refuses a visitor (401) and anyone but an admin (403).
READ = refusals(401, 403, 422)
WRITE = refusals(401, 403, 404, 409, 413, 422)
WITH_BODY = refusals(400, 401, 403, 404, 409, 413, 422)  # 400: a body that is not JSON


def admin(user: User = Depends(signed_in)) -> User:
    """The signed-in person, if an admin (decided afresh on every request: an admin
    unmade is refused at once)."""
    if not user.is_admin:
        raise ApiError(403, "only the site's admins may do this")
    return user


class Person(BaseModel):
    id: int
    name: str
    email: str | None
    email_confirmed: bool
    pending_email: str | None
    guest: bool
    admin: bool
    banned_at: str | None
    deleted_at: str | None
    created_at: str | None


class Ban(BaseModel):
    reason: str | None = Field(None, max_length=500, description="Kept in the audit log.")


class ChatLine(BaseModel):
    id: int
    table: int
    user: int
    name: str
    text: str
    at: str
    hidden: bool


class Logged(BaseModel):
    id: int
    at: str
    actor: str = Field(description="The admin's name, or `shell:<login>` for the CLI.")
    action: str
    person: str | None
    table: int | None
    chat: int | None
    detail: str | None


@router.get("/people", responses=READ)
def list_people(
    find: str | None = Query(None, max_length=200, description="Part of a name or address."),
    banned: bool = Query(False, description="Only banned people."),
    admins: bool = Query(False, description="Only admins."),
    guests: bool = Query(False, description="Guests too."),
    limit: int = Query(100, ge=1, le=1000),
    _: User = Depends(admin),
    s: DbSession = Depends(db_session),
) -> list[Person]:
    """People, newest first."""
    if find and "\x00" in find:
        return []
    found = people.people(s, find, banned=banned, admins=admins, guests=guests, limit=limit)
    return [Person(**people.summary(user)) for user in found]


@router.put("/people/{user_id}/ban", responses=WITH_BODY)
def ban(
    user_id: PersonId,
    body: Ban,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> Person:
    """Ban a person: no log-in, join, chat or play; their sessions end, their seats at open
    tables are freed, and a bot takes their running seats at once."""
    person = people.person_by_id(w, user_id)
    people.ban(w, people.Actor(user_id=me.id), person, body.reason)
    return _person(request, w, person)


@router.delete("/people/{user_id}/ban", responses=WRITE)
def unban(
    user_id: PersonId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> Person:
    person = people.person_by_id(w, user_id)
    people.unban(w, people.Actor(user_id=me.id), person)
    return _person(request, w, person)


@router.put("/people/{user_id}/admin", responses=WRITE)
def make_admin(
    user_id: PersonId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> Person:
    person = people.person_by_id(w, user_id)
    people.set_admin(w, people.Actor(user_id=me.id), person, True)
    return _person(request, w, person)


@router.delete("/people/{user_id}/admin", responses=WRITE)
def unmake_admin(
    user_id: PersonId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> Person:
    person = people.person_by_id(w, user_id)
    people.set_admin(w, people.Actor(user_id=me.id), person, False)
    return _person(request, w, person)


@router.post("/people/{user_id}/export", responses=WRITE)
def export(
    user_id: PersonId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> dict[str, Any]:
    """Everything the site keeps about the person, as JSON (the export is audited)."""
    person = people.person_by_id(w, user_id)
    data = people.export(w, people.Actor(user_id=me.id), person)
    w.commit()
    return data


@router.post("/people/{user_id}/erase", responses=WRITE)
def erase(
    user_id: PersonId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> Person:
    """Delete the person's account as they could themselves (their games and chat keep a
    neutral name)."""
    person = people.person_by_id(w, user_id)
    if person.id == me.id:
        raise ApiError(409, "delete your own account from your profile")
    people.erase(w, people.Actor(user_id=me.id), person)
    return _person(request, w, person)


@router.get("/chat", responses=READ)
def recent_chat(
    table: int | None = Query(None, ge=1, le=MAX_ID, description="Only this table's lines."),
    limit: int = Query(100, ge=1, le=1000),
    _: User = Depends(admin),
    s: DbSession = Depends(db_session),
) -> list[ChatLine]:
    """Chat lines, newest first, hidden ones too (marked)."""
    query = select(ChatMessage).order_by(ChatMessage.id.desc()).limit(limit)
    if table is not None:
        query = query.where(ChatMessage.table_id == table)
    return [
        ChatLine(
            id=line.id,
            table=line.table_id,
            user=line.user_id,
            name=line.user.name,
            text=chat.plain(line.text),  # as the table shows it: no bidi tricks here either
            at=people.iso(line.created_at) or "",
            hidden=line.hidden_at is not None,
        )
        for line in s.scalars(query)
    ]


@router.post("/chat/{chat_id}/hide", status_code=204, responses=WRITE)
def hide_chat(
    chat_id: ChatId, request: Request, me: User = Depends(admin), w: DbSession = Depends(db_writer)
) -> None:
    """Hide a chat line from everyone: it leaves the table's pages at once."""
    people.hide_chat(w, people.Actor(user_id=me.id), chat_id)
    _done(request, w)


@router.post("/tables/{table_id}/close", status_code=204, responses=WRITE)
def close_table(
    table_id: TableId,
    request: Request,
    me: User = Depends(admin),
    w: DbSession = Depends(db_writer),
) -> None:
    """Close an open or running table (status "abandoned"): a running game ends there
    without a result or rating changes, and its pages show the last position."""
    people.close_table(w, people.Actor(user_id=me.id), table_id)
    _done(request, w)


@router.get("/audit", responses=READ)
def audit_log(
    limit: int = Query(100, ge=1, le=1000),
    _: User = Depends(admin),
    s: DbSession = Depends(db_session),
) -> list[Logged]:
    """What admins did, newest first."""
    return [logged(entry) for entry in people.audit_entries(s, limit)]


def logged(entry: AuditEntry) -> Logged:
    return Logged(
        id=entry.id,
        at=people.iso(entry.at) or "",
        actor=entry.actor or (entry.acting.name if entry.acting else "?"),
        action=entry.action,
        person=entry.subject.name if entry.subject else None,
        table=entry.table_id,
        chat=entry.chat_id,
        detail=entry.detail,
    )


def _done(request: Request, w: DbSession) -> None:
    """Commit the action, and carry it out in this process at once (the others read it
    from the audit log within half a second)."""
    w.commit()
    request.app.state.moderation.tick()


def _person(request: Request, w: DbSession, person: User) -> Person:
    _done(request, w)
    return Person(**people.summary(person))
