"""Proof that an account's owner acts, not only a browser left signed in (issue 43, 1).

Whatever leads to the password needs the current password: changing it, deleting the
account, and giving, changing or removing the e-mail address (a reset link goes to it). A
confirmed address that is changed or removed is told, with a link that undoes the change and
ends every session of the account; and while it may still do so, no reset goes to an address
confirmed less than a day ago. Guests have no password and are never sent a reset: an
address on a guest's account leads to nothing but notices.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session as DbSession
from starlette.concurrency import run_in_threadpool

from meadow.server import auth, people
from meadow.server.errors import ApiError
from meadow.server.limits import Limits, Rule
from meadow.server.settings import Settings
from meadow.store import Token, User

UNDO = "undo"  # what a mailed link is for: taking a change of a confirmed address back
# How long a newly confirmed address waits for resets while the one it replaced may object.
HELD = timedelta(days=1)
WRONG_PASSWORD = "that is not your current password"
BAD_UNDO = (
    "this link is unknown, was used already, or has expired: sign in and change the "
    "address in your profile, or ask for a new password"
)


async def check_password(limits: Limits, config: Settings, user: User, password: str) -> None:
    """403 unless `password` is the account's; wrong ones are limited per account as failed
    log-ins are per name, so a browser left signed in cannot be used to guess it: the
    password change, the address and deleting the account share one count."""
    rule = Rule(
        f"password-check:{user.id}",
        config.login_failures_per_name_and_address,
        config.login_failure_minutes * 60,
        "wrong passwords for your account",
    )
    await run_in_threadpool(limits.check, [rule])
    if not await limits.hashing.run(_password_matches, limits, rule, user.password_hash, password):
        raise ApiError(403, WRONG_PASSWORD)


def _password_matches(limits: Limits, rule: Rule, stored: str | None, password: str) -> bool:
    # Counted before the check, as a log-in is, so checks at once never pass the limit.
    limits.spend(rule)
    if not auth.password_matches(stored, password):
        return False
    limits.take_back(rule)
    return True


def moves_address(user: User, email: str | None) -> bool:
    """Whether saving `email` gives the account a new address to confirm or removes the one
    it has: what leads to a reset link. Keeping the address, or going back to the confirmed
    one from a change not yet confirmed, moves nothing."""
    if email is None:
        return user.email is not None
    confirmed = user.email if user.email_confirmed else None
    return email not in (confirmed, user.pending_email)


def replaced_address(user: User, email: str | None) -> str | None:
    """The confirmed address that saving `email` changes or removes (it is told), if any."""
    if not user.email_confirmed or user.email is None or not moves_address(user, email):
        return None
    return user.email


def new_undo_link(s: DbSession, user_id: int, address: str, lifetime: timedelta) -> str:
    """A link that puts `address` back. Earlier undo links stay: each restores what the
    account had before its own change, so a later change cannot silence an earlier one."""
    return people.new_token(s, user_id, UNDO, lifetime, address, superseding=False)


def undo_change(s: DbSession, token: str) -> str:
    """Follow an undo link: its address is the account's confirmed address again, a change
    waiting for confirmation is dropped, the reset and confirmation links stop working, and
    so do the undo links made since (which would put back what this one took back); every
    session ends. Returns the address restored."""
    link = people.use_token(s, token, UNDO)
    if link is None:
        raise ApiError(400, BAD_UNDO)
    user = s.get(User, link.user_id, with_for_update=True)
    assert user is not None and link.email is not None  # its links go with it
    if user.deleted_at is not None:
        raise ApiError(409, "the account was deleted")
    user.email, user.email_confirmed, user.pending_email = link.email, True, None
    user.email_confirmed_at = _now()
    s.execute(
        delete(Token).where(
            Token.user_id == user.id,
            or_(Token.purpose != UNDO, Token.created_at >= link.created_at),
        ),
        execution_options={"synchronize_session": False},
    )
    people.sign_out_everywhere(s, user.id)
    return link.email


def confirmed_now(user: User) -> None:
    """The account's pending address was confirmed by its link."""
    user.email, user.email_confirmed = user.pending_email, True
    user.pending_email, user.email_confirmed_at = None, _now()


def held(s: DbSession, user: User) -> bool:
    """Whether resets to the account's address wait: it was confirmed less than `HELD` ago
    and another address it replaced may still undo the change (a first address, or one
    whose predecessor took no objection in time, does not wait)."""
    since = user.email_confirmed_at
    now = _now()
    if since is None or _aware(since) <= now - HELD:
        return False
    objections = s.scalars(
        select(Token.expires_at).where(
            Token.user_id == user.id, Token.purpose == UNDO, Token.email != user.email
        )
    )
    return any(_aware(until) > now for until in objections)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
