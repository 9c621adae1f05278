"""The API's asyncio client of one Redis (services/store/pipelined.py): one connection,
commands pipelined, answering and failing as redis-py's asyncio client does.

On each one-Redis backend of the contract suite (the embedded Redis on a Unix socket, and
REDIS_URL's over TCP in CI); the failures on a Redis the test owns and stops.
"""

from __future__ import annotations

import asyncio
import select
import signal
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import uvloop
from redis.exceptions import NoScriptError, ResponseError

from services.store import RedisEventStore
from services.store.aio import AsyncEventStore, AsyncStoreClient, async_event_store_client
from services.store.client import Timeouts, connect
from services.store.errors import StoreUnavailable
from services.store.model import NewEvent
from services.store.pipelined import PipelinedClient, pipelined_url
from tests.owned_redis import OwnedRedis

SCRIPT = "return {KEYS[1], tonumber(ARGV[1]) + 1, ARGV[2], false, {'nested', 7}, 'done'}"


def _pipelined(url: str, timeouts: Timeouts | None = None, **kw: Any) -> PipelinedClient:
    client = async_event_store_client(url, timeouts, **kw)
    assert isinstance(client, PipelinedClient)  # what the API opens on one Redis
    return client


def _redis_py(url: str) -> AsyncStoreClient:
    """redis-py's asyncio client of `url`, as the store opened it before (and still does
    for TLS): the reference."""
    reference = cast(AsyncStoreClient, AsyncStoreClient.from_url(url))
    reference.outage = _pipelined(url).outage
    return reference


def test_which_urls_it_serves() -> None:
    """One Redis over TCP or a Unix socket, with a user, a password or a database; not a
    cluster, TLS, or a URL with other options (redis-py's clients honour those)."""
    assert pipelined_url("redis://127.0.0.1:6379/7") == {"host": "127.0.0.1", "port": 6379, "db": 7}
    assert pipelined_url("unix:///run/redis.sock?db=2&password=pw") == {
        "path": "/run/redis.sock",
        "db": 2,
        "password": "pw",
    }
    assert pipelined_url("redis://daedalus:pw@cache:6380") == {
        "username": "daedalus",
        "password": "pw",
        "host": "cache",
        "port": 6380,
    }
    for other in (
        "rediss://cache:6380",
        "redis+cluster://127.0.0.1:7000,127.0.0.1:7001",
        "redis://cache:6379?client_name=api",
        "redis://cache:6379?socket_keepalive=true",
        "http://cache",
    ):
        assert pipelined_url(other) is None, other
    tls = async_event_store_client("rediss://127.0.0.1:1/0")
    assert isinstance(tls, AsyncStoreClient)  # redis-py's, as before
    asyncio.run(tls.aclose())


def test_it_answers_what_redis_py_answers(redis_url: str) -> None:
    """Each command the store sends: the same replies, and the same errors, as redis-py's
    asyncio client; an error leaves the connection answering."""
    blocking = connect(redis_url)
    prefix = "pipelined:{" + uuid.uuid4().hex + "}"
    stream, hash_, empty = f"{prefix}:events", f"{prefix}:hash", f"{prefix}:none"
    for n in range(1, 5):
        blocking.xadd(stream, {"id": f"e{n}", "type": "T", "data": f'{{"n": {n}}}'}, id=f"0-{n}")
    blocking.hset(hash_, mapping={"all": 3, "role:player": 5, "text": "ünïcode"})
    sha = blocking.script_load(SCRIPT)

    async def answers(client: PipelinedClient | AsyncStoreClient) -> list[Any]:
        calls: list[Callable[[], Awaitable[Any]]] = [
            lambda: client.xlen(stream),
            lambda: client.xlen(empty),
            lambda: client.xrange(stream),
            lambda: client.xrange(stream, "0-2", "+", count=2),
            lambda: client.xrange(empty, "0-1", "+", count=5),
            lambda: client.hget(hash_, "role:player"),
            lambda: client.hget(hash_, "nobody"),
            lambda: client.hgetall(hash_),
            lambda: client.hgetall(empty),
            lambda: client.hmget(hash_, ["all", "nobody", "text"]),
            lambda: client.evalsha(sha, 1, "k", 41, "ü"),
            lambda: client.eval(SCRIPT, 1, "k", 1, b"\x00\xff"),
            lambda: client.evalsha("0" * 40, 0),
            lambda: client.hget(stream, "field"),  # WRONGTYPE
            lambda: client.xlen(stream),
        ]
        got: list[Any] = []
        try:
            for call in calls:
                try:
                    got.append(await call())
                except ResponseError as exc:
                    got.append((type(exc), str(exc)))
        finally:
            await client.aclose()
        return got

    async def both() -> tuple[list[Any], list[Any]]:
        return await answers(_pipelined(redis_url)), await answers(_redis_py(redis_url))

    try:
        pipelined, reference = asyncio.run(both())
    finally:
        blocking.delete(stream, hash_)
        blocking.close()
    assert pipelined == reference
    assert pipelined[2][0] == (b"0-1", {b"id": b"e1", b"type": b"T", b"data": b'{"n": 1}'})
    assert pipelined[10] == [b"k", 42, "ü".encode(), None, [b"nested", 7], b"done"]
    assert pipelined[12][0] is NoScriptError and pipelined[13][0] is ResponseError
    assert "WRONGTYPE" in pipelined[13][1] and pipelined[14] == 4


def test_replies_reach_their_callers_on_one_connection(redis_url: str) -> None:
    """2,000 calls at once before any connection: one connection is opened for all.
    Then 2,000 more on it, every seventh cancelled once written and before its reply:
    each call that was not cancelled gets its own reply."""
    blocking = connect(redis_url)
    key = "pipelined:{" + uuid.uuid4().hex + "}:hash"
    blocking.hset(key, mapping={f"f{i}": f"v{i}" for i in range(2000)})
    connects: list[None] = []

    async def scenario() -> tuple[list[Any], dict[int, Any], set[int]]:
        client = _pipelined(redis_url)
        connect_once = client._connect

        async def counted() -> Any:
            connects.append(None)
            return await connect_once()

        client._connect = counted  # type: ignore[method-assign]
        try:
            first = await asyncio.gather(*(client.hget(key, f"f{i}") for i in range(2000)))
            tasks = {i: asyncio.ensure_future(client.hget(key, f"f{i}")) for i in range(2000)}
            await asyncio.sleep(0)  # every call queued
            await asyncio.sleep(0)  # and written, none answered yet
            assert client.wire is not None and not client.wire.out
            assert len(client.wire.waiting) == 2000
            cancelled = {i for i in tasks if i % 7 == 0}
            for i in cancelled:
                tasks[i].cancel()
            done = await asyncio.gather(*tasks.values(), return_exceptions=True)
            return first, dict(zip(tasks, done, strict=True)), cancelled
        finally:
            await client.aclose()

    try:
        first, answered, cancelled = asyncio.run(scenario())
    finally:
        blocking.delete(key)
        blocking.close()
    assert len(connects) == 1
    assert first == [f"v{i}".encode() for i in range(2000)]
    assert len(cancelled) == 286
    for i, reply in answered.items():
        if i in cancelled:
            assert isinstance(reply, asyncio.CancelledError)
        else:
            assert reply == f"v{i}".encode(), (i, reply)


@pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])
def test_a_held_up_loop_is_not_a_stalled_server(
    redis_url: str, run: Callable[[Coroutine[Any, Any, Any]], Any]
) -> None:
    """The process pauses longer than the socket timeout (a long GC, a blocking call),
    with commands queued but not written, or written and answered meanwhile: the calls
    get their replies. Only a server silent for the timeout is stalled (as redis-py's
    socket timeout), on asyncio's loop and on uvloop's (the API's)."""
    blocking = connect(redis_url)
    key = "pipelined:{" + uuid.uuid4().hex + "}:hash"
    blocking.hset(key, "f", "v")

    async def scenario() -> list[Any]:
        client = _pipelined(redis_url, Timeouts(connect=0.5, socket=0.3))
        try:
            await client.hget(key, "f")  # connected
            answers = []
            for written in (False, True):
                calls = [asyncio.ensure_future(client.hget(key, "f")) for _ in range(5)]
                await asyncio.sleep(0)  # queued
                if written:
                    await asyncio.sleep(0)  # and written
                time.sleep(0.5)  # the whole loop held up
                answers += await asyncio.gather(*calls, return_exceptions=True)
            return answers
        finally:
            await client.aclose()

    try:
        assert run(scenario()) == [b"v"] * 10
    finally:
        blocking.delete(key)
        blocking.close()


def test_a_closed_client_opens_nothing(redis_url: str) -> None:
    """Closed while its first connection is being opened: the call waiting on it fails,
    no connection stays open, and a call after the close fails too."""

    async def scenario() -> None:
        client = _pipelined(redis_url)
        call = asyncio.ensure_future(client.xlen("pipelined:none"))
        await asyncio.sleep(0)  # the connection is being opened
        assert client._connecting is not None
        await client.aclose()
        with pytest.raises(StoreUnavailable):
            await call
        await asyncio.sleep(0.05)
        assert client.wire is None and client._connecting is None
        with pytest.raises(StoreUnavailable):
            await client.xlen("pipelined:none")

    asyncio.run(scenario())


def test_a_stalled_or_lost_server_fails_every_waiting_call_and_the_next_reconnects(
    tmp_path: Path,
) -> None:
    """Calls waiting on a stalled server all fail within the socket timeout; calls waiting
    on a server that dies all fail at once; a connection the server closed between calls
    is opened anew by the next call; each recovery answers."""
    server = OwnedRedis(tmp_path)
    server.start()
    timeouts = Timeouts(connect=0.5, socket=0.5)

    async def waiting(client: PipelinedClient, n: int) -> list[BaseException | Any]:
        calls = (client.hget("h", f"f{i}") for i in range(n))
        return await asyncio.gather(*calls, return_exceptions=True)

    async def scenario() -> None:
        client = _pipelined(server.url, timeouts)
        blocking = redis.Redis(unix_socket_path=str(server.socket))
        try:
            blocking.hset("h", "f1", "one")
            assert (await waiting(client, 3))[1] == b"one"
            server.signal(signal.SIGSTOP)  # stalled: every waiting call times out
            started = time.monotonic()
            failed = await waiting(client, 20)
            assert 0.4 < time.monotonic() - started < 1.0
            assert all(isinstance(f, StoreUnavailable) for f in failed), failed
            server.signal(signal.SIGCONT)
            assert (await waiting(client, 3))[1] == b"one"  # a new connection
            # The server closes the connection between calls (a restart, an idle
            # timeout): once the loop has read its end, the next call reconnects.
            own_id = await client.execute_command("CLIENT", "ID")
            assert blocking.client_kill_filter(_id=own_id) == 1
            await asyncio.sleep(0.1)
            assert await client.hget("h", "f1") == b"one"
            assert await client.execute_command("CLIENT", "ID") != own_id
            # Dies with calls waiting: each fails at once, not at its timeout.
            server.signal(signal.SIGSTOP)
            pending = asyncio.ensure_future(waiting(client, 20))
            await asyncio.sleep(0.05)
            started = time.monotonic()
            server.kill()
            lost = await pending
            assert time.monotonic() - started < 0.4
            assert all(isinstance(f, StoreUnavailable) for f in lost), lost
            server.start()
            assert await client.hget("h", "f1") == b"one"  # AOF kept it; reconnected
        finally:
            await client.aclose()
            blocking.close()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


@pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])
def test_calls_queued_as_the_server_closes_the_connection_are_sent_on_a_new_one(
    redis_url: str, run: Callable[[Coroutine[Any, Any, None]], None]
) -> None:
    """The server closes the connection (a restart, an idle timeout) and calls come in
    the same turn of the loop, before it has read the close: their commands were never
    written, so they are sent on a new connection, each once, and answer. (asyncio's loop
    runs the calls before it reads the close, so they are queued on the lost connection
    and sent again; uvloop reads the close first, and they go to a new connection.)"""
    key = f"pipelined:unsent:{uuid.uuid4().hex}"
    blocking = redis.Redis.from_url(redis_url)

    async def scenario() -> None:
        client = _pipelined(redis_url)
        try:
            own_id = await client.execute_command("CLIENT", "ID")
            assert client.wire is not None and client.wire.transport is not None
            sock = client.wire.transport.get_extra_info("socket")
            # Closed by the server; its end is here to read (waited for outside the loop),
            # and no turn of the loop between that and the calls.
            assert blocking.client_kill_filter(_id=own_id) == 1
            assert select.select([sock.fileno()], [], [], 10.0)[0], "the close did not arrive"
            calls = [asyncio.ensure_future(client.execute_command("INCR", key)) for _ in range(20)]
            answers = await asyncio.gather(*calls, return_exceptions=True)
            assert not [a for a in answers if isinstance(a, BaseException)], answers
            assert sorted(answers) == list(range(1, 21))  # type: ignore[type-var]
            assert await client.execute_command("CLIENT", "ID") != own_id
        finally:
            await client.aclose()

    try:
        run(scenario())
        assert blocking.get(key) == b"20"  # each sent once
    finally:
        blocking.delete(key)
        blocking.close()


def test_it_signs_in_and_selects_the_url_database(tmp_path: Path) -> None:
    """A password and a database in the URL: the connection signs in and selects it
    before any command; a wrong password is StoreUnavailable, as with redis-py."""
    server = OwnedRedis(tmp_path)
    server.start()
    blocking = redis.Redis(unix_socket_path=str(server.socket))
    try:
        blocking.config_set("requirepass", "s3cret")
        blocking = redis.Redis(unix_socket_path=str(server.socket), password="s3cret", db=3)
        blocking.hset("h", "f", "in db 3")
        right = f"{server.url}?db=3&password=s3cret"
        wrong = f"{server.url}?db=3&password=guess"

        async def scenario() -> tuple[Any, Any]:
            client, other = _pipelined(right), _pipelined(f"{server.url}?password=s3cret")
            try:
                found = await client.hget("h", "f"), await other.hget("h", "f")
            finally:
                await client.aclose()
                await other.aclose()
            refused = _pipelined(wrong)
            with pytest.raises(StoreUnavailable):
                await refused.hget("h", "f")
            await refused.aclose()
            return found

        assert asyncio.run(scenario()) == (b"in db 3", None)
    finally:
        blocking.close()
        server.stop()


def test_the_store_sends_a_forgotten_script_again(redis_url: str, tenant: str) -> None:
    """An append after the server forgot the store's scripts (a restart, SCRIPT FLUSH):
    NOSCRIPT is redis-py's NoScriptError, and the store sends the script itself."""
    blocking = connect(redis_url)
    store = RedisEventStore(blocking, tenant)

    async def scenario() -> int:
        client = _pipelined(redis_url)
        aio = AsyncEventStore(store, client)
        try:
            await aio.append("s", [NewEvent("e1", "T", {"n": 1})])
            blocking.script_flush()
            done = await aio.append("s", [NewEvent("e2", "T", {"n": 2})], expected_version=1)
            return done.last_version
        finally:
            await client.aclose()

    try:
        assert asyncio.run(scenario()) == 2
        assert [e.id for e in store.read("s")] == ["e1", "e2"]
    finally:
        for key in blocking.scan_iter(match=store.keys.pattern, count=1000):
            blocking.delete(key)
        blocking.close()
