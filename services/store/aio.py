"""The event store's session path on an asyncio client: no thread between a command and Redis.

A session command (services/store/sessions.py, `SessionService.aexecute`) runs in the
API's event loop: it awaits its few store calls here instead of hopping to a thread
to block on them. On a 2-core machine the hop and the threads' contention for the GIL
cost more CPU than the append itself (docs/STORE.md, "Two drivers, one procedure").

`AsyncEventStore` sends the very commands `RedisEventStore` sends, built and read by the
same methods (`append_call`/`appended`, `read_call`, `looked_up`, `snapshot_of`, the
scripts' `load_latest_call`/`latest_of` and `save_snapshot_call`), on a redis-py
asyncio client that fails as the store's blocking one does: explicit timeouts, nothing
retried, an unreachable server is `StoreUnavailable` (and one outage is logged once,
shared with the blocking client). One Redis or a Redis Cluster, as the URL says.

An asyncio client belongs to the event loop it first connects in: open one per loop
(the API opens it in its lifespan) and close it there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

import redis.asyncio
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import HiredisRespSerializer
from redis.exceptions import NoScriptError, RedisClusterException

from services.store.client import (
    UNREACHABLE,
    UNREACHABLE_CLUSTER,
    Outage,
    Timeouts,
    cluster_nodes,
    is_cluster_url,
    unavailable,
)
from services.store.errors import StoreUnavailable
from services.store.model import ANY, AppendResult, NewEvent, RecordedEvent, Snapshot
from services.store.pipelined import PipelinedClient, pipelined_url
from services.store.redis_store import (
    RedisEventStore,
    Script,
    latest_of,
    looked_up,
    recorded_from_stream,
    snapshot_of,
    triples,
)
from services.store.revocations import Guard, cutoffs_of, table_of


class AsyncStoreClient(redis.asyncio.Redis):
    """An asyncio redis-py client whose unreachable-server errors are `StoreUnavailable`."""

    outage: Outage

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        """Run a command; an unreachable or stalled server is `StoreUnavailable`."""
        try:
            result = await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        except UNREACHABLE as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result


# Connections to each node of a cluster, and commands in flight there from one asyncio
# cluster client: past it, a command waits for one to finish (AsyncStoreCluster).
CLUSTER_IN_FLIGHT = 100


class AsyncStoreCluster(RedisCluster):
    """An asyncio redis-py cluster client that fails as `AsyncStoreClient` does.

    Redirections (MOVED, ASK) are followed; a connection error is not retried. Two things
    redis-py's client does not do under concurrent use (redis-py 8.1) are done here:
    - Commands sent at once before it has read the cluster's layout failed: 6 of 10 with
      "Connection closed by server" (a command's node is chosen before the layout is
      read). Now the first command reads the layout and the others wait for it
      (`initialize`, one at a time).
    - Past `max_connections` connections to a node it raises MaxConnectionsError at once
      rather than wait for one: 100 of 400 commands sent at once failed. Now at most
      CLUSTER_IN_FLIGHT commands are in flight at each node (each holds one of its
      connections) and the rest wait their turn there, for at most the socket timeout
      (`turn_timeout`): past it, `StoreUnavailable` (busy). A stalled master's commands
      hold its turns until they time out; the other masters' turns are their own.
    Both were StoreUnavailable (503) to the API's callers; the tests are in
    tests/contracts/test_async_cluster_client.py. And once closed it stays closed, as the
    pipelined client does: redis-py's reopens on the next command (its issue 3846), so a
    request still running at shutdown opened connections nothing would close.
    """

    outage: Outage
    turn_timeout: float = 1.0
    closed: bool = False
    _turns: dict[str, asyncio.Semaphore] | None = None

    async def aclose(self) -> None:
        """Close every connection; any command after this fails (StoreUnavailable)."""
        self.closed = True
        await super().aclose()

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        """Run a command; an unreachable or stalled node is `StoreUnavailable`."""
        if self.closed:
            raise unavailable(self.outage, ConnectionError("the client is closed"))
        try:
            await self.initialize()  # nothing once done
        except UNREACHABLE_CLUSTER as exc:
            raise unavailable(self.outage, exc) from exc
        except RedisClusterException as exc:
            if not isinstance(exc.__cause__, UNREACHABLE_CLUSTER):
                raise  # not a reachability failure (a node not in cluster mode, say)
            raise unavailable(self.outage, exc) from exc  # no startup node answered
        try:
            result = await super().execute_command(*args, **options)
        except UNREACHABLE_CLUSTER as exc:
            raise unavailable(self.outage, exc) from exc  # StoreUnavailable as it is
        self.outage.succeeded()
        return result

    async def _execute_command(self, target_node: ClusterNode, *args: Any, **kwargs: Any) -> Any:
        """redis-py's: one command on `target_node` (following its redirections), once it
        has a turn there. A private step of redis-py 8.1's client (uv.lock pins it): if a
        later one stops calling it, tests/contracts/test_async_cluster_client.py fails."""
        turns = self._turns
        if turns is None:
            turns = self._turns = {}
        turn = turns.get(target_node.name)
        if turn is None:
            turn = turns[target_node.name] = asyncio.Semaphore(CLUSTER_IN_FLIGHT)
        try:
            if turn.locked():  # all taken: wait, with a timer (none for a free turn)
                async with asyncio.timeout(self.turn_timeout):
                    await turn.acquire()
            else:
                await turn.acquire()  # at once
        except TimeoutError:
            raise StoreUnavailable(
                f"{self.outage.name} is busy: {CLUSTER_IN_FLIGHT} commands in flight at "
                f"{target_node.name} for {self.turn_timeout} s; retry shortly"
            ) from None
        try:
            return await super()._execute_command(target_node, *args, **kwargs)
        finally:
            turn.release()


AsyncRedis = AsyncStoreClient | AsyncStoreCluster | PipelinedClient


def async_event_store_client(
    url: str,
    timeouts: Timeouts | None = None,
    outage: Outage | None = None,
    pipelined: bool = True,
) -> AsyncRedis:
    """An asyncio client of the event store at `url` (`redis+cluster://`: a cluster's),
    with `store_client`'s timeouts and failures; `outage`: the blocking client's, so an
    outage is logged once whichever client meets it.

    One Redis over TCP or a Unix socket gets the pipelined client (services/store/
    pipelined.py) unless `pipelined` is false (traced: OpenTelemetry's Redis spans are
    redis-py's); a cluster, TLS or a URL with options get redis-py's asyncio clients."""
    timeouts = timeouts if timeouts is not None else Timeouts()
    outage = outage if outage is not None else Outage("the event store's Redis")
    client: AsyncRedis
    plain = pipelined_url(url) if pipelined else None
    if plain is not None:
        return PipelinedClient(plain, timeouts, outage)
    if is_cluster_url(url):
        nodes, tls = cluster_nodes(url)
        client = AsyncStoreCluster(
            startup_nodes=[ClusterNode(n.host, n.port) for n in nodes],
            ssl=tls,
            socket_connect_timeout=timeouts.connect,
            socket_timeout=timeouts.socket,
            retry=Retry(NoBackoff(), 0),
            max_connections=CLUSTER_IN_FLIGHT,
        )
        client.turn_timeout = timeouts.socket
    else:
        client = cast(
            AsyncStoreClient,
            AsyncStoreClient.from_url(
                url,
                socket_connect_timeout=timeouts.connect,
                socket_timeout=timeouts.socket,
                retry=Retry(NoBackoff(), 0),
            ),
        )
        pool = client.connection_pool
        pool.connection_class = _packed_by_hiredis(pool.connection_class)
    client.outage = outage
    return client


class _HiredisPacking:
    """Commands packed by hiredis in C, as redis-py's blocking connections pack them; its
    asyncio connections pack them in Python (an append's batch: 4% of a flip's CPU)."""

    _packer = HiredisRespSerializer()

    def pack_command(self, *args: Any) -> list[bytes]:
        packed: list[bytes] = self._packer.pack(*args)
        return packed


def _packed_by_hiredis(connection_class: type) -> type:
    """The pool's connection class (TCP, TLS or a Unix socket: the URL's), packing with
    hiredis."""
    return type(f"Hiredis{connection_class.__name__}", (_HiredisPacking, connection_class), {})


class AsyncEventStore:
    """A tenant's event store (`store`: its keys, script and readings) on an asyncio client.

    Only what a table's commands and reads need: `append`, `read`, `version`, `lookup`,
    the snapshots and a token's revocations.
    """

    def __init__(self, store: RedisEventStore, client: AsyncRedis) -> None:
        if store.cluster != isinstance(client, RedisCluster):
            raise ValueError("the asyncio client and the store are not of one kind of Redis")
        self.store = store
        self.client = client

    async def append(
        self,
        stream: str,
        events: Sequence[NewEvent],
        expected_version: int = ANY,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        """RedisEventStore.append, awaited."""
        store = self.store
        batch = triples(stream, events)
        keys, args = store.append_call(stream, batch, expected_version, guard, fingerprint)
        reply = await self._run_script(store.script, keys, args)
        return store.appended(stream, expected_version, guard, reply)

    async def version(self, stream: str) -> int:
        """RedisEventStore.version, awaited."""
        length: Any = await self.client.xlen(self.store.keys.events(stream))
        return int(length)

    async def read(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        """RedisEventStore.read, awaited."""
        call = self.store.read_call(stream, from_version)
        entries: Any = await self.client.xrange(*call, count=limit)
        return recorded_from_stream(stream, entries)

    async def lookup(self, stream: str, event_id: str) -> tuple[int, int] | None:
        """RedisEventStore.lookup, awaited."""
        found: Any = await self.client.hget(self.store.keys.ids(stream), event_id)
        return looked_up(found)

    async def load_snapshot(self, stream: str) -> Snapshot | None:
        """RedisEventStore.load_snapshot, awaited."""
        found: Any = await self.client.hgetall(self.store.keys.snapshot(stream))
        return snapshot_of(stream, found)

    async def revocation_cutoffs(self, stream: str, scopes: Sequence[str]) -> list[int | None]:
        """Revocations.cutoffs, awaited: each scope's cutoff (None: never revoked)."""
        if not scopes:
            return []
        found: Any = await self.client.hmget(self.store.keys.revocations(stream), list(scopes))
        return cutoffs_of(found)

    async def revocation_table(self, stream: str) -> dict[str, int]:
        """Revocations.table, awaited: every revocation of the stream, scope → cutoff."""
        found: Any = await self.client.hgetall(self.store.keys.revocations(stream))
        return table_of(found)

    async def load_latest(self, stream: str) -> tuple[Snapshot | None, list[RecordedEvent]]:
        """RedisEventStore.load_latest, awaited."""
        return latest_of(stream, await self._run_script(*self.store.load_latest_call(stream)))

    async def save_snapshot(self, snapshot: Snapshot) -> None:
        """RedisEventStore.save_snapshot, awaited."""
        await self._run_script(*self.store.save_snapshot_call(snapshot))

    async def _run_script(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self.client.evalsha(script.sha, len(keys), *keys, *args)
        except NoScriptError:  # a restarted server forgot it: send the script once
            return await self.client.eval(script.text, len(keys), *keys, *args)
