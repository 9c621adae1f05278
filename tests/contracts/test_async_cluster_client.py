"""The API's asyncio client of a Redis Cluster under many commands at once
(services/store/aio.py, `AsyncStoreCluster`), on a real three-master cluster.

redis-py's asyncio cluster client failed two ways under concurrent use, and each failure
reached the API's callers as `store_unavailable` (503), or turned the rate limit off for
a second (it fails open):
- commands sent at once before the client had read the cluster's layout: six of ten
  failed with "Connection closed by server";
- more commands at once than its connections per node (100): it raised
  MaxConnectionsError at once for the rest (100 of 400).
"""

from __future__ import annotations

import asyncio
import collections
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from redis.asyncio.cluster import ClusterNode

from services.store import RedisEventStore
from services.store.aio import (
    CLUSTER_IN_FLIGHT,
    AsyncEventStore,
    AsyncStoreCluster,
    async_event_store_client,
)
from services.store.client import Outage, Timeouts, connect
from services.store.errors import StoreUnavailable
from services.store.model import NewEvent
from tests.owned_cluster import OwnedCluster


def _events(n: int) -> list[NewEvent]:
    return [NewEvent(uuid.uuid4().hex, "Noted", {"i": i}) for i in range(n)]


Stores = tuple[RedisEventStore, AsyncEventStore, AsyncStoreCluster]


@pytest.fixture
def stores(cluster: OwnedCluster) -> Iterator[Stores]:
    """A fresh tenant's store on the cluster: its blocking client (closed after the
    test), the asyncio store and its client (each test closes it in its own loop)."""
    tenant = "t" + uuid.uuid4().hex[:12]
    blocking = RedisEventStore(connect(cluster.url), tenant=tenant)
    # Generous timeouts (a turn is waited for at most the socket timeout): on a loaded CI
    # machine 300 queued commands must not make these tests about the machine.
    client = async_event_store_client(cluster.url, Timeouts(connect=5.0, socket=5.0))
    assert isinstance(client, AsyncStoreCluster)
    yield blocking, AsyncEventStore(blocking, client), client
    blocking.client.close()


def test_commands_sent_at_once_on_a_fresh_client_all_answer(stores: Stores) -> None:
    blocking, store, client = stores
    streams = [f"s{i}" for i in range(40)]  # spread over the three masters' slots

    async def run() -> list[int]:
        try:  # the client's first commands: none has read the layout yet
            await asyncio.gather(*(store.append(s, _events(2)) for s in streams))
            return list(await asyncio.gather(*(store.version(s) for s in streams)))
        finally:
            await client.aclose()

    assert asyncio.run(run()) == [2] * len(streams)
    assert [blocking.version(s) for s in streams] == [2] * len(streams)


def test_more_commands_at_once_than_connections_wait_their_turn(
    stores: Stores, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocking, store, client = stores
    many = 4 * CLUSTER_IN_FLIGHT
    streams = [f"m{i}" for i in range(many)]
    in_flight: dict[str, int] = collections.Counter()
    most: dict[str, int] = collections.Counter()
    send = ClusterNode.execute_command

    async def counted(node: ClusterNode, *args: Any, **kwargs: Any) -> Any:
        in_flight[node.name] += 1
        most[node.name] = max(most[node.name], in_flight[node.name])
        try:
            return await send(node, *args, **kwargs)
        finally:
            in_flight[node.name] -= 1

    monkeypatch.setattr(ClusterNode, "execute_command", counted)

    async def run() -> None:
        try:
            await store.version("warm")  # the layout is read: only the bound is tested
            await asyncio.gather(*(store.append(s, _events(1)) for s in streams))
        finally:
            await client.aclose()

    asyncio.run(run())  # none raised StoreUnavailable (redis-py's MaxConnectionsError)
    assert [blocking.version(s) for s in streams] == [1] * many
    # Every command answered, and the bound was reached at a node: the commands past it
    # waited for a turn there (redis-py failed them), and none went past it.
    assert max(most.values()) == CLUSTER_IN_FLIGHT


def _node_of(client: AsyncStoreCluster, key: str) -> str:
    node = client.get_node_from_key(key)
    assert node is not None
    return node.name


def _stalling(
    monkeypatch: pytest.MonkeyPatch, stalled: str, gate: asyncio.Event
) -> Callable[[], None]:
    """Hold every command at the node `stalled` until `gate` is set (a master that does
    not answer); the undo."""
    send = ClusterNode.execute_command

    async def held(node: ClusterNode, *args: Any, **kwargs: Any) -> Any:
        if node.name == stalled:
            await gate.wait()
        return await send(node, *args, **kwargs)

    monkeypatch.setattr(ClusterNode, "execute_command", held)
    return monkeypatch.undo


def test_a_stalled_master_holds_up_its_own_commands_only_and_no_longer_than_the_timeout(
    cluster: OwnedCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A stalled master's commands hold its turns until they time out. A command queued
    # behind them gives up after the socket timeout, not after every turn ahead of it;
    # a command to another master does not wait at all.
    client = async_event_store_client(cluster.url, Timeouts(connect=1.0, socket=0.3))
    assert isinstance(client, AsyncStoreCluster)
    gate = asyncio.Event()

    async def run() -> tuple[float, float, list[BaseException | int]]:
        try:
            await client.xlen("warm")  # the layout is read
            stalled = _node_of(client, "{q}queued")
            other = next(f"o{i}" for i in range(100) if _node_of(client, f"o{i}") != stalled)
            undo = _stalling(monkeypatch, stalled, gate)
            held = [
                asyncio.ensure_future(client.xlen(f"{{q}}h{i}")) for i in range(CLUSTER_IN_FLIGHT)
            ]
            await asyncio.sleep(0.05)  # every turn at the stalled master is taken
            began = time.monotonic()
            assert await asyncio.wait_for(client.xlen(other), 5.0) == 0
            elsewhere = time.monotonic() - began
            began = time.monotonic()
            with pytest.raises(StoreUnavailable, match="busy"):  # not the 5 s of the guard
                await asyncio.wait_for(client.xlen("{q}queued"), 5.0)
            waited = time.monotonic() - began
            gate.set()
            undo()
            return elsewhere, waited, await asyncio.gather(*held, return_exceptions=True)
        finally:
            await client.aclose()

    elsewhere, waited, held = asyncio.run(run())
    assert elsewhere < 0.25  # no turn to wait for (a shared bound made it wait 0.3 s)
    assert 0.25 <= waited < 2.0  # the socket timeout (0.3 s), give or take the loop
    assert held == [0] * CLUSTER_IN_FLIGHT  # the turns' holders finished once let through


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_a_cluster_no_node_of_which_answers_is_unavailable() -> None:
    url = f"redis+cluster://127.0.0.1:{_closed_port()}"
    outage = Outage("a test cluster")
    client = async_event_store_client(url, Timeouts(connect=0.5, socket=0.5), outage)

    async def run() -> None:
        try:
            await client.xlen("anything")
        finally:
            await client.aclose()

    with pytest.raises(StoreUnavailable):
        asyncio.run(run())
    assert outage.down_since is not None  # logged once, as the store's outages are


def test_a_closed_client_stays_closed(cluster: OwnedCluster) -> None:
    # A request still running at shutdown must not open connections nothing will close:
    # redis-py's client reopened on the next command.
    client = async_event_store_client(cluster.url)
    assert isinstance(client, AsyncStoreCluster)

    async def run() -> None:
        assert await client.xlen("before") == 0
        await client.aclose()
        with pytest.raises(StoreUnavailable):
            await client.xlen("after")
        connections = [c for node in client.get_nodes() for c in node._connections]
        assert not any(c.is_connected for c in connections)

    asyncio.run(run())
