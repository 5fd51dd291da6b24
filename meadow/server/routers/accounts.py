"""Sign-up, log-in, guests and log-out."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, Response
from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as DbSession
from starlette.concurrency import run_in_threadpool

from meadow.server import auth, metrics, ownership, people
from meadow.server.deps import (
    DatabaseRoute,
    database,
    db_session,
    db_writer,
    session_of,
    settings,
    signed_in,
    site_limits,
)
from meadow.server.errors import ApiError, Refusal, refusals
from meadow.server.limits import Limits, Rule, client_address
from meadow.server.settings import Settings
from meadow.store import Database, Mute, Session, User
from meadow.store.models import name_key

router = APIRouter(prefix="/api/accounts", tags=["accounts"], route_class=DatabaseRoute)

# The limits' refusals (per address, per name from an address) and the hashing queue's.
LIMITED = refusals(429)
BUSY = refusals(503)


class Credentials(BaseModel):
    name: str = Field(max_length=30)
    password: str = Field(max_length=200)


class SignUp(BaseModel):
    name: str = Field(
        pattern=auth.NAME_PATTERN,
        description=f"3-30 letters, digits, '-' or '_'; names beginning with "
        f"{auth.GUEST_PREFIX!r} are the guests'. Unique regardless of case: 'Alice' is taken "
        "once 'alice' is.",
    )
    password: str = Field(min_length=8, max_length=200)

    @field_validator("name", mode="wrap")
    @classmethod
    def _name_rule(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str:
        # A refused name is told the rule in words rather than the pattern.
        if not isinstance(value, str):
            return handler(value)
        try:
            return handler(value)
        except ValidationError:
            raise ValueError(f"{value!r}: {auth.NAME_RULE}") from None


class Display(BaseModel, extra="forbid"):
    """How the browser shows the games to one person; every field has a default, so an
    account that never chose sees the same as a visitor."""

    language: Literal["en", "de"] | None = Field(
        None, description="The page's language; null: the browser's own, until one is chosen."
    )
    animations: StrictBool = Field(True, description="Short animations when something changes.")
    move_pace: Literal["off", "normal", "slow"] = Field(
        "normal",
        description="A computer's moves shown one at a time at this pace; off: all at once.",
    )
    pace_people: StrictBool = Field(
        False,
        description="Other people's moves at `move_pace` too; otherwise each lands as it comes.",
    )
    colourblind: StrictBool = Field(False, description="Patterns and symbols besides colours.")
    renature_scored_colour: StrictBool = Field(
        True, description="Renature: draw scored areas in a colour of their own."
    )
    renature_animals: Literal["faded", "hidden", "visible"] = Field(
        "faded", description="Renature: how animals that no longer matter are drawn."
    )
    turn_notification: StrictBool = Field(
        False, description="A browser notification when it becomes your move in a hidden tab."
    )
    turn_sound: StrictBool = Field(
        False, description="A short sound when it becomes your move in a hidden tab."
    )


class Me(BaseModel):
    name: str
    guest: bool
    csrf: str
    email: str | None = None
    notify: bool = False
    settings: Display = Display()
    muted: list[str] = Field(default_factory=list, description="Whose chat you do not read.")
    email_confirmed: bool = Field(
        False, description="`email` was confirmed by its link: notices go to it."
    )
    pending_email: str | None = Field(
        None, description="A new address waiting for its link to be followed."
    )
    admin: bool = Field(False, description="May moderate the site (`/api/admin`).")


# No control characters: PostgreSQL cannot store a NUL in text.
EMAIL_PATTERN = r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+$"


class Preferences(BaseModel):
    email: str | None = Field(None, max_length=200, pattern=EMAIL_PATTERN)
    notify: StrictBool = Field(False, description="E-mail me when it is my move at an async table.")
    password: str | None = Field(
        None,
        max_length=200,
        description="The current password: needed to give, change or remove the address "
        "(a reset link goes to it); not for guests, nor when the address stays.",
    )


def _signed_in(
    response: Response,
    user: User,
    session: Session,
    token: str,
    config: Settings,
    known: str | None = None,
) -> Me:
    """The answer to a sign-up, a log-in or a new guest: the cookie, and who is signed in.
    `known`: the mark of a browser known to the name (`auth.known_browser`), kept a year."""
    _set_cookie(response, auth.COOKIE, token, config.session_days, config)
    if known is not None:
        _set_cookie(response, auth.KNOWN_COOKIE, known, auth.KNOWN_DAYS, config)
    return _me(user, session.csrf)


def _set_cookie(response: Response, name: str, value: str, days: int, config: Settings) -> None:
    # Never read by the page's scripts, never sent by another site's requests.
    response.set_cookie(
        name,
        value,
        max_age=days * 86400,
        httponly=True,
        samesite="lax",
        secure=config.secure_cookies,
    )


def _mark(request: Request, name: str) -> str:
    return auth.known_browser(request.app.state.site_secret, name)


@router.post(
    "/signup",
    status_code=201,
    responses={
        **refusals(400, 403, 413),
        409: {
            "model": Refusal,
            "description": f"The name is taken, or begins with {auth.GUEST_PREFIX!r}.",
        },
        **LIMITED,
        **BUSY,
    },
)
async def signup(
    body: SignUp,
    request: Request,
    response: Response,
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Me:
    """A new account, signed in. Every name the schema accepts is yours unless it is taken
    (409), whatever its case: 'Alice' is taken once 'alice' is."""
    name = auth.normal_name(body.name)
    if not auth.valid_name(name):  # the schema says so too; the store must not rely on it
        raise ApiError(400, f"{name!r}: {auth.NAME_RULE}")
    if auth.reserved(name):
        raise ApiError(409, f"names beginning with {auth.GUEST_PREFIX!r} are the guests'")
    # A taken name is refused before it costs a hash (the unique key decides races later).
    if await run_in_threadpool(_taken, db, name):
        raise _taken_name(name)
    per_hour = config.signups_per_address_per_hour
    await run_in_threadpool(limits.spend_hourly, request, "sign-ups", per_hour)
    hashed = await limits.hashing.run(auth.hash_password, body.password)
    user, session, token = await run_in_threadpool(
        _new_account, db, name, hashed, config.session_days
    )
    return _signed_in(response, user, session, token, config, _mark(request, name))


def _taken(db: Database, name: str) -> bool:
    with db.open() as s:
        return s.scalar(select(User.id).where(User.name_key == name_key(name))) is not None


def _taken_name(name: str) -> ApiError:
    return ApiError(409, f"the name {name!r} is taken")


def _new_account(db: Database, name: str, hashed: str, days: int) -> tuple[User, Session, str]:
    """The account and its first session, in one transaction. Of sign-ups racing for one
    name, the unique key lets one through; the others get 409."""
    with db.write() as s:
        user = User(name=name, password_hash=hashed)
        s.add(user)
        try:
            s.flush()
        except IntegrityError:
            raise _taken_name(name) from None
        session, token = auth.new_session(user, days)
        s.add(session)
        s.commit()
    return user, session, token


@router.post(
    "/login",
    responses={
        **refusals(400, 403, 413),
        401: {"model": Refusal, "description": "Wrong name or password."},
        **LIMITED,
        **BUSY,
    },
)
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Me:
    """Log in by name (any case) and password. Failed tries are limited per name from one
    address, per address, and per name from everywhere; someone else's failures never lock
    you out of a browser you have logged in with before."""
    known = auth.is_known_browser(
        request.app.state.site_secret, body.name, request.cookies.get(auth.KNOWN_COOKIE)
    )
    rules = _login_rules(config, body.name, client_address(request), known)
    await run_in_threadpool(limits.check, rules)
    user = await run_in_threadpool(_account_named, db, body.name)
    stored = user.password_hash if user is not None else None
    if not await limits.hashing.run(_try_password, limits, rules, stored, body.password):
        metrics.LOGIN_FAILURES.inc()
        raise ApiError(401, "wrong name or password")
    assert user is not None  # no stored hash never matches
    if user.banned_at is not None:  # said only to who knows the password
        raise ApiError(403, "this account is banned from this site")
    session, token = await run_in_threadpool(_new_session, db, user, config.session_days)
    return _signed_in(response, user, session, token, config, _mark(request, user.name))


def _login_rules(config: Settings, name: str, address: str, known: bool) -> list[Rule]:
    """Failed log-ins counted per name from one address, per address whatever the names
    (one password sprayed over many), and per name from every address (guessing spread
    over many addresses), which a browser known to the name passes. The first rule is
    forgotten on success, the others take the try back."""
    seconds = config.login_failure_minutes * 60
    rules = [
        Rule(
            f"login-name:{address}|{name_key(name)}",
            config.login_failures_per_name_and_address,
            seconds,
            "failed log-ins for this name from your address",
        ),
        Rule(
            f"login-address:{address}",
            config.login_failures_per_address,
            seconds,
            "failed log-ins from your address",
        ),
    ]
    if not known:
        rules.append(
            Rule(
                f"login-name:{name_key(name)}",
                config.login_failures_per_name,
                seconds,
                "failed log-ins for this name (from a browser you have logged in with "
                "before, you still may)",
            )
        )
    return rules


def _account_named(db: Database, name: str) -> User | None:
    key = name_key(name)
    if "\x00" in key:  # PostgreSQL keeps no NUL in text, so no account has one
        return None
    with db.open() as s:
        return s.scalar(select(User).where(User.name_key == key))


def _try_password(limits: Limits, rules: list[Rule], stored: str | None, password: str) -> bool:
    """In a hashing slot. The try counts as failed before the password is checked, so that
    tries checked at once never pass the limit together (nor tries that queued while
    failures used it up, which are refused without a hash); a success uncounts it."""
    for rule in rules:
        limits.spend(rule)
    if not auth.password_matches(stored, password):
        return False
    limits.forget(rules[0])
    for rule in rules[1:]:
        limits.take_back(rule)
    return True


def _new_session(db: Database, user: User, days: int) -> tuple[Session, str]:
    session, token = auth.new_session(user, days)
    with db.write() as s:
        s.add(session)
        s.commit()
    return session, token


@router.post("/guest", status_code=201, responses={**refusals(403), **LIMITED})
def guest(
    request: Request,
    response: Response,
    s: DbSession = Depends(db_writer),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Me:
    if not config.guests:
        raise ApiError(403, "this server does not allow guests")
    limits.spend_hourly(request, "guest accounts", config.guests_per_address_per_hour)
    user = User(name=f"{auth.GUEST_PREFIX}{secrets.token_hex(4)}", password_hash=None)
    s.add(user)
    s.flush()
    session, token = auth.new_session(user, config.session_days)
    s.add(session)
    s.commit()
    return _signed_in(response, user, session, token, config)


@router.get("/me", responses=refusals(401))
def me(request: Request, s: DbSession = Depends(db_session)) -> Me:
    session = session_of(request, s)
    if session is None:
        raise ApiError(401, "not signed in")
    user = session.user
    return _me(user, session.csrf, _muted_names(s, user))


@router.put("/me", responses={**refusals(400, 401, 403, 409, 413, 429), **BUSY})
async def set_preferences(
    body: Preferences,
    request: Request,
    user: User = Depends(signed_in),
    db: Database = Depends(database),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> Me:
    """Your e-mail address and whether to be told when it is your move (async tables). A
    new address is confirmed first: it gets a link, and waits in `pending_email` until the
    link is followed; notices go only to a confirmed address. Giving, changing or removing
    the address needs the current `password` (403 without it, wrong ones limited as with a
    change of password); a confirmed address changed or removed is told, with a link that
    takes the change back (`address_undo_days`)."""
    if body.notify and not body.email:
        raise ApiError(400, "notices need an e-mail address")
    checked = _needs_password(user, body.email)
    if checked:
        if body.password is None:
            raise ApiError(403, NEEDS_PASSWORD)
        await ownership.check_password(limits, config, user, body.password)
    return await run_in_threadpool(_save_preferences, request, db, user.id, body, checked)


NEEDS_PASSWORD = "giving, changing or removing your e-mail address needs your current password"


def _needs_password(user: User, email: str | None) -> bool:
    # A guest has no password, and no reset ever goes to a guest's address.
    return user.password_hash is not None and ownership.moves_address(user, email)


def _save_preferences(
    request: Request, db: Database, user_id: int, body: Preferences, checked: bool
) -> Me:
    config: Settings = request.app.state.settings
    mailer = request.app.state.mailer
    with db.write() as w:
        user = w.get(User, user_id, with_for_update=True)
        assert user is not None
        if _needs_password(user, body.email) and not checked:  # changed since it was read
            raise ApiError(409, "your account was changed meanwhile: load the page again")
        told = ownership.replaced_address(user, body.email) if mailer.on else None
        lifetime = timedelta(hours=config.confirm_hours)
        changes, token = people.address_changes(w, user, body.email, lifetime)
        undo = None
        if told is not None:
            days = timedelta(days=config.address_undo_days)
            undo = ownership.new_undo_link(w, user.id, told, days)
        if token is not None and mailer.on:
            request.app.state.limits.spend(people_mails(config, user.id))
        w.execute(update(User).where(User.id == user.id).values(notify=body.notify, **changes))
        w.commit()
        name = user.name
    if token is not None and body.email is not None:
        mailer.confirm_link(body.email, name, token, config.confirm_hours)
    if told is not None and undo is not None:
        mailer.address_changing(told, name, body.email, undo, config.address_undo_days)
    with db.open() as s:
        session = session_of(request, s)
        if session is None:
            raise ApiError(401, "not signed in")
        return _me(session.user, session.csrf, _muted_names(s, session.user))


def people_mails(config: Settings, user_id: int) -> Rule:
    """The links mailed to one account in an hour."""
    per_hour = config.mails_per_account_per_hour
    return Rule(f"mails:{user_id}", per_hour, 3600, "e-mails to your account")


@router.put("/me/settings", responses=refusals(400, 401, 403, 413))
def set_display(
    body: Display,
    request: Request,
    user: User = Depends(signed_in),
    s: DbSession = Depends(db_session),
    w: DbSession = Depends(db_writer),
) -> Me:
    """How the browser shows things to you: language, animations, colour-blind help, turn
    alerts (a notification, a sound), and the settings of single games."""
    return _saved(request, user, s, w, settings=body.model_dump())


def _saved(request: Request, user: User, s: DbSession, w: DbSession, **changes: object) -> Me:
    """Store changes to the account, and answer with the account as it now is."""
    w.execute(update(User).where(User.id == user.id).values(**changes))
    w.commit()
    for name, value in changes.items():
        setattr(user, name, value)
    session = session_of(request, s)
    assert session is not None
    return _me(user, session.csrf, _muted_names(s, user))


def _muted_names(s: DbSession, user: User) -> list[str]:
    muted = select(User.name).join(Mute, Mute.muted_id == User.id).where(Mute.user_id == user.id)
    return list(s.scalars(muted.order_by(User.name)))


def _me(user: User, csrf: str, muted: list[str] | None = None) -> Me:
    return Me(
        name=user.name,
        guest=user.password_hash is None,
        csrf=csrf,
        email=user.email,
        notify=user.notify,
        settings=_display(user.settings),
        muted=muted or [],
        email_confirmed=user.email_confirmed,
        pending_email=user.pending_email,
        admin=user.is_admin,
    )


def _display(saved: dict[str, object] | None) -> Display:
    # Settings saved by another server version may lack fields or hold retired ones: the
    # defaults stand in rather than the page failing to load.
    try:
        return Display.model_validate(saved or {})
    except ValidationError:
        return Display()


@router.post("/logout", status_code=204, responses=refusals(401, 403))
def logout(
    request: Request,
    response: Response,
    user: User = Depends(signed_in),
    w: DbSession = Depends(db_writer),
) -> None:
    token = request.cookies.get(auth.COOKIE)
    if token:
        w.execute(delete(Session).where(Session.token_hash == auth.token_hash(token)))
        w.commit()
    response.delete_cookie(auth.COOKIE)
