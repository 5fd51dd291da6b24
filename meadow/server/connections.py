"""Connections: what one client may hold of a process.

Without these bounds one client could take every connection: heads sent a byte at a time
and never finished, each holding an open file until the process had none left and accepted
nobody (issue 43). So, for every connection (`BoundedHttp`, uvicorn's httptools protocol
with Meadow's bounds):

- its request head must arrive whole within `MEADOW_HEAD_TIMEOUT_SECONDS` (then 408 and
  closed; a connection that sent nothing is closed silently), and at most
  `MEADOW_MAX_HEAD_BYTES` and `MEADOW_MAX_HEADERS` header fields (then 431);
- the process serves at most `MEADOW_MAX_CONNECTIONS` at once, HTTP and WebSocket alike;
  a request beyond that is answered 503 at once, and a connection made beyond it has a
  second to send its head, so surplus connections free their files quickly;
- the open-file limit is raised to its hard limit at start (`raise_open_file_limit`), and
  the connection cap lowered to half of what it allows, so that accepting never fails
  for want of a file (which would leave everyone else waiting, unanswered).

uvicorn's own `limit_concurrency` is not used: it does not refuse WebSocket upgrades, and it
logs a warning for each request it refuses.

And for table sockets (`Sockets`): at most `MEADOW_SOCKETS_PER_PERSON` per person and
`MEADOW_SOCKETS_PER_ADDRESS` per address (the address the limits use: a trusted proxy's
X-Forwarded-For), counted in each process.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus

import httptools
from starlette.requests import HTTPConnection
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from meadow.server import metrics
from meadow.server.limits import client_address
from meadow.server.settings import Settings

log = logging.getLogger("meadow.server")

# A connection made while the process is full has this long to send its head (and be told
# 503): a browser sends it at once; a flood's surplus goes within the second.
OVER_CAP_HEAD_SECONDS = 1.0
# After a refusal, what the client still sends is read and dropped this long before the
# connection closes: closing with unread bytes would reset it, and the client could lose the
# answer (nginx's lingering close).
LINGER_SECONDS = 2.0
TOO_MANY_SOCKETS = 4429  # WebSocket close code: one person's or address's sockets are many


@dataclass(frozen=True)
class Bounds:
    """What one connection may take of a process."""

    head_seconds: float
    head_bytes: int
    headers: int
    connections: int

    @classmethod
    def of(cls, config: Settings, connections: int) -> Bounds:
        return cls(
            config.head_timeout_seconds, config.max_head_bytes, config.max_headers, connections
        )


class Refused(Exception):
    """A request answered with `status` and `message` before it reaches the app."""

    def __init__(self, status: int, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


class BoundedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, with `bounds` (see the module)."""

    bounds: Bounds  # set by `http_protocol`
    _full_warned = 0.0  # when "the process is full" was last logged (once a minute)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._in_head = True  # bytes arriving now are a request head
        self._head_begun = False  # its first byte came, its last not yet
        self._head_bytes = 0
        self._refusal: Refused | None = None
        self._refused = False  # answered; what comes is dropped until it closes
        self._head_seconds = self.bounds.head_seconds
        if len(self.connections) > self.bounds.connections:
            self._head_seconds = min(self._head_seconds, OVER_CAP_HEAD_SECONDS)
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self._head_seconds, self._head_too_slow
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # uvicorn's own, but for the refusals of `on_headers_complete`, which it would log
        # and answer as an invalid request.
        if self._refused:
            return
        if self._in_head:
            self._head_bytes += len(data)
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
            return
        except httptools.HttpParserError:
            if self._refusal is None:
                self.logger.warning("Invalid HTTP request received.")
                self.send_400_response("Invalid HTTP request received.")
            else:
                self._refuse(self._refusal)
            return
        self._check_unfinished_head()

    def _check_unfinished_head(self) -> None:
        """A head still arriving: bounded in size, and timed from its first byte."""
        if not self._head_begun or self.transport.is_closing():
            return
        if self._head_bytes > self.bounds.head_bytes:
            self._refuse(_head_too_large(self.bounds.head_bytes))
        elif self._head_timer is None:
            self._head_seconds = self.bounds.head_seconds
            self._head_timer = self.loop.call_later(self._head_seconds, self._head_too_slow)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_begun = True

    def on_headers_complete(self) -> None:
        self._in_head = self._head_begun = False
        self._head_bytes = 0
        self._stop_head_timer()
        self._refusal = self._refusal_of_head()
        if self._refusal is not None:
            raise self._refusal  # stops the parser; `data_received` answers
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # what comes next on a kept-alive connection

    def _refusal_of_head(self) -> Refused | None:
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > self.bounds.head_bytes:
            return _head_too_large(self.bounds.head_bytes)
        if len(self.headers) > self.bounds.headers:
            return Refused(431, f"too many header fields: at most {self.bounds.headers}")
        if len(self.connections) > self.bounds.connections:
            self._warn_full()
            metrics.THROTTLED.labels("connections").inc()
            return Refused(
                503,
                f"the server has as many connections as it serves at once "
                f"({self.bounds.connections}); try again in a few seconds",
                retry_after=5,
            )
        return None

    def _warn_full(self) -> None:
        now = time.monotonic()
        if now - BoundedHttp._full_warned > 60:
            BoundedHttp._full_warned = now
            log.warning(
                "%d connections open, MEADOW_MAX_CONNECTIONS=%d: new requests get 503",
                len(self.connections),
                self.bounds.connections,
            )

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        metrics.THROTTLED.labels("head-timeout").inc()
        if not self._head_begun:  # nothing said: nothing to answer
            self.transport.close()
            return
        seconds = f"{self._head_seconds:g}"
        self._refuse(Refused(408, f"the request's head did not arrive within {seconds} s"))

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _refuse(self, refused: Refused) -> None:
        """Answer `refused` as the app answers an error (JSON), and close."""
        self._stop_head_timer()
        body = json.dumps({"error": refused.message}).encode()
        headers = [
            b"content-type: application/json",
            b"content-length: %d" % len(body),
            b"connection: close",
        ]
        if refused.retry_after is not None:
            headers.append(b"retry-after: %d" % refused.retry_after)
        phrase = HTTPStatus(refused.status).phrase.encode()
        status = b"HTTP/1.1 %d %s\r\n" % (refused.status, phrase)
        self.transport.write(status + b"\r\n".join(headers) + b"\r\n\r\n" + body)
        self._refused = True
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the client reads the answer, then the end
        self.loop.call_later(LINGER_SECONDS, self.transport.close)


def _head_too_large(most: int) -> Refused:
    return Refused(431, f"the request's head is too large: at most {most} bytes")


def http_protocol(bounds: Bounds) -> type[BoundedHttp]:
    """The protocol class uvicorn is given (`uvicorn.Config(http=...)`), with `bounds`."""
    return type("BoundedHttp", (BoundedHttp,), {"bounds": bounds})


def raise_open_file_limit(
    wanted_connections: int,
    getrlimit: Callable[[int], tuple[int, int]] = resource.getrlimit,
    setrlimit: Callable[[int, tuple[int, int]], None] = resource.setrlimit,
) -> int:
    """Raise this process's open-file limit to its hard limit; return how many connections
    it may serve at once: `wanted_connections`, or half the files it may open if that is
    fewer (the rest for the connections beyond it, which must be accepted to be answered
    503, and for the database, the logs and the bot workers), with a warning saying what
    to set."""
    soft, hard = getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (OSError, ValueError) as exc:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, target, exc)
    files = soft if soft != resource.RLIM_INFINITY else target
    if wanted_connections * 2 <= files:
        return wanted_connections
    most = max(files // 2, 1)
    log.warning(
        "open files limited to %d: at most %d connections at once, not MEADOW_MAX_CONNECTIONS"
        "=%d; raise the limit to %d or more (ulimit -n, systemd LimitNOFILE, "
        "docker --ulimit nofile)",
        files,
        most,
        wanted_connections,
        wanted_connections * 2,
    )
    return most


class Sockets:
    """How many table sockets each person and each address holds in this process, and the
    refusal of one more past `MEADOW_SOCKETS_PER_PERSON` or `MEADOW_SOCKETS_PER_ADDRESS`."""

    def __init__(self, per_person: int, per_address: int) -> None:
        self.per_person = per_person
        self.per_address = per_address
        self._held: dict[str, int] = {}

    @classmethod
    def of(cls, config: Settings) -> Sockets:
        return cls(config.sockets_per_person, config.sockets_per_address)

    def take(self, connection: HTTPConnection, user_id: int | None) -> str | None:
        """Count one socket of `user_id` (None: nobody signed in) from the connection's
        address; or, if that is more than either allows, count nothing and say why. Each
        socket counted is given back with `give_back`, once."""
        keys = self._keys(connection, user_id)
        person, address = keys
        if person is not None and self._held.get(person, 0) >= self.per_person:
            metrics.THROTTLED.labels("sockets-person").inc()
            return f"too many sockets open: at most {self.per_person} per person"
        if self._held.get(address, 0) >= self.per_address:
            metrics.THROTTLED.labels("sockets-address").inc()
            return f"too many sockets open: at most {self.per_address} from one address"
        for key in keys:
            if key is not None:
                self._held[key] = self._held.get(key, 0) + 1
        return None

    def give_back(self, connection: HTTPConnection, user_id: int | None) -> None:
        for key in self._keys(connection, user_id):
            if key is None:
                continue
            left = self._held.get(key, 0) - 1
            if left > 0:
                self._held[key] = left
            else:
                self._held.pop(key, None)

    @staticmethod
    def _keys(connection: HTTPConnection, user_id: int | None) -> tuple[str | None, str]:
        person = None if user_id is None else f"person:{user_id}"
        return person, f"address:{client_address(connection)}"
