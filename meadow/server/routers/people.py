"""A person's own account: a new password by e-mail, a change of password, confirming an
e-mail address, undoing a change of a confirmed one, and deleting the account."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import update
from sqlalchemy.orm import Session as DbSession
from starlette.concurrency import run_in_threadpool

from meadow.server import auth, companions, ownership, people
from meadow.server.deps import (
    DatabaseRoute,
    database,
    db_session,
    db_writer,
    settings,
    signed_in,
    site_limits,
)
from meadow.server.errors import ApiError, refusals
from meadow.server.limits import Limits, TooMany
from meadow.server.mail import Mailer
from meadow.server.routers.accounts import EMAIL_PATTERN, Me, _mark, _signed_in, people_mails
from meadow.server.settings import Settings
from meadow.store import Database, Session, Token, User

router = APIRouter(prefix="/api/accounts", tags=["accounts"], route_class=DatabaseRoute)
log = logging.getLogger("meadow.server")

NO_MAIL = "this server sends no e-mail: ask its host for a link to set a new password"
BAD_LINK = "this link is unknown, was used already, or has expired: ask for a new one"


class ResetWanted(BaseModel):
    email: str = Field(max_length=200, pattern=EMAIL_PATTERN)


class Sent(BaseModel):
    message: str


class NewPassword(BaseModel):
    token: str = Field(max_length=100, description="The secret of the mailed link.")
    password: str = Field(min_length=8, max_length=200)


class PasswordChange(BaseModel):
    current: str = Field(max_length=200)
    new: str = Field(min_length=8, max_length=200)


class Link(BaseModel):
    token: str = Field(max_length=100, description="The secret of the mailed link.")


class Confirmed(BaseModel):
    email: str = Field(description="The address confirmed: notices go to it from now on.")


class Password(BaseModel):
    password: str = Field(max_length=200)


@router.post("/reset", status_code=202, responses=refusals(400, 403, 413, 422, 429))
def ask_for_reset(
    body: ResetWanted,
    request: Request,
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
    db: Database = Depends(database),
) -> Sent:
    """Mail a link that sets a new password to the accounts whose confirmed address this
    is. The answer is the same, and as quick, whether or not there is any: the accounts are
    looked up after it, on the mail's own thread."""
    mailer: Mailer = request.app.state.mailer
    if not mailer.on:
        raise ApiError(400, NO_MAIL)
    limits.spend_hourly(request, "password resets", config.resets_per_address_per_hour)
    mailer.later(_mail_resets, db, mailer, limits, config, body.email)
    return Sent(
        message="If an account has this confirmed address, a link to set a new password "
        "is on its way to it."
    )


def _mail_resets(
    db: Database, mailer: Mailer, limits: Limits, config: Settings, email: str
) -> None:
    """On the mail thread: a link for each account with this confirmed address, within the
    account's e-mails an hour (beyond, nothing is sent: the answer was given already)."""
    minutes = config.reset_minutes
    links = []
    with db.write() as s:
        for user in people.with_confirmed_address(s, email):
            if ownership.held(s, user):
                log.info("password reset for account %s not sent: its address is new", user.id)
                continue
            try:
                limits.spend(people_mails(config, user.id))
            except TooMany:
                log.info("password reset for account %s not sent: its hourly limit", user.id)
                continue
            token = people.new_token(s, user.id, people.RESET, timedelta(minutes=minutes))
            links.append((user.email or email, user.name, token))
        s.commit()
    for to, name, token in links:
        mailer.reset_link(to, name, token, minutes)


@router.post("/reset/finish", responses=refusals(400, 403, 413, 422, 503))
async def finish_reset(
    body: NewPassword,
    request: Request,
    response: Response,
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Me:
    """Set a new password with the mailed link (once, before it expires): every session of
    the account ends, and this browser is signed in."""
    if not await run_in_threadpool(_known_link, db, body.token, people.RESET):
        raise ApiError(400, BAD_LINK)  # no hash spent on a made-up link
    hashed = await limits.hashing.run(auth.hash_password, body.password)
    user, session, token = await run_in_threadpool(
        _reset, db, body.token, hashed, config.session_days
    )
    return _signed_in(response, user, session, token, config, _mark(request, user.name))


def _known_link(db: Database, token: str, purpose: str) -> bool:
    if len(token) > 64:
        return False
    with db.open() as s:
        found = s.get(Token, auth.token_hash(token))
        return found is not None and found.purpose == purpose


def _reset(db: Database, token: str, hashed: str, days: int) -> tuple[User, Session, str]:
    with db.write() as s:
        link = people.use_token(s, token, people.RESET)
        if link is None:
            raise ApiError(400, BAD_LINK)
        user = s.get(User, link.user_id, with_for_update=True)
        assert user is not None  # its links go with it
        if user.banned_at is not None or user.deleted_at is not None:
            raise ApiError(403, "this account is banned from this site")
        user.password_hash = hashed
        people.sign_out_everywhere(s, user.id)
        session, secret = auth.new_session(user, days)
        s.add(session)
        s.commit()
    return user, session, secret


@router.put(
    "/me/password", status_code=204, responses=refusals(400, 401, 403, 409, 413, 422, 429, 503)
)
async def change_password(
    body: PasswordChange,
    request: Request,
    user: User = Depends(signed_in),
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> None:
    """A new password, given the current one; every other session of the account ends
    (this one stays signed in)."""
    if user.password_hash is None:
        raise ApiError(409, "a guest has no password: sign up for an account")
    stored = user.password_hash
    await ownership.check_password(limits, config, user, body.current)
    hashed = await limits.hashing.run(auth.hash_password, body.new)
    mine = auth.token_hash(request.cookies.get(auth.COOKIE) or "")
    await run_in_threadpool(_new_password, db, user.id, stored, hashed, mine)


def _new_password(db: Database, user_id: int, stored: str, hashed: str, mine: str) -> None:
    with db.write() as s:
        # Guarded: a change made meanwhile (another tab, a reset) is not silently undone.
        changed = s.execute(
            update(User)
            .where(User.id == user_id, User.password_hash == stored)
            .values(password_hash=hashed)
        ).rowcount
        if changed != 1:
            raise ApiError(409, "your password was changed meanwhile: sign in again")
        people.sign_out_everywhere(s, user_id, but=mine)
        s.commit()


@router.post("/email/confirm", responses=refusals(400, 403, 409, 413, 422))
def confirm_email(body: Link, w: DbSession = Depends(db_writer)) -> Confirmed:
    """Follow the link mailed to a new address: it becomes the account's confirmed
    address. Needs no session: the link may be opened in any browser."""
    link = people.use_token(w, body.token, people.EMAIL)
    if link is None:
        raise ApiError(400, BAD_LINK)
    user = w.get(User, link.user_id, with_for_update=True)
    assert user is not None and link.email is not None
    if user.deleted_at is not None or user.pending_email != link.email:
        raise ApiError(409, "the account's address was changed since this link was sent")
    ownership.confirmed_now(user)
    w.commit()
    return Confirmed(email=link.email)


@router.post("/email/undo", responses=refusals(400, 403, 409, 413, 422))
def undo_address_change(body: Link, w: DbSession = Depends(db_writer)) -> Confirmed:
    """Follow the link mailed to a confirmed address when it was changed or removed: it is
    the account's confirmed address again, a new one waiting for its link is dropped, the
    account's reset and confirmation links stop working, and every session of the account
    ends (whoever changed it included). Needs no session: the link may be opened in any
    browser."""
    restored = ownership.undo_change(w, body.token)
    w.commit()
    return Confirmed(email=restored)


@router.post("/me/email/resend", status_code=202, responses=refusals(400, 401, 403, 409, 429))
def resend_confirmation(
    request: Request,
    user: User = Depends(signed_in),
    w: DbSession = Depends(db_writer),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Sent:
    """Mail the link for the address waiting to be confirmed again (the earlier link stops
    working)."""
    mailer: Mailer = request.app.state.mailer
    if not mailer.on:
        raise ApiError(400, "this server sends no e-mail, so no address can be confirmed")
    address = user.pending_email
    if address is None:
        raise ApiError(409, "no address of yours waits for confirmation")
    limits.spend(people_mails(config, user.id))
    lifetime = timedelta(hours=config.confirm_hours)
    token = people.new_token(w, user.id, people.EMAIL, lifetime, address)
    w.commit()
    mailer.confirm_link(address, user.name, token, config.confirm_hours)
    return Sent(message=f"A new link is on its way to {address}.")


@router.post(
    "/me/delete", status_code=204, responses=refusals(400, 401, 403, 409, 413, 422, 429, 503)
)
async def delete_account(
    body: Password,
    request: Request,
    response: Response,
    user: User = Depends(signed_in),
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> None:
    """Delete your account, given its password. Your name, password, addresses, settings,
    ratings and mutes go; the games and chat you were part of stay, under a neutral name
    ("deleted player 17"); a bot plays your seats in running games; tables you host that
    have not started close."""
    if user.password_hash is None:
        raise ApiError(409, "a guest account has no password: it goes by itself once unused")
    await ownership.check_password(limits, config, user, body.password)
    await run_in_threadpool(_delete, db, user.id)
    await run_in_threadpool(request.app.state.moderation.tick)  # its seats here, at once
    response.delete_cookie(auth.COOKIE)


def _delete(db: Database, user_id: int) -> None:
    with db.write() as s:
        user = s.get(User, user_id, with_for_update=True)
        assert user is not None
        people.erase(s, people.Actor(user_id=user_id), user, people.DELETE)
        s.commit()


@router.get("/me/played-with", responses=refusals(401))
def played_with(
    user: User = Depends(signed_in), s: DbSession = Depends(db_session)
) -> list[dict[str, Any]]:
    """The people you finished games with, the most recent first: their name, how many games,
    and the latest (its table and game), to find them again and invite them to a new table."""
    return companions.played_with(s, user.id)
