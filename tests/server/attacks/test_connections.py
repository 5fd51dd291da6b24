"""Attacks on a process's connections (issue 43, item 3): heads sent and never finished,
heads too large, more connections than a process serves, one person's or address's table
sockets by the hundred. On a real `meadow serve` (SQLite: connections are the same on any
database), with raw TCP connections from the socket module."""

from __future__ import annotations

import json
import logging
import resource
import secrets
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meadow.server.connections import raise_open_file_limit
from tests.server.conftest import Client, Server, own_server

# A head begun and never finished: the request line and one header, then silence.
HALF_HEAD = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: "


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with a head timeout of 1 s and few sockets per person and address."""
    with own_server(
        tmp_path_factory,
        "sqlite",
        MEADOW_HEAD_TIMEOUT_SECONDS="1",
        MEADOW_SOCKETS_PER_PERSON="3",
        MEADOW_SOCKETS_PER_ADDRESS="5",
    ) as found:
        yield found


@contextmanager
def half_heads(server: Server, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections that each send `HALF_HEAD` and wait."""
    with ExitStack() as stack:
        opened = []
        for _ in range(count):
            raw = stack.enter_context(socket.create_connection(("127.0.0.1", server.port)))
            raw.sendall(HALF_HEAD)
            opened.append(raw)
        yield opened


def answer_of(raw: socket.socket, seconds: float) -> bytes:
    """All the server sends on `raw` until it closes it; TimeoutError if it does not close
    it within `seconds`."""
    raw.settimeout(seconds)
    heard = b""
    while chunk := raw.recv(65536):
        heard += chunk
    return heard


def status_of(server: Server, head: bytes) -> int:
    """The status the server answers a raw `head` with (sent whole, at once)."""
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        # Answered and closed, perhaps, before all of it was read.
        with suppress(BrokenPipeError, ConnectionResetError):
            raw.sendall(head)
        answer = answer_of(raw, 10)
    return int(answer.split(b" ", 2)[1])


def timed_get(client: Client, path: str = "/api/games") -> tuple[httpx.Response, float]:
    began = time.monotonic()
    reply = client.get(path, timeout=15)
    return reply, time.monotonic() - began


def test_half_sent_heads_are_closed_after_the_head_timeout_and_others_are_answered(
    quick: Server,
):
    with half_heads(quick, 300) as waiting:
        reply, seconds = timed_get(quick.client())
        assert reply.status_code == 200, reply.text
        assert seconds < 5, f"another client waited {seconds:.1f} s"
        deadline = time.monotonic() + 15
        answers = [answer_of(raw, max(deadline - time.monotonic(), 0.1)) for raw in waiting]
    # Each was told why, then closed: none holds its file past the timeout.
    assert all(answer.startswith(b"HTTP/1.1 408 ") for answer in answers), answers[0]
    assert b"did not arrive within 1 s" in answers[0]


def test_a_connection_that_sends_nothing_is_closed_after_the_head_timeout(quick: Server):
    with socket.create_connection(("127.0.0.1", quick.port)) as silent:
        assert answer_of(silent, 15) == b""


def test_a_head_kept_alive_after_a_first_request_is_timed_too(quick: Server):
    with socket.create_connection(("127.0.0.1", quick.port)) as raw:
        raw.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        raw.settimeout(15)
        first = b""
        while b"alive" not in first:  # the first answer, whole: {"status": "alive"}
            first += raw.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ")
        raw.sendall(HALF_HEAD)
        assert answer_of(raw, 15).startswith(b"HTTP/1.1 408 ")


@pytest.mark.parametrize(
    ("name", "head"),
    [
        ("a header of 1 MB", b"X-Big: " + b"a" * 1_000_000 + b"\r\n"),
        ("a header of 100 KB", b"X-Big: " + b"a" * 100_000 + b"\r\n"),
        ("5,000 headers", b"".join(b"X-H%d: 1\r\n" % i for i in range(5000))),
        ("101 headers", b"".join(b"X-H%d: 1\r\n" % i for i in range(101))),
        ("a URL of 1 MB", None),
    ],
)
def test_a_head_too_large_or_with_too_many_headers_gets_431(
    quick: Server, name: str, head: bytes | None
):
    if head is None:
        request = b"GET /api/games?q=" + b"a" * 1_000_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    else:
        request = b"GET /api/games HTTP/1.1\r\nHost: x\r\n" + head + b"\r\n"
    assert status_of(quick, request) == 431, name
    # A head within the bounds is served as before.
    normal = b"".join(b"X-H%d: 1\r\n" % i for i in range(90)) + b"X-Big: " + b"a" * 8000
    ok = b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + normal + b"\r\n\r\n"
    assert status_of(quick, ok) == 200


def test_connections_beyond_the_cap_get_503_at_once_sockets_too(
    tmp_path_factory: pytest.TempPathFactory,
):
    with own_server(
        tmp_path_factory,
        "sqlite",
        MEADOW_MAX_CONNECTIONS="40",
        MEADOW_HEAD_TIMEOUT_SECONDS="60",
    ) as capped:
        client = capped.client()
        with half_heads(capped, 50):
            reply, seconds = timed_get(client)
            assert reply.status_code == 503, reply.text
            assert "try again" in reply.json()["error"]
            assert reply.headers["retry-after"] == "5"
            assert seconds < 5, f"the refusal took {seconds:.1f} s"
            with pytest.raises(InvalidStatus) as refused:
                watch(capped, None, 1).close()
            assert refused.value.response.status_code == 503
        # Once they are gone, the process serves again.
        assert wait_for_status(client, 200)


def answered(client: Client, seconds: float) -> httpx.Response:
    """The first HTTP answer to a request tried again after each reset, within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return client.get("/api/games", timeout=max(deadline - time.monotonic(), 0.1))
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def wait_for_status(client: Client, status: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if client.get("/api/games").status_code == status:
            return True
        time.sleep(0.1)
    return False


# `meadow serve` with an open-file limit of 256 that it cannot raise (its hard limit too).
FEW_FILES = [
    sys.executable,
    "-c",
    "import resource, runpy, sys; "
    "resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256)); "
    "sys.argv = ['meadow', 'serve', *sys.argv[1:]]; "
    "runpy.run_module('meadow', run_name='__main__')",
]


def test_more_half_sent_heads_than_open_files_never_shut_others_out(
    tmp_path_factory: pytest.TempPathFactory,
):
    env = {"MEADOW_HEAD_TIMEOUT_SECONDS": "5"}
    few = Server(tmp_path_factory.mktemp("few"), None, env=env, command=FEW_FILES)
    few.start()
    try:
        client = few.client()
        with half_heads(few, 400):
            # While the process has no file left, a connection may be reset (uvloop accepts
            # and closes it) but not left waiting; the heads beyond the cap are closed
            # within a second, and then each other client is answered (503 or 200) while
            # the rest are held.
            began = time.monotonic()
            reply = answered(client, 20)
            seconds = time.monotonic() - began
            assert reply.status_code in (200, 503), reply.text
            assert seconds < 10, f"another client waited {seconds:.1f} s for an answer"
        assert wait_for_status(client, 200)
    finally:
        few.stop()
    few.assert_logs_clean()
    log = (few.data_dir / f"server-{few.port}.log").read_text()
    assert "open files limited to 256: at most 128 connections" in log


def watch(server: Server, client: Client | None, table_id: int, address: str = "") -> Any:
    headers = {"X-Forwarded-For": address} if address else {}
    if client is not None:
        headers = {"X-Forwarded-For": client.http.headers["X-Forwarded-For"]}
        headers["Cookie"] = client.cookies
    return connect(
        f"ws://127.0.0.1:{server.port}/api/tables/{table_id}/ws",
        additional_headers=headers,
        open_timeout=10,
    )


def open_table(server: Server) -> int:
    host = server.client().signup(f"h-{secrets.token_hex(5)}")
    body = {"game": "topiary", "players": 2, "seats": [None, None]}
    created = host.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    return created.json()["id"]


def refusal_of(socket_: ClientConnection) -> tuple[int | None, str]:
    """The close code and reason of a socket the server refused after the handshake."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket_.recv(timeout=10)
    frame = closed.value.rcvd
    return (frame.code, frame.reason) if frame else (None, "")


def test_one_persons_sockets_beyond_the_cap_are_refused_and_anothers_accepted(quick: Server):
    table_id = open_table(quick)
    person = quick.client().signup(f"p-{secrets.token_hex(5)}")
    with ExitStack() as held:
        for _ in range(3):
            opened = held.enter_context(watch(quick, person, table_id))
            assert json.loads(opened.recv(timeout=10))["kind"] == "sync"
        with watch(quick, person, table_id) as fourth:
            code, reason = refusal_of(fourth)
        assert (code, reason) == (4429, "too many sockets open: at most 3 per person")
        other = quick.client().signup(f"o-{secrets.token_hex(5)}")
        with watch(quick, other, table_id) as theirs:
            assert json.loads(theirs.recv(timeout=10))["kind"] == "sync"
    # Closed sockets are given back: the person may open three again.
    with watch(quick, person, table_id) as again:
        assert json.loads(again.recv(timeout=10))["kind"] == "sync"


def test_one_addresss_sockets_beyond_the_cap_are_refused_and_anothers_accepted(quick: Server):
    table_id = open_table(quick)
    address = f"10.9.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    with ExitStack() as held:
        for _ in range(5):
            opened = held.enter_context(watch(quick, None, table_id, address))
            assert json.loads(opened.recv(timeout=10))["kind"] == "sync"
        with watch(quick, None, table_id, address) as sixth:
            code, reason = refusal_of(sixth)
        assert (code, reason) == (4429, "too many sockets open: at most 5 from one address")
        with watch(quick, None, table_id, "10.8.0.1") as elsewhere:
            assert json.loads(elsewhere.recv(timeout=10))["kind"] == "sync"


def test_the_open_file_limit_is_raised_to_the_hard_limit():
    limits = {"now": (1024, 65536)}

    def setrlimit(_: int, wanted: tuple[int, int]) -> None:
        limits["now"] = wanted

    most = raise_open_file_limit(10_000, lambda _: limits["now"], setrlimit)
    assert limits["now"] == (65536, 65536)
    assert most == 10_000


def test_an_open_file_limit_that_cannot_be_raised_enough_lowers_the_cap_with_a_warning(
    caplog: pytest.LogCaptureFixture,
):
    def refuse(_: int, __: tuple[int, int]) -> None:
        raise ValueError("not allowed")

    with caplog.at_level(logging.WARNING, logger="meadow.server"):
        most = raise_open_file_limit(10_000, lambda _: (1024, 4096), refuse)
    assert most == 512
    assert "could not raise the open-file limit from 1024 to 4096" in caplog.text
    assert "open files limited to 1024: at most 512 connections at once" in caplog.text
    assert "raise the limit to 20000 or more" in caplog.text


def test_an_unlimited_hard_limit_raises_the_soft_one_to_a_million():
    limits = {"now": (1024, resource.RLIM_INFINITY)}

    def setrlimit(_: int, wanted: tuple[int, int]) -> None:
        limits["now"] = wanted

    assert raise_open_file_limit(10_000, lambda _: limits["now"], setrlimit) == 10_000
    assert limits["now"] == (1 << 20, resource.RLIM_INFINITY)
