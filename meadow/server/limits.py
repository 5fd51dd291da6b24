"""Limits: how often one address (or one name from one address) may do something, and how
many passwords are hashed at once.

Counters count in fixed windows: the first try opens a window of `seconds`, in which at most
`limit` tries pass; the first try after it ends opens the next. One process keeps them in
memory (`Alone`); the processes of a site with Redis share them there (`Shared`), so that N
processes allow what one does, not N times as much.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from meadow.server import metrics
from meadow.server.errors import ApiError
from meadow.server.settings import Settings

log = logging.getLogger("meadow.server")

T = TypeVar("T")


@dataclass(frozen=True)
class Rule:
    """At most `limit` of what `key` counts in `seconds`; `what` names them in a refusal."""

    key: str
    limit: int
    seconds: int
    what: str


class TooMany(ApiError):
    """A refusal that time lifts: 429 (or 503 when the server is busy), with Retry-After."""

    def __init__(self, status: int, message: str, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(status, message, retry_after=seconds)
        self.retry_after = seconds


class Counters(Protocol):
    """Where the counts are kept: `add` counts one and returns the count and the seconds
    left in the window; `read` returns the same without counting; `take_back` uncounts one
    of a window still open."""

    def add(self, key: str, seconds: int) -> tuple[int, float]: ...

    def read(self, key: str) -> tuple[int, float]: ...

    def take_back(self, key: str) -> None: ...

    def drop(self, key: str) -> None: ...


class Limits:
    """The site's counters, and the gate to password hashing."""

    def __init__(self, counters: Counters, hashing: Hashing) -> None:
        self.counters = counters
        self.hashing = hashing

    def spend(self, rule: Rule) -> None:
        """Count one try; TooMany if that is more than the rule allows."""
        count, left = self.counters.add(rule.key, rule.seconds)
        if count > rule.limit:
            raise _refusal(rule, left)

    def spend_hourly(self, request: HTTPConnection, what: str, limit: int) -> None:
        """Count one of `what` (a plural: "new tables") from the request's address, of
        `limit` an hour."""
        address = client_address(request)
        self.spend(Rule(f"{what}:{address}", limit, 3600, f"{what} from your address"))

    def check(self, rules: Iterable[Rule]) -> None:
        """TooMany if any of the rules is used up, counting nothing: a refusal before any
        work is done (a try's own `spend` decides, since others may count meanwhile)."""
        for rule in rules:
            count, left = self.counters.read(rule.key)
            if count >= rule.limit:
                raise _refusal(rule, left)

    @contextmanager
    def spending(self, rules: Sequence[Rule]) -> Iterator[None]:
        """Count one try against every rule, or against none: TooMany naming the first rule
        used up. All are checked before any counts, so a try one rule refuses uses up
        nothing of the others; a rule filled meanwhile (by another process) gives back the
        counts made. A refusal inside the block (ApiError) gives them back too: a try that
        did nothing counts for nothing."""
        self.check(rules)
        spent: list[Rule] = []
        try:
            for rule in rules:
                spent.append(rule)
                self.spend(rule)
            yield
        except ApiError:
            for rule in spent:
                self.take_back(rule)
            raise

    def take_back(self, rule: Rule) -> None:
        """Uncount one `spend`: a try that was counted before its outcome was known (a
        log-in counted as failed while its password is checked) and then succeeded."""
        self.counters.take_back(rule.key)

    def forget(self, rule: Rule) -> None:
        self.counters.drop(rule.key)


def _refusal(rule: Rule, left: float) -> TooMany:
    metrics.THROTTLED.labels(_kind(rule)).inc()
    span = "an hour" if rule.seconds == 3600 else _duration(rule.seconds)
    wait = _duration(max(1, math.ceil(left)))
    return TooMany(
        429, f"too many {rule.what}: at most {rule.limit} in {span}; try again in {wait}", left
    )


def _kind(rule: Rule) -> str:
    """What a rule counts, without whose tries (a bounded set, for the metrics): its key's
    prefix, "login-name" for one name from every address and "login-name-address" for
    one name from one address.

    >>> _kind(Rule("login-name:10.0.0.1|ann", 1, 60, "")), _kind(Rule("login-name:ann", 1, 60, ""))
    ('login-name-address', 'login-name')
    """
    kind, _, who = rule.key.partition(":")
    return f"{kind}-address" if "|" in who else kind


def _duration(seconds: int) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' * (minutes != 1)}"
    return f"{seconds} second{'s' * (seconds != 1)}"


def client_address(request: HTTPConnection) -> str:
    """Who asks, as far as limits go: the client's address (uvicorn puts the X-Forwarded-For
    of a trusted proxy there). An IPv6 client counts by its /64, the block one subscriber
    usually holds whole."""
    host = request.client.host if request.client else "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


class Alone:
    """One process: the counters in memory."""

    def __init__(self) -> None:
        self._windows: dict[str, tuple[int, float]] = {}  # key: count, end (monotonic)
        self._lock = threading.Lock()
        self._next_sweep = 0.0

    def add(self, key: str, seconds: int) -> tuple[int, float]:
        now = time.monotonic()
        with self._lock:
            self._sweep(now)
            count, end = self._windows.get(key, (0, now))
            if end <= now:
                count, end = 0, now + seconds
            self._windows[key] = (count + 1, end)
        return count + 1, end - now

    def read(self, key: str) -> tuple[int, float]:
        now = time.monotonic()
        with self._lock:
            count, end = self._windows.get(key, (0, now))
        return (count, end - now) if end > now else (0, 0.0)

    def take_back(self, key: str) -> None:
        with self._lock:
            count, end = self._windows.get(key, (0, 0.0))
            if count > 0:
                self._windows[key] = (count - 1, end)

    def drop(self, key: str) -> None:
        with self._lock:
            self._windows.pop(key, None)

    def _sweep(self, now: float) -> None:
        # Ended windows go once a second: names sprayed by the thousand do not stay.
        if now >= self._next_sweep:
            self._next_sweep = now + 1
            self._windows = {k: v for k, v in self._windows.items() if v[1] > now}


# Count one; the first count of a window sets when it ends. Atomic, so processes racing on
# one key never lose a count or leave a key without an end.
_ADD = """
local count = redis.call('incr', KEYS[1])
if count == 1 then
    redis.call('pexpire', KEYS[1], ARGV[1])
end
return {count, redis.call('pttl', KEYS[1])}
"""
# Uncount one, in a window still open only: a DECR of a key gone would make one that never
# ends.
_TAKE_BACK = """
if redis.call('exists', KEYS[1]) == 1 then
    return redis.call('decr', KEYS[1])
end
return 0
"""


class Shared:
    """The processes of one site: the counters in Redis, under the site's name. While Redis
    fails, each process counts alone (with a warning in the log) rather than refusing
    everyone or letting every try through."""

    def __init__(self, url: str, site: Callable[[], str]) -> None:
        """`site`: the site's name in Redis, asked for when the first count needs it."""
        import redis  # only a cluster needs it: `pip install 'meadow-tabletop[cluster]'`

        # Making the client connects nothing: a Redis that is down fails counts, not start.
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._add = self._redis.register_script(_ADD)
        self._take_back = self._redis.register_script(_TAKE_BACK)
        self._failed = redis.RedisError
        self._site = site
        self._prefix: str | None = None
        self._alone = Alone()
        self._warned = 0.0

    def add(self, key: str, seconds: int) -> tuple[int, float]:
        try:
            count, left_ms = self._add(keys=[self._key(key)], args=[seconds * 1000])
        except self._failed as exc:
            self._warn(exc)
            return self._alone.add(key, seconds)
        return int(count), max(int(left_ms), 0) / 1000

    def read(self, key: str) -> tuple[int, float]:
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                count, left_ms = pipe.get(self._key(key)).pttl(self._key(key)).execute()
        except self._failed as exc:
            self._warn(exc)
            return self._alone.read(key)
        return int(count or 0), max(int(left_ms), 0) / 1000

    def take_back(self, key: str) -> None:
        try:
            self._take_back(keys=[self._key(key)])
        except self._failed as exc:
            self._warn(exc)
        self._alone.take_back(key)

    def drop(self, key: str) -> None:
        try:
            self._redis.delete(self._key(key))
        except self._failed as exc:
            self._warn(exc)
        self._alone.drop(key)

    def _key(self, key: str) -> str:
        if self._prefix is None:
            self._prefix = f"{self._site()}:limits:"
        return self._prefix + key

    def _warn(self, exc: Exception) -> None:
        if time.monotonic() - self._warned > 60:  # once a minute, not once a request
            self._warned = time.monotonic()
            log.warning("limits: Redis failed (%s); counting in this process meanwhile", exc)


class Hashing:
    """At most `concurrency` passwords hashed at once (each takes a core for a tenth of a
    second or so) and `queue` more waiting; past that, 503 at once: a flood of log-ins
    waits for its own slots and leaves the event loop, and every other request, alone."""

    def __init__(self, concurrency: int, queue: int) -> None:
        self._slots = asyncio.Semaphore(concurrency)
        self._most = concurrency + queue
        self._inside = 0

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker thread, in a hashing slot."""
        if self._inside >= self._most:
            metrics.THROTTLED.labels("password-hashing").inc()
            raise TooMany(503, "the server is busy checking passwords; try again in a second", 1)
        self._inside += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(work, *args)
        finally:
            self._inside -= 1


def for_app(app: FastAPI, config: Settings) -> Limits:
    """The site's limits (shared in Redis when the site has it), and the answer to a refusal
    with its Retry-After header."""
    counters: Counters = Alone()
    if config.redis_url:
        counters = Shared(config.redis_url, lambda: app.state.site)  # named at start
    app.add_exception_handler(TooMany, _refused)
    hashing = Hashing(config.password_hashing_concurrency, config.password_hashing_queue)
    return Limits(counters, hashing)


async def _refused(_: Request, exc: Exception) -> Response:
    assert isinstance(exc, TooMany)
    return JSONResponse(
        {"error": exc.message, **exc.extra},
        status_code=exc.status,
        headers={"Retry-After": str(exc.retry_after)},
    )
