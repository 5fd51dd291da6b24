"""Issue 26: news of a table goes only to the processes that hold it in memory or host it,
each table on a Redis channel of its own, so that with the proxy's table affinity a move's
news reaches nobody; a process that begins to hear a table reads what it may have missed."""

from __future__ import annotations

import queue
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from redis.client import PubSub

from meadow.server.cluster import FRESH, LINE, TABLE, RedisCluster
from tests.server.test_hosts import process, site  # noqa: F401 (a fixture)

Heard = queue.Queue[tuple[int, str]]


@pytest.fixture
def listening(site: str) -> Iterator[tuple[RedisCluster, Heard]]:  # noqa: F811
    """A process of the site hearing news, and what it heard."""
    heard: Heard = queue.Queue()
    here = process(site)
    here.start(lambda table_id, kind: heard.put((table_id, kind)))
    yield here, heard
    here.close()


def receivers(cluster: RedisCluster, table_id: int) -> int:
    """How many processes Redis would deliver a table's news to."""
    [(_channel, count)] = cluster.redis.pubsub_numsub(cluster.channel(table_id))
    return int(count)


def counted_channel_commands(cluster: RedisCluster) -> Counter[str]:
    """The SUBSCRIBE and UNSUBSCRIBE commands the cluster's news connection will send."""
    sent: Counter[str] = Counter()
    make = cluster.redis.pubsub

    def counting_pubsub(**kwargs: object) -> PubSub:
        pubsub = make(**kwargs)
        for name in ("subscribe", "unsubscribe"):
            send = getattr(pubsub, name)

            def counted(*channels: object, _send: Any = send, _name: str = name) -> object:
                sent[_name] += 1
                return _send(*channels)

            setattr(pubsub, name, counted)
        return pubsub

    cluster.redis.pubsub = counting_pubsub  # type: ignore[method-assign]
    return sent


def fresh(heard: Heard, count: int = 1) -> set[int]:
    """The tables of the next `count` FRESH messages (the channels heard from now on)."""
    tables = set()
    while len(tables) < count:
        table_id, kind = heard.get(timeout=10)
        if kind == FRESH:
            tables.add(table_id)
    return tables


def until(condition: object, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.01)
    return False


def test_a_process_hears_only_the_tables_it_holds(
    site: str,  # noqa: F811
    listening: tuple[RedisCluster, Heard],
):
    here, heard = listening
    elsewhere = process(site)
    here.hold(5)
    assert fresh(heard) == {5}
    elsewhere.publish(6, LINE)  # a table here neither holds nor hosts
    elsewhere.publish(5, LINE)
    assert heard.get(timeout=10) == (5, LINE)  # 6's news never came
    assert receivers(elsewhere, 6) == 0
    here.let_go(5)
    assert until(lambda: receivers(elsewhere, 5) == 0)
    elsewhere.publish(5, TABLE)
    time.sleep(0.2)
    assert heard.empty()
    elsewhere.close()


def test_a_host_hears_its_tables_out_of_memory_too(
    listening: tuple[RedisCluster, Heard],
):
    """A resting table's host must hear a move made elsewhere: its bot answers it."""
    here, heard = listening
    here.look()
    here.claim([7, 8])
    assert fresh(heard, 2) == {7, 8}
    here.hold(7)
    here.let_go(7)  # out of memory, still hosted
    here.release(8)  # over: neither held nor hosted
    assert until(lambda: receivers(here, 8) == 0)
    assert receivers(here, 7) == 1


def test_a_table_is_heard_once_however_often_it_is_loaded(
    listening: tuple[RedisCluster, Heard],
):
    here, _heard = listening
    for _ in range(1000):
        here.hold(3)
        here.let_go(3)
    here.hold(3)
    assert until(lambda: receivers(here, 3) == 1)
    time.sleep(0.2)
    assert receivers(here, 3) == 1


def test_thousands_of_tables_are_heard_and_left_in_a_few_commands(site: str):  # noqa: F811
    heard: Heard = queue.Queue()
    here = process(site)
    sent = counted_channel_commands(here)
    here.start(lambda table_id, kind: heard.put((table_id, kind)))
    try:
        for table_id in range(1, 3001):
            here.hold(table_id)
        assert fresh(heard, 3000) == set(range(1, 3001))
        assert [receivers(here, t) for t in (1, 1500, 3000)] == [1, 1, 1]
        for table_id in range(1, 3001):
            here.let_go(table_id)
        assert until(lambda: receivers(here, 3000) == 0)
        assert receivers(here, 1) == 0
    finally:
        here.close()
    # One command each way per turn of the news thread (20 a second), not one per table.
    assert 1 <= sent["subscribe"] < 10 and 1 <= sent["unsubscribe"] < 10


def test_news_on_one_tables_channel_naming_another_is_ignored(
    site: str,  # noqa: F811
    listening: tuple[RedisCluster, Heard],
):
    """Whoever can publish could otherwise wake a process about any table through the
    channel of one it holds."""
    here, heard = listening
    here.hold(5)
    assert fresh(heard) == {5}
    here.redis.publish(here.channel(5), "6 line someone-else")
    here.redis.publish(here.channel(5), "5 line someone-else")
    assert heard.get(timeout=10) == (5, LINE)
    assert heard.empty()


def test_fresh_means_news_published_from_then_on_is_heard(
    site: str,  # noqa: F811
    listening: tuple[RedisCluster, Heard],
):
    """The order that makes a table loaded here miss nothing: what is published before
    the channel is heard is in the log, read at FRESH; what is published after is heard."""
    here, heard = listening
    elsewhere = process(site)
    for table_id in range(20, 40):
        here.hold(table_id)
        assert fresh(heard) == {table_id}
        elsewhere._publish([(table_id, LINE)])  # the publishing thread's own call, in line
        assert heard.get(timeout=10) == (table_id, LINE)
    elsewhere.close()
