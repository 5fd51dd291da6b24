"""Several server processes on one database: news of tables through Redis, and one host per
table for its bots and clocks.

The database stays the only truth. A process that commits a line of a table's log publishes
the table's number on that table's Redis channel; every other process that holds the table in
memory, or hosts it, is subscribed to that channel, reads the new lines from the database and
tells its own listeners. A process hears nothing of the tables it neither holds nor hosts, so
with the proxy's table affinity a move's news usually reaches nobody. Which process applies a
move does not matter (the guarded update of the table's move counter lets exactly one writer
have each number); which process plays the bots and watches the clocks does: that is the
table's host, named in one Redis hash (table -> process). A process is alive while its own
short lease, one key, lasts; it renews that one key twice a second, whatever the number of
its tables, in one round trip that also names the processes whose lease ran out. The first
process to see one dead takes over its tables.

A process without Redis (`Alone`) hosts every table and has no one to tell: a single server
works as it always has.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import secrets
import socket
import threading
import time
from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING

from meadow.server import metrics

if TYPE_CHECKING:
    from redis.client import PubSub

# What a process hears: a table's number and what changed there (LINE: lines of its log;
# CHAT: lines of its chat; TABLE: anything else, seats or status), a hint to read that
# from the database. FRESH, never sent by another process: this process has just begun to
# hear the table's channel, and whatever was published before it did is read from the log.
News = Callable[[int, str], None]
LINE, TABLE, CHAT, FRESH = "line", "table", "chat", "fresh"
# How long the news thread waits for a message before it turns to the channels to join
# or leave: the most a table just loaded waits before its news begins.
POLL_SECONDS = 0.05
NEWS_PER_TRIP = 256  # the most news one round trip carries

log = logging.getLogger("meadow.server")
RECOUNT_SECONDS = 60.0

# One look, twice a second, in one round trip: this process's lease renewed (and whether it
# had run out: then others may have taken its tables), it is listed among the processes, and
# the tables of every listed process whose lease ran out become this one's.
# KEYS: the lease of this process, the list of processes, the hosts hash.
# ARGV: this process's name, the lease in ms, the prefix of every process's lease.
_LOOK = """
local was = redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'GET')
redis.call('sadd', KEYS[2], ARGV[1])
local dead = {}
for _, name in ipairs(redis.call('smembers', KEYS[2])) do
    if name ~= ARGV[1] and redis.call('exists', ARGV[3] .. name) == 0 then
        dead[name] = true
        redis.call('srem', KEYS[2], name)
    end
end
local taken = {}
local mine = {}
if next(dead) ~= nil or not was then
    local hosts = redis.call('hgetall', KEYS[3])
    for i = 1, #hosts, 2 do
        if dead[hosts[i + 1]] then
            redis.call('hset', KEYS[3], hosts[i], ARGV[1])
            table.insert(taken, hosts[i])
        elseif hosts[i + 1] == ARGV[1] then
            table.insert(mine, hosts[i])
        end
    end
end
return {was and 1 or 0, taken, mine}
"""
# Claim tables nobody hosts. KEYS: the hosts hash. ARGV: this process's name, the tables.
_CLAIM = """
local taken = {}
for i = 2, #ARGV do
    if redis.call('hsetnx', KEYS[1], ARGV[i], ARGV[1]) == 1 then
        table.insert(taken, ARGV[i])
    end
end
return taken
"""
# A finished table needs no host. KEYS: the hosts hash. ARGV: this process's name, a table.
_RELEASE = """
if redis.call('hget', KEYS[1], ARGV[2]) == ARGV[1] then
    return redis.call('hdel', KEYS[1], ARGV[2])
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

    def hold(self, table_id: int) -> None:
        pass

    def let_go(self, table_id: int) -> None:
        pass

    def hosts(self, table_id: int) -> bool:
        return True

    def look(self) -> list[int]:
        return []

    def claim(self, table_ids: Iterable[int]) -> list[int]:
        return []

    def release(self, table_id: int) -> None:
        pass

    def recount_due(self) -> bool:
        return False

    def listed(self) -> list[int]:
        return []

    def forget(self, table_ids: list[int]) -> None:
        pass

    def reachable(self) -> bool:
        return True

    def hand_over(self) -> int:
        return 0

    def close(self) -> None:
        pass


class RedisCluster:
    """One of several processes: news through Redis pub/sub, hosts in a Redis hash, each
    process alive while its one lease lasts."""

    shared = True

    def __init__(self, url: str, lease_ms: int = 5000, name: str = "meadow") -> None:
        """`name`: the site; several sites may share one Redis under different names."""
        import redis  # only a cluster needs it: `pip install 'meadow-tabletop[cluster]'`

        self.channel_prefix = f"{name}:table:"  # + a table's number: that table's news
        self.hosts_key = f"{name}:hosts"  # table -> the process that hosts it
        self.processes = f"{name}:processes"  # every process that may host tables
        self.alive = f"{name}:alive:"  # + a process's name: its lease, while it lives

        self.redis = redis.Redis.from_url(url, socket_timeout=5, health_check_interval=10)
        self.redis.ping()  # a wrong URL stops the start with its reason, not later
        self.me = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.lease_ms = lease_ms
        self.hosted: set[int] = set()
        # The channels: a process hears a table while it holds it in memory or hosts it.
        # `held` and `hosted` change on many threads; the news thread alone talks to Redis
        # about channels, so changes wait in `to_check` until its next turn (a set: a table
        # loaded and let go a thousand times before then is looked at once).
        self.held: set[int] = set()
        self.channels = threading.Lock()  # `held`, `to_check`, and `hosted`'s changes
        self.to_check: set[int] = set()
        self.heard: set[int] = set()  # the tables whose channel the news thread is on
        self.look_script = self.redis.register_script(_LOOK)
        self.claim_script = self.redis.register_script(_CLAIM)
        self.release_script = self.redis.register_script(_RELEASE)
        # When to compare the hosts with the database's running tables (claiming those no
        # process hosts): at the start, after this process was taken for dead, then now
        # and then as a safety net. Never per look.
        self.recount_at = 0.0
        self.closed = False
        # Set once the process stops: it hosts nothing from then on, whatever `look` hears.
        self.leaving = False
        self.leases = threading.Lock()  # `look` and `hand_over`, one after the other
        self.listening: threading.Thread | None = None
        # One thread publishes, in order: a move's caller (maybe the event loop) never
        # waits on Redis. What is queued while it sends goes out together, in one round trip
        # (under load a round trip a move cost more CPU than the move's own commit).
        self.outbox: queue.SimpleQueue[tuple[int, str] | None] = queue.SimpleQueue()
        self.stopping = False
        self.publishing = threading.Thread(
            target=self._send_news, name="cluster-publish", daemon=True
        )
        self.publishing.start()

    def start(self, on_news: News) -> None:
        """Listen for news in a thread of its own; `on_news(table, FRESH)` once this process
        hears a table's channel (after every reconnection too), since news sent before then
        did not reach it."""
        self.listening = threading.Thread(
            target=self._listen, args=(on_news,), name="cluster-news", daemon=True
        )
        self.listening.start()

    def channel(self, table_id: int) -> str:
        """The Redis channel of a table's news."""
        return f"{self.channel_prefix}{table_id}"

    def hold(self, table_id: int) -> None:
        """The table is in this process's memory: hear its news."""
        with self.channels:
            self.held.add(table_id)
            self.to_check.add(table_id)

    def let_go(self, table_id: int) -> None:
        """The table left this process's memory: hear its news only while hosting it."""
        with self.channels:
            self.held.discard(table_id)
            self.to_check.add(table_id)

    def _listen(self, on_news: News) -> None:
        import redis

        wait = 0.1
        while not self.closed:
            try:
                pubsub = self.redis.pubsub()
                with self.channels:  # a new connection hears nothing yet: every table again
                    self.heard = set()
                    self.to_check = self.held | self.hosted
                wait = 0.1
                while not self.closed:
                    self._join_and_leave(pubsub)
                    message = pubsub.get_message(timeout=POLL_SECONDS)
                    if message is not None:
                        self._heard(message, on_news)
            except redis.RedisError as exc:
                log.warning("cluster news interrupted (%s); resubscribing", exc)
                time.sleep(wait)
                wait = min(5.0, wait * 2)
            except Exception:
                log.exception("cluster news failed; resubscribing")
                time.sleep(wait)

    def _join_and_leave(self, pubsub: PubSub) -> None:
        """Subscribe to the channels of the tables held or hosted here since the last turn,
        unsubscribe from those neither any more: one command each way, whatever the tables."""
        with self.channels:
            if not self.to_check:
                return
            checked, self.to_check = self.to_check, set()
            wanted = {t for t in checked if t in self.held or t in self.hosted}
        joining = wanted - self.heard
        leaving = (checked - wanted) & self.heard
        if joining:
            pubsub.subscribe(*[self.channel(t) for t in sorted(joining)])
            self.heard |= joining
        if leaving:
            pubsub.unsubscribe(*[self.channel(t) for t in sorted(leaving)])
            self.heard -= leaving

    def _heard(self, message: dict[str, object], on_news: News) -> None:
        """A message of the news thread's connection: a table's news, or the confirmation
        that a channel is heard from now on (then the table is read: what was published
        before reached nobody here)."""
        if message["type"] == "subscribe":
            table_id = _table_of(message["channel"], self.channel_prefix)
            if table_id is not None:
                on_news(table_id, FRESH)
        elif message["type"] == "message":
            table_id, kind, sender, sent = _news_of(message["data"])
            if table_id is None or sender == self.me:
                return
            if table_id != _table_of(message["channel"], self.channel_prefix):
                log.warning("cluster news: ignored news of table %s on another's channel", table_id)
                return
            if sent is not None:
                metrics.NEWS_LAG.observe(max(0.0, time.time() - sent))
            on_news(table_id, kind)

    def publish(self, table_id: int, kind: str = TABLE) -> None:
        """Tell the other processes that `table_id` changed: a LINE of its log, a line
        of its CHAT, or (TABLE) its seats or status."""
        if self.stopping:  # the others read the log
            log.info("table %s: news not sent, the process is stopping", table_id)
            return
        self.outbox.put((table_id, kind))

    def _send_news(self) -> None:
        """The publishing thread: everything queued, in order, one round trip at a time;
        at `None`, what was queued before it goes out and the thread ends."""
        while True:
            news = [self.outbox.get()]
            with contextlib.suppress(queue.Empty):
                while len(news) < NEWS_PER_TRIP:
                    news.append(self.outbox.get_nowait())
            last = news[-1] is None
            self._publish([item for item in news if item is not None])
            if last:
                return

    def _publish(self, news: list[tuple[int, str]]) -> None:
        if not news:
            return
        try:
            pipe = self.redis.pipeline(transaction=False)
            for table_id, kind in news:
                # The sender's name spares it reading its own news back (a hint like the
                # rest: a forged name only delays a process until the next news or resync).
                # The time it was sent, last, measures the news's lag; a process older than
                # that field reads it as part of the sender's name, never its own either.
                message = f"{table_id} {kind} {self.me} {time.time():.6f}"
                pipe.publish(self.channel(table_id), message)
            pipe.execute()
        except Exception:
            # The moves are committed; listeners elsewhere catch up at their next news or
            # resync. A refused publish must not turn an acknowledged move into an error.
            log.exception("could not publish news of tables %s", [t for t, _ in news][:5])

    def hosts(self, table_id: int) -> bool:
        return table_id in self.hosted

    def look(self) -> list[int]:
        """Renew this process's lease and take the tables of processes whose lease ran out;
        returns the tables newly hosted here. One round trip, whatever the tables."""
        with self.leases:
            if self.leaving:
                return []
            was, taken, mine = self.look_script(
                keys=[self.alive + self.me, self.processes, self.hosts_key],
                args=[self.me, self.lease_ms, self.alive],
            )
            taken_ids = [int(t) for t in taken]
            if not was:  # taken for dead meanwhile (or the first look): what is still mine
                still = {int(t) for t in mine}
                self._unhost(self.hosted - still)
                self._host(still)
                self.recount_at = 0.0
            self._host(taken_ids)
            return taken_ids

    def claim(self, table_ids: Iterable[int]) -> list[int]:
        """Host those of `table_ids` that no process hosts; returns them."""
        wanted = [str(t) for t in table_ids]
        if not wanted:
            return []
        with self.leases:
            if self.leaving:
                return []
            taken = [
                int(t) for t in self.claim_script(keys=[self.hosts_key], args=[self.me, *wanted])
            ]
            self._host(taken)
            return taken

    def release(self, table_id: int) -> None:
        """The table is over: no process hosts it any more."""
        with self.leases:
            self._unhost([table_id])
        try:
            self.release_script(keys=[self.hosts_key], args=[self.me, table_id])
        except Exception:
            log.warning("table %s: could not release its host; the next recount does", table_id)

    def _host(self, table_ids: Collection[int]) -> None:
        """Host these tables (`leases` held), and hear their news."""
        with self.channels:
            self.hosted.update(table_ids)
            self.to_check.update(table_ids)

    def _unhost(self, table_ids: Collection[int]) -> None:
        """Host these no more (`leases` held); their news is heard while they are held."""
        with self.channels:
            self.hosted.difference_update(table_ids)
            self.to_check.update(table_ids)

    def listed(self) -> list[int]:
        """Every table some process hosts (for the recount)."""
        return [int(t) for t in self.redis.hkeys(self.hosts_key)]

    def forget(self, table_ids: list[int]) -> None:
        """The tables are over: whoever hosted them, nobody does now."""
        if table_ids:
            self.redis.hdel(self.hosts_key, *[str(t) for t in table_ids])
        with self.leases:
            self._unhost(table_ids)

    def recount_due(self) -> bool:
        """Whether to compare the hosts with the running tables now (and not again for a
        while): at the start, after this process was taken for dead, once a minute."""
        now = time.monotonic()
        if now < self.recount_at:
            return False
        self.recount_at = now + RECOUNT_SECONDS
        return True

    def reachable(self) -> bool:
        """Whether Redis answers (raises what failed if it does not)."""
        return bool(self.redis.ping())

    def hand_over(self) -> int:
        """Host nothing from now on and end this process's lease, so that the other
        processes take its tables at their next look (twice a second), not once the lease
        has run out; returns how many were handed over."""
        with self.leases:
            self.leaving = True
            handed = len(self.hosted)
            self._unhost(list(self.hosted))
            try:
                self.redis.delete(self.alive + self.me)
            except Exception:
                log.warning("could not end the lease; it runs out by itself")
        return handed

    def close(self) -> None:
        self.stopping = True
        self.outbox.put(None)
        self.publishing.join(timeout=10)  # news of committed moves still goes out
        self.closed = True
        self.hand_over()


def _table_of(channel: object, prefix: str) -> int | None:
    """The table a channel of this site is about, None for any other channel.

    >>> _table_of(b"site:table:12", "site:table:")
    12
    """
    text = channel.decode("ascii", "replace") if isinstance(channel, bytes) else str(channel)
    number = text.removeprefix(prefix)
    if number == text or not number.isdigit():
        return None
    return int(number)


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
