"""Several server processes on one database: news of tables through Redis, and one host per
table for its bots and clocks.

The database stays the only truth. A process that commits a line of a table's log publishes
the table's number on one Redis channel; every other process that holds the table in memory
reads the new lines from the database and tells its own listeners. Which process applies a
move does not matter (the guarded update of the table's move counter lets exactly one writer
have each number); which process plays the bots and watches the clocks does: that is the
table's host, the holder of a short Redis lease that it renews while it lives. When a process
dies its leases run out and the others adopt its tables.

A process without Redis (`Alone`) hosts every table and has no one to tell: a single server
works as it always has.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from meadow.server import metrics

# What a process hears: a table's number and what changed there (LINE: lines of its log;
# CHAT: lines of its chat; TABLE: anything else, seats or status), a hint to read that
# from the database; (None, TABLE): anything may have changed, after a reconnection.
News = Callable[[int | None, str], None]
LINE, TABLE, CHAT = "line", "table", "chat"

log = logging.getLogger("meadow.server")

# Renew if still ours: a lease taken over by another process is never extended by mistake.
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class Alone:
    """One server process: it hosts every table and has no one to tell."""

    shared = False

    def start(self, on_news: News) -> None:
        pass

    def publish(self, table_id: int, kind: str = TABLE) -> None:
        pass

    def hosts(self, table_id: int) -> bool:
        return True

    def renew(self, running: Iterable[int]) -> list[int]:
        return []

    def reachable(self) -> bool:
        return True

    def hand_over(self) -> int:
        return 0

    def close(self) -> None:
        pass


class RedisCluster:
    """One of several processes: news through Redis pub/sub, hosts by Redis leases."""

    shared = True

    def __init__(self, url: str, lease_ms: int = 5000, name: str = "meadow") -> None:
        """`name`: the site; several sites may share one Redis under different names."""
        import redis  # only a cluster needs it: `pip install 'meadow[cluster]'`

        self.news = f"{name}:news"  # the channel: a table's number and the sender's name
        self.lease = f"{name}:host:{{}}"  # a table's host: the key holds a process's name

        self.redis = redis.Redis.from_url(url, socket_timeout=5, health_check_interval=10)
        self.redis.ping()  # a wrong URL stops the start with its reason, not later
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_ms = lease_ms
        self.hosted: set[int] = set()
        self.renew_script = self.redis.register_script(_RENEW)
        self.release_script = self.redis.register_script(_RELEASE)
        self.closed = False
        # Set once the process stops: it hosts nothing from then on, whatever `renew` hears.
        self.leaving = False
        self.leases = threading.Lock()  # `renew` and `hand_over`, one after the other
        self.listening: threading.Thread | None = None
        # One thread publishes, in order: a move's caller (maybe the event loop) never
        # waits on Redis.
        self.publishing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cluster-publish")

    def start(self, on_news: News) -> None:
        """Listen for news in a thread of its own; `on_news(None, None)` after every
        (re)subscription, since news sent while away was lost."""
        self.listening = threading.Thread(
            target=self._listen, args=(on_news,), name="cluster-news", daemon=True
        )
        self.listening.start()

    def _listen(self, on_news: News) -> None:
        import redis

        wait = 0.1
        while not self.closed:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.news)
                on_news(None, TABLE)
                wait = 0.1
                for message in pubsub.listen():
                    if self.closed:
                        return
                    if message["type"] == "message":
                        table_id, kind, sender, sent = _news_of(message["data"])
                        if table_id is not None and sender != self.me:
                            if sent is not None:
                                metrics.NEWS_LAG.observe(max(0.0, time.time() - sent))
                            on_news(table_id, kind)
            except redis.RedisError as exc:
                log.warning("cluster news interrupted (%s); resubscribing", exc)
                time.sleep(wait)
                wait = min(5.0, wait * 2)
            except Exception:
                log.exception("cluster news failed; resubscribing")
                time.sleep(wait)

    def publish(self, table_id: int, kind: str = TABLE) -> None:
        """Tell the other processes that `table_id` changed: a LINE of its log, a line
        of its CHAT, or (TABLE) its seats or status."""
        try:
            self.publishing.submit(self._publish, table_id, kind)
        except RuntimeError:  # closed: the process is stopping, the others read the log
            log.info("table %s: news not sent, the process is stopping", table_id)

    def _publish(self, table_id: int, kind: str) -> None:
        try:
            # The sender's name spares it reading its own news back (a hint like the rest:
            # a forged name only delays a process until the next news or resync). The time
            # it was sent, last, measures the news's lag; a process older than that field
            # reads it as part of the sender's name, which is never its own either.
            self.redis.publish(self.news, f"{table_id} {kind} {self.me} {time.time():.6f}")
        except Exception:
            # The move is committed; listeners elsewhere catch up at their next news or
            # resync. A refused publish must not turn an acknowledged move into an error.
            log.exception("could not publish news of table %s", table_id)

    def hosts(self, table_id: int) -> bool:
        return table_id in self.hosted

    def renew(self, running: Iterable[int]) -> list[int]:
        """Keep this process's leases and take those of running tables nobody holds;
        returns the tables newly taken."""
        wanted = set(running)
        with self.leases:
            if self.leaving:
                return []
            kept = {
                table_id
                for table_id in self.hosted & wanted
                if self.renew_script(
                    keys=[self.lease.format(table_id)], args=[self.me, self.lease_ms]
                )
            }
            taken = [
                table_id
                for table_id in sorted(wanted - kept)
                if self.redis.set(self.lease.format(table_id), self.me, nx=True, px=self.lease_ms)
            ]
            self.hosted = kept | set(taken)
            return taken

    def reachable(self) -> bool:
        """Whether Redis answers (raises what failed if it does not)."""
        return bool(self.redis.ping())

    def hand_over(self) -> int:
        """Host nothing from now on and hand back the leases, so that the other processes
        adopt this one's tables at their next look (twice a second), not once the leases
        have run out; returns how many were handed back."""
        with self.leases:
            self.leaving = True
            handed, self.hosted = sorted(self.hosted), set()
            try:
                for table_id in handed:
                    self.release_script(keys=[self.lease.format(table_id)], args=[self.me])
            except Exception:
                log.warning("could not hand back the leases; they run out by themselves")
        return len(handed)

    def close(self) -> None:
        self.publishing.shutdown(wait=True)  # news of committed moves still goes out
        self.closed = True
        self.hand_over()


def _news_of(data: bytes | str) -> tuple[int | None, str, str, float | None]:
    """The table a message of the news channel names, what changed there, who sent it, and
    when (None from a process that did not say); None for a message that names no table
    (logged). The channel is only as trusted as everyone who can reach the Redis server: an
    unknown kind is read as TABLE, the kind that reads the most, and a time that is not one
    as none.

    >>> _news_of(b"12 line host:1:ab 1700000000.25")
    (12, 'line', 'host:1:ab', 1700000000.25)
    >>> _news_of(b"12 line host:1:ab")  # a process from before the time was sent
    (12, 'line', 'host:1:ab', None)
    """
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    number, _, rest = text.partition(" ")
    kind, _, rest = rest.partition(" ")
    sender, _, when = rest.partition(" ")
    if not (number.isdigit() and len(number) <= 10):
        log.warning("cluster news: ignored a message that names no table (%.40r)", text)
        return None, TABLE, "", None
    sent: float | None = None
    with contextlib.suppress(ValueError):
        sent = float(when) if len(when) <= 20 else None
    if sent is not None and not math.isfinite(sent):
        sent = None
    return int(number), kind if kind in (LINE, CHAT) else TABLE, sender, sent
