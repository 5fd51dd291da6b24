"""Names, passwords (argon2), sessions (a random token in an HttpOnly cookie, kept in the
store only as its SHA-256) and CSRF tokens (sent back in a header on every request that
changes something)."""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
import unicodedata
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from meadow.store.models import Session, User, name_key

COOKIE = "meadow_session"
CSRF_HEADER = "X-CSRF-Token"
# A browser that has logged in to a name before: it may still log in to that name while
# failures from everywhere else have locked the name (a distributed guessing attack).
KNOWN_COOKIE = "meadow_known"
KNOWN_DAYS = 365

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,30}$"
NAME_RULE = "a name is 3-30 letters, digits, '-' or '_'"
_NAME = re.compile(NAME_PATTERN)  # with fullmatch: no trailing newline slips past `$`
# Names whose key begins so are the guests' (`guest-` and eight hex digits): no sign-up
# may take one, so a guest's name always means a guest.
GUEST_PREFIX = "guest-"

_hasher = PasswordHasher()


@functools.cache
def dummy_hash() -> str:
    """What an unknown name is checked against, so that it takes as long to refuse as a known
    name with a wrong password: the time of an answer tells nobody which names exist. Made
    once a process, when the server starts (`configure`), not at import: a command that never
    checks a password should not pay a quarter of a second for it."""
    return _hasher.hash(secrets.token_urlsafe(16))


def configure(memory_kib: int, rounds: int) -> None:
    """The cost of the hashes made from now on (settings `password_hash_...`). A stored
    hash names its own cost, so those made before go on being checked as they were made.
    The dummy hash is made now, at the new cost, so that the first refusal of an unknown name
    takes no longer than any other."""
    global _hasher
    _hasher = PasswordHasher(time_cost=rounds, memory_cost=memory_kib)
    dummy_hash.cache_clear()
    dummy_hash()


def normal_name(name: str) -> str:
    """The name as it is stored: NFKC (full-width letters become the plain ones)."""
    return unicodedata.normalize("NFKC", name)


def valid_name(name: str) -> bool:
    """Whether `name` (as stored) follows NAME_RULE: the whole of it, no trailing newline."""
    return _NAME.fullmatch(normal_name(name)) is not None


def reserved(name: str) -> bool:
    return name_key(name).startswith(GUEST_PREFIX)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored: str | None, password: str) -> bool:
    """Whether `password` matches the stored hash; without one (no such account, or a
    guest) the answer is no, after the same work."""
    try:
        matches = _hasher.verify(stored or dummy_hash(), password)
    except (VerificationError, InvalidHashError):
        return False
    return matches and stored is not None


def token_hash(token: str) -> str:
    """The key a session is stored under: the SHA-256 of the cookie's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_session(user: User, days: int) -> tuple[Session, str]:
    """A session for `user` and the token its cookie carries (the store keeps its hash)."""
    token = secrets.token_urlsafe(32)
    session = Session(
        token_hash=token_hash(token),
        user_id=user.id,
        csrf=secrets.token_urlsafe(32),
        expires_at=datetime.now(UTC) + timedelta(days=days),
    )
    return session, token


def expired(session: Session) -> bool:
    expires = session.expires_at
    if expires.tzinfo is None:  # SQLite hands times back without a zone
        expires = expires.replace(tzinfo=UTC)
    return expires < datetime.now(UTC)


def known_browser(secret: str, name: str) -> str:
    """The mark a browser keeps once it has logged in to `name`: the name's key, signed
    with the site's secret, so that nobody else can make one."""
    key = name_key(name)
    return f"{key}.{_signature(secret, key)}"


def is_known_browser(secret: str, name: str, mark: str | None) -> bool:
    if not mark:
        return False
    key, _, signature = mark.rpartition(".")
    return key == name_key(name) and hmac.compare_digest(signature, _signature(secret, key))


def _signature(secret: str, key: str) -> str:
    message = f"known-browser:{key}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:32]
