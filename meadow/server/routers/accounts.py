"""Sign-up, log-in, guests and log-out."""

from __future__ import annotations

import re
import secrets
from typing import Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session as DbSession

from meadow.server import auth
from meadow.server.deps import db_session, db_writer, session_of, settings, signed_in
from meadow.server.errors import ApiError
from meadow.server.settings import Settings
from meadow.store import Session, User

router = APIRouter(prefix="/api/accounts", tags=["accounts"])

NAME = re.compile(r"^[A-Za-z0-9_-]{3,30}$")


class Credentials(BaseModel):
    name: str = Field(max_length=30)
    password: str = Field(max_length=200)


class Display(BaseModel, extra="forbid"):
    """How the browser shows the games to one person; every field has a default, so an
    account that never chose sees the same as a visitor."""

    language: Literal["en", "de"] = "en"
    animations: bool = Field(True, description="Short animations when something changes.")
    colourblind: bool = Field(False, description="Patterns and symbols besides colours.")
    renature_scored_colour: bool = Field(
        True, description="Renature: draw scored areas in a colour of their own."
    )
    renature_animals: Literal["faded", "hidden", "visible"] = Field(
        "faded", description="Renature: how animals that no longer matter are drawn."
    )


class Me(BaseModel):
    name: str
    guest: bool
    csrf: str
    email: str | None = None
    notify: bool = False
    settings: Display = Display()


class Preferences(BaseModel):
    # No control characters: PostgreSQL cannot store a NUL in text.
    email: str | None = Field(
        None, max_length=200, pattern=r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+$"
    )
    notify: bool = Field(False, description="E-mail me when it is my move at an async table.")


def _sign_in(response: Response, s: DbSession, user: User, config: Settings) -> Me:
    session = auth.new_session(user, config.session_days)
    s.add(session)
    s.commit()
    response.set_cookie(
        auth.COOKIE,
        session.token,
        max_age=config.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=config.secure_cookies,
    )
    return _me(user, session.csrf)


@router.post("/signup", status_code=201)
def signup(
    body: Credentials,
    response: Response,
    s: DbSession = Depends(db_writer),
    config: Settings = Depends(settings),
) -> Me:
    if not NAME.match(body.name):
        raise ApiError(400, "a name is 3-30 letters, digits, '-' or '_'")
    if len(body.password) < 8:
        raise ApiError(400, "a password needs at least 8 characters")
    hashed = auth.hash_password(body.password)  # slow on purpose: before any transaction
    if s.scalar(select(User).where(User.name == body.name)) is not None:
        raise ApiError(409, f"the name {body.name!r} is taken")
    user = User(name=body.name, password_hash=hashed)
    s.add(user)
    s.flush()
    return _sign_in(response, s, user, config)


@router.post("/login")
def login(
    body: Credentials,
    request: Request,
    response: Response,
    s: DbSession = Depends(db_session),
    w: DbSession = Depends(db_writer),
    config: Settings = Depends(settings),
) -> Me:
    limiter: auth.RateLimit = request.app.state.login_limit
    if not limiter.allow(body.name.lower()):
        raise ApiError(429, "too many log-in attempts for this name; wait a minute")
    user = s.scalar(select(User).where(User.name == body.name)) if NAME.match(body.name) else None
    s.commit()  # checking the password is slow on purpose: not inside a transaction
    if user is None or not auth.password_matches(user, body.password):
        raise ApiError(401, "wrong name or password")
    return _sign_in(response, w, user, config)


@router.post("/guest", status_code=201)
def guest(
    response: Response, s: DbSession = Depends(db_writer), config: Settings = Depends(settings)
) -> Me:
    if not config.guests:
        raise ApiError(403, "this server does not allow guests")
    user = User(name=f"guest-{secrets.token_hex(4)}", password_hash=None)
    s.add(user)
    s.flush()
    return _sign_in(response, s, user, config)


@router.get("/me")
def me(request: Request, s: DbSession = Depends(db_session)) -> Me:
    session = session_of(request, s)
    if session is None:
        raise ApiError(401, "not signed in")
    user = session.user
    return _me(user, session.csrf)


@router.put("/me")
def set_preferences(
    body: Preferences,
    request: Request,
    user: User = Depends(signed_in),
    s: DbSession = Depends(db_session),
    w: DbSession = Depends(db_writer),
) -> Me:
    """Your e-mail address and whether to be told when it is your move (async tables)."""
    if body.notify and not body.email:
        raise ApiError(400, "notices need an e-mail address")
    return _saved(request, user, s, w, email=body.email, notify=body.notify)


@router.put("/me/settings")
def set_display(
    body: Display,
    request: Request,
    user: User = Depends(signed_in),
    s: DbSession = Depends(db_session),
    w: DbSession = Depends(db_writer),
) -> Me:
    """How the browser shows things to you: language, animations, colour-blind help, and the
    settings of single games."""
    return _saved(request, user, s, w, settings=body.model_dump())


def _saved(request: Request, user: User, s: DbSession, w: DbSession, **changes: object) -> Me:
    """Store changes to the account, and answer with the account as it now is."""
    w.execute(update(User).where(User.id == user.id).values(**changes))
    w.commit()
    for name, value in changes.items():
        setattr(user, name, value)
    session = session_of(request, s)
    assert session is not None
    return _me(user, session.csrf)


def _me(user: User, csrf: str) -> Me:
    return Me(
        name=user.name,
        guest=user.password_hash is None,
        csrf=csrf,
        email=user.email,
        notify=user.notify,
        settings=_display(user.settings),
    )


def _display(saved: dict[str, object] | None) -> Display:
    # Settings saved by another server version may lack fields or hold retired ones: the
    # defaults stand in rather than the page failing to load.
    try:
        return Display.model_validate(saved or {})
    except ValidationError:
        return Display()


@router.post("/logout", status_code=204)
def logout(
    request: Request,
    response: Response,
    user: User = Depends(signed_in),
    w: DbSession = Depends(db_writer),
) -> None:
    token = request.cookies.get(auth.COOKIE)
    if token:
        w.execute(delete(Session).where(Session.token == token))
        w.commit()
    response.delete_cookie(auth.COOKIE)
