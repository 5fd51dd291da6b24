"""Passwords (argon2), sessions (a random token in an HttpOnly cookie) and CSRF tokens
(sent back in a header on every request that changes something)."""

from __future__ import annotations

import secrets
import time
from collections import defaultdict, deque
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from meadow.store.models import Session, User

COOKIE = "meadow_session"
CSRF_HEADER = "X-CSRF-Token"

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(user: User, password: str) -> bool:
    if user.password_hash is None:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_session(user: User, days: int) -> Session:
    return Session(
        token=secrets.token_urlsafe(32),
        user_id=user.id,
        csrf=secrets.token_urlsafe(32),
        expires_at=datetime.now(UTC) + timedelta(days=days),
    )


def expired(session: Session) -> bool:
    expires = session.expires_at
    if expires.tzinfo is None:  # SQLite hands times back without a zone
        expires = expires.replace(tzinfo=UTC)
    return expires < datetime.now(UTC)


class RateLimit:
    """At most `limit` attempts per key in any 60 seconds (log-in attempts per name)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.attempts: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        recent = self.attempts[key]
        while recent and now - recent[0] > 60:
            recent.popleft()
        if len(recent) >= self.limit:
            return False
        recent.append(now)
        return True
