"""The API's asyncio client of one Redis: one connection per process, commands pipelined.

redis-py's asyncio client takes a pooled connection for each command, writes it and
awaits the reply on that connection: with 50 requests in flight that is 50 connections,
and each command pays its own writes, reads and wake-ups: 125-171 µs of the API's CPU
an append on the bench machine. Redis answers a connection's commands in the order they
came, so one connection can carry every command of the loop:

* a call packs its command (hiredis, in C), queues it and a future, and awaits the
  future; the commands queued in one turn of the loop go out in one write;
* the replies, parsed by hiredis as bytes arrive, resolve the waiting futures oldest
  first; the replies that arrive in one read wake their callers in one turn.

15-25 µs an append here (`bench/store.py`, the `asyncio_append_*` lines). The replies are
what redis-py's client answers (bytes, `xrange`'s `(id, fields)` pairs, `hgetall`'s
dict), and so are the failures, so that `AsyncEventStore` and its callers cannot tell
the two apart:

* an error reply is redis-py's exception for it (`NoScriptError`, `ResponseError`, ...);
* no connection within the connect timeout is `ConnectionError` or `TimeoutError`;
* written commands that have waited the socket timeout with no byte from Redis (as
  redis-py's socket timeout: a read that waits that long; a process held up meanwhile
  is not a stalled server) are `TimeoutError`: the connection is dropped, for the
  replies after them could no longer be matched to their calls, and every other call
  waiting on it fails with `ConnectionError`;
* a lost connection fails every call waiting on it whose command was written; the next
  call connects anew. A command not yet written when the loss was found (queued in the
  same turn of the loop) never reached Redis, so it is sent once more, on a new
  connection (not when Redis is stalled: it fails with the others). So a connection the
  server closed between calls (a restart, an idle timeout) costs no call: the close is
  read before what was queued meanwhile is written, or that is sent again. redis-py's
  client checks each pooled connection before each command instead (a system call a
  command).

A call cancelled while it waits (its request gone) keeps its place in the queue: its
reply is read and dropped. A command is never sent twice: one that failed may or may not
have run, as with redis-py's client without retries (the store's scripts are idempotent
under their command ids, docs/STORE.md).

Only for one Redis over TCP or a Unix socket, with no options in its URL but a user, a
password and a database (`pipelined_url`); TLS, a URL's options and a Redis Cluster keep
redis-py's asyncio clients (services/store/aio.py).
"""

from __future__ import annotations

import asyncio
import builtins
from collections import deque
from collections.abc import Sequence
from typing import Any

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio.connection import parse_url
from redis.exceptions import (
    ConnectionError,
    DataError,
    InvalidResponse,
    RedisError,
    TimeoutError,
)

from services.store.client import UNREACHABLE, Outage, Timeouts, unavailable

# What a URL may say for this client; anything else (TLS, a client name, a protocol
# version, socket options) is redis-py's client's to honour.
_PLAIN = frozenset({"host", "port", "db", "username", "password", "path"})


def pipelined_url(url: str) -> dict[str, Any] | None:
    """`url`'s address and handshake, if this client can serve it (else None)."""
    if "+cluster://" in url:
        return None
    try:
        options: dict[str, Any] = dict(parse_url(url))
    except ValueError:
        return None
    if options.pop("connection_class", None) is not None and "path" not in options:
        return None  # TLS
    return options if set(options) <= _PLAIN else None


class _Unsent(ConnectionError):
    """The connection was lost before this call's command was written: it never reached
    Redis, and may be sent on another connection."""


class _Wire(asyncio.Protocol):
    """One connection: commands out in order, replies in to the oldest waiting call."""

    def __init__(self, timeout: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.timeout = timeout
        self.reader = hiredis.Reader(protocolError=InvalidResponse, replyError=_error)
        self.waiting: deque[asyncio.Future[Any]] = deque()  # written or in `out`, in order
        self.out: list[bytes] = []  # the commands queued this turn, not yet written
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None
        # Since when written commands have waited with no byte from Redis (None: none
        # waits). Past `timeout`, the server is stalled (as redis-py's socket timeout: a
        # read that waits that long), checked by `timer`.
        self.quiet_since: float | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def send(self, args: Sequence[Any]) -> asyncio.Future[Any]:
        """Queue a command; the future of its reply."""
        future = self.loop.create_future()
        if self.lost is not None:
            future.set_exception(_Unsent(str(self.lost)))
            return future
        try:
            packed = hiredis.pack_command(tuple(args))
        except TypeError as exc:  # an argument Redis has no form for, as redis-py says it
            raise DataError(str(exc)) from exc
        if not self.out:
            self.loop.call_soon(self._flush)
        self.out.append(packed)
        self.waiting.append(future)
        return future

    def _flush(self) -> None:
        if self.transport is None or self.lost is not None or self.transport.is_closing():
            return  # not written: `_drop` fails them as such
        out, self.out = self.out, []
        self.transport.write(b"".join(out))
        if self.quiet_since is None:  # nothing was in flight: the clock starts now
            self.quiet_since = self.loop.time()
        if self.timer is None:
            self.timer = self.loop.call_at(self.quiet_since + self.timeout, self._check)

    def data_received(self, data: bytes) -> None:
        reader, waiting = self.reader, self.waiting
        reader.feed(data)
        try:
            while (reply := reader.gets()) is not False:
                future = waiting.popleft()
                if future.done():  # cancelled while it waited
                    continue
                if isinstance(reply, RedisError):  # an error reply (as redis-py raises it)
                    future.set_exception(reply)
                else:
                    future.set_result(reply)
        except (InvalidResponse, IndexError) as exc:  # garbled, or a reply nobody asked for
            self._drop(ConnectionError(f"a malformed reply from Redis: {exc}"))
            return
        in_flight = len(waiting) > len(self.out)
        self.quiet_since = self.loop.time() if in_flight else None

    def _check(self) -> None:
        """Written commands have waited `timeout` with no byte from Redis: it is stalled.
        (A loop held up meanwhile reads what came before its due timers run: asyncio's
        loop and uvloop's both poll the sockets first, tested.)"""
        self.timer = None
        if self.quiet_since is None:
            return
        due = self.quiet_since + self.timeout
        if due > self.loop.time():
            self.timer = self.loop.call_at(due, self._check)
        else:
            self._drop(TimeoutError("Timeout reading from Redis"))

    def eof_received(self) -> None:
        """The server closed the connection: lost at once (Redis never half-closes), before
        anything queued since is written."""
        self._drop(ConnectionError("Connection to Redis lost: closed by the server"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._drop(ConnectionError(f"Connection to Redis lost: {exc or 'closed'}"))

    def _drop(self, error: RedisError) -> None:
        """Close the connection and fail every call waiting on it: the first written with
        `error`, the others written as lost (their replies can no longer be told apart),
        and those not yet written as `_Unsent` (but for a stalled server's `TimeoutError`)."""
        if self.lost is None:
            self.lost = error
            if self.transport is not None:
                self.transport.abort()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        # Unwritten calls may go to another connection, unless Redis is stalled: they
        # fail with the rest, within the socket timeout.
        written = len(self.waiting) - len(self.out)
        if isinstance(error, TimeoutError):
            written = len(self.waiting)
        self.out = []
        first = True
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                if written <= 0:
                    future.set_exception(_Unsent(str(error)))
                else:
                    future.set_exception(error if first else ConnectionError(str(error)))
            first = False
            written -= 1

    def close(self) -> None:
        self._drop(ConnectionError("the client is closed"))


def _error(message: str) -> Exception:
    """An error reply as redis-py raises it (`NOSCRIPT ...`: NoScriptError, and so on):
    redis-py's own table of error prefixes, as its hiredis parser uses it."""
    error: Exception = BaseParser.parse_error(message)  # type: ignore[no-untyped-call]
    return error


class PipelinedClient:
    """The commands `AsyncEventStore` sends, on one pipelined connection (module doc)."""

    def __init__(self, options: dict[str, Any], timeouts: Timeouts, outage: Outage) -> None:
        self.options = options
        self.timeouts = timeouts
        self.outage = outage
        self.wire: _Wire | None = None
        self._connecting: asyncio.Future[_Wire] | None = None
        self.closed = False
        address = f"{options.get('host', 'localhost')}:{options.get('port', 6379)}"
        self.where = options.get("path") or address

    async def execute_command(self, *args: Any) -> Any:
        """Send a command; its reply (an unreachable or stalled server: StoreUnavailable).
        A command the lost connection never wrote is sent once more on a new one."""
        try:
            wire = self.wire
            if wire is None or wire.lost is not None:
                wire = await self._wire()
            try:
                reply = await wire.send(args)
            except _Unsent:
                reply = await (await self._wire()).send(args)
        except UNREACHABLE as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return reply

    async def _wire(self) -> _Wire:
        """The open connection, or a new one."""
        wire = self.wire
        if wire is None or wire.lost is not None:
            if self.closed:
                raise ConnectionError("the client is closed")
            wire = await self._connected()
        return wire

    async def _connected(self) -> _Wire:
        """The connection, opened by the first call that finds none (the others wait)."""
        connecting = self._connecting
        if connecting is None:
            connecting = self._connecting = asyncio.ensure_future(self._connect())
            connecting.add_done_callback(self._connected_or_not)
        try:
            return await asyncio.shield(connecting)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if connecting.cancelled() and not (task is not None and task.cancelling()):
                raise ConnectionError("the client is closed") from None  # by `aclose`
            raise

    def _connected_or_not(self, connecting: asyncio.Future[_Wire]) -> None:
        self._connecting = None
        if not connecting.cancelled() and connecting.exception() is None:
            wire = connecting.result()
            if self.closed:  # closed while it connected: nothing stays open
                wire.close()
            else:
                self.wire = wire

    async def _connect(self) -> _Wire:
        loop, options = asyncio.get_running_loop(), self.options
        wire = _Wire(self.timeouts.socket)
        try:
            if "path" in options:
                opening = loop.create_unix_connection(lambda: wire, options["path"])
            else:
                host, port = options.get("host", "localhost"), options.get("port", 6379)
                opening = loop.create_connection(lambda: wire, host, port)
            await asyncio.wait_for(opening, self.timeouts.connect)
        except builtins.TimeoutError as exc:
            raise TimeoutError(f"Timeout connecting to Redis at {self.where}") from exc
        except OSError as exc:
            raise ConnectionError(f"Error connecting to Redis at {self.where}: {exc}") from exc
        try:
            if options.get("password") is not None:
                user = options.get("username")
                await wire.send(("AUTH", *([user] if user else []), options["password"]))
            if options.get("db"):
                await wire.send(("SELECT", options["db"]))
        except BaseException:
            wire.close()
            raise
        return wire

    async def aclose(self) -> None:
        """Close the connection (and one being opened); calls still waiting fail, and so
        does any call after this."""
        self.closed = True
        if self._connecting is not None:
            self._connecting.cancel()
        if self.wire is not None:
            self.wire.close()
            self.wire = None

    # The commands, answered as redis-py answers them.

    async def evalsha(self, sha: str, numkeys: int, *keys_and_args: Any) -> Any:
        return await self.execute_command("EVALSHA", sha, numkeys, *keys_and_args)

    async def eval(self, script: str, numkeys: int, *keys_and_args: Any) -> Any:
        return await self.execute_command("EVAL", script, numkeys, *keys_and_args)

    async def xlen(self, name: str) -> int:
        length: int = await self.execute_command("XLEN", name)
        return length

    async def xrange(
        self, name: str, first: str = "-", last: str = "+", count: int | None = None
    ) -> list[tuple[bytes, dict[bytes, bytes]]]:
        limit = () if count is None else ("COUNT", count)
        entries = await self.execute_command("XRANGE", name, first, last, *limit)
        return [(eid, _pairs(fields)) for eid, fields in entries]

    async def hget(self, name: str, key: str) -> bytes | None:
        found: bytes | None = await self.execute_command("HGET", name, key)
        return found

    async def hgetall(self, name: str) -> dict[bytes, bytes]:
        return _pairs(await self.execute_command("HGETALL", name))

    async def hmget(self, name: str, keys: Sequence[str]) -> list[bytes | None]:
        found: list[bytes | None] = await self.execute_command("HMGET", name, *keys)
        return found


def _pairs(flat: Sequence[bytes] | None) -> dict[bytes, bytes]:
    if not flat:
        return {}
    it = iter(flat)
    return dict(zip(it, it, strict=True))
