"""Which process hosts a table (plays its bots, watches its clocks), decided in Redis: a look
twice a second costs one round trip whatever the number of tables; a process taken for dead
loses its tables to the first that looks, and learns so when it looks again."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from meadow.server.cluster import RedisCluster
from meadow.server.tables import Tables
from meadow.store import Database, Table
from tests.server.conftest import REDIS, _redis_answers
from tests.server.test_tables import started_table


@pytest.fixture
def site() -> Iterator[str]:
    if not _redis_answers():
        if os.environ.get("CI"):
            pytest.fail("CI must test the cluster on Redis at 127.0.0.1")
        pytest.skip("no Redis at 127.0.0.1")
    name = f"meadow-test-{secrets.token_hex(4)}"
    yield name
    import redis

    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(f"{name}:*"):
        client.delete(key)


def process(site: str, lease_ms: int = 60_000) -> RedisCluster:
    return RedisCluster(REDIS, lease_ms, site)


class Counted:
    """Counts the commands a client sends to Redis (a script is one)."""

    def __init__(self, cluster: RedisCluster) -> None:
        self.calls = 0
        sending = cluster.redis.execute_command

        def counted(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return sending(*args, **kwargs)

        cluster.redis.execute_command = counted  # type: ignore[method-assign]


def test_a_look_is_one_round_trip_whatever_the_number_of_tables(site: str):
    a = process(site)
    a.look()
    for tables in (10, 3000):
        a.claim(range(tables))
        assert len(a.hosted) == tables
        counted = Counted(a)
        for _ in range(5):
            assert a.look() == []
        assert counted.calls == 5
        assert len(a.hosted) == tables  # still hosted after the looks


def test_claiming_many_tables_is_one_round_trip_and_one_host_each(site: str):
    a, b = process(site), process(site)
    counted = Counted(a)
    assert a.claim(range(1, 501)) == list(range(1, 501))
    assert counted.calls == 1
    assert b.claim(range(400, 601)) == list(range(501, 601))  # the rest were a's
    assert a.hosted.isdisjoint(b.hosted)


def test_the_first_to_look_takes_the_tables_of_a_dead_process(site: str):
    a, b = process(site), process(site)
    a.look()
    b.look()
    a.claim([1, 2, 3])
    b.claim([4])
    assert b.look() == []  # a lives
    a.redis.delete(a.alive + a.me)  # a's lease runs out: a stalled, or died
    assert sorted(b.look()) == [1, 2, 3]
    assert b.hosted == {1, 2, 3, 4}
    assert b.look() == []  # taken once
    # a comes back: its first look says its lease had run out, and its tables are gone.
    assert a.look() == []
    assert a.hosted == set()


def test_a_process_that_stops_hands_its_tables_over_at_the_next_look(site: str):
    a, b = process(site), process(site)
    a.look()
    a.claim([7, 8])
    assert a.hand_over() == 2
    assert a.look() == [] and a.claim([9]) == []  # leaving: it hosts nothing more
    assert sorted(b.look()) == [7, 8]


def test_an_ended_table_has_no_host(site: str):
    a, b = process(site), process(site)
    a.claim([1, 2, 3])
    b.release(1)  # not b's: nothing happens
    assert sorted(a.listed()) == [1, 2, 3]
    a.release(1)
    a.forget([2])  # ended while its host was gone: the recount forgets it
    assert a.listed() == [3] and a.hosted == {3}


def test_the_recount_hosts_running_tables_nobody_hosts_and_forgets_ended_ones(
    site: str, tmp_path: Path
):
    db = Database(f"sqlite:///{tmp_path / 'hosts.db'}")
    db.migrate()
    here = process(site)
    tables = Tables(db, cluster=here)
    try:
        first, second = started_table(tables), started_table(tables, "2")
        assert here.hosted == {first, second}  # hosted where they started
        elsewhere = process(site)
        elsewhere.redis.delete(here.hosts_key)  # Redis emptied: nobody hosts them
        elsewhere.claim([99])  # a table that ended while its host was away
        with db.write() as s:
            s.execute(update(Table).where(Table.id == first).values(status="abandoned"))
            s.commit()
        assert here.recount_due()
        assert tables.news.recount() == [second]
        assert sorted(here.listed()) == [second]
        assert not here.recount_due()  # not again for a while
    finally:
        tables.close()
        db.dispose()
