"""Redis clients that fail fast and clearly: explicit timeouts, one error, one log per outage.

Every client Daedalus builds for its own Redis (the event store, the job records, the
workers' event store) comes from `store_client`: connect and socket timeouts are explicit
(about a second, from the settings), nothing is retried under the caller (a retried
append of a command without an id would be recorded twice), and a server that cannot be
reached or does not answer in time raises `StoreUnavailable` (503 `store_unavailable`
at the API's boundary). The first failure of an outage is logged as a warning, the first
success after it as an info: not a traceback per request.

The event store may be a Redis Cluster (`redis+cluster://host:port,...`):
`event_store_client` then builds a `StoreCluster`, the same promises on a cluster client
(redirections followed, connection errors not retried). The broker and the job records
are always one Redis (`store_client`).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, cast

import redis
from redis.backoff import NoBackoff
from redis.client import Pipeline
from redis.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.retry import Retry

from services.store.errors import StoreUnavailable

log = logging.getLogger("daedalus.store")

# What an unreachable or stalled server raises in redis-py (BusyLoadingError, a Redis
# still loading its AOF after a restart, is a ConnectionError too).
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)

# On a Redis Cluster also: the cluster refuses commands while a master is down (CLUSTERDOWN),
# or the client finds no node for a slot.
UNREACHABLE_CLUSTER = (
    *UNREACHABLE,
    redis.exceptions.ClusterDownError,
    redis.exceptions.SlotNotCoveredError,
)

# A Redis Cluster's URL: `redis+cluster://host:port[,host:port...]` (startup nodes; the
# client discovers the rest). `rediss+cluster://` for TLS.
CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")

# What the event store and the other stores take: one Redis, or a Redis Cluster.
AnyRedis = redis.Redis | RedisCluster


def is_cluster_url(url: str) -> bool:
    """Whether `url` names a Redis Cluster (`redis+cluster://`)."""
    return url.startswith(CLUSTER_SCHEMES)


def cluster_nodes(url: str) -> tuple[list[ClusterNode], bool]:
    """The startup nodes of a `redis+cluster://` URL, and whether it asks for TLS."""
    scheme, _, rest = url.partition("://")
    hosts = rest.split("/", 1)[0].split("?", 1)[0]
    nodes = []
    for part in hosts.split(","):
        host, sep, port = part.strip().rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ValueError(f"a Redis Cluster URL lists host:port pairs, not {part!r}")
        nodes.append(ClusterNode(host, int(port)))  # type: ignore[no-untyped-call]
    return nodes, scheme.startswith("rediss")


def connect(url: str, **options: Any) -> AnyRedis:
    """A plain redis-py client of `url`: a `RedisCluster` for `redis+cluster://`."""
    if is_cluster_url(url):
        nodes, tls = cluster_nodes(url)
        return RedisCluster(startup_nodes=nodes, ssl=tls, **options)
    return redis.Redis.from_url(url, **options)


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds to wait for a connection, and for any reply, before giving up."""

    connect: float = 1.0
    socket: float = 1.0


class Outage:
    """Whether a Redis is reachable, as its client last found it; logs each transition."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.down_since: float | None = None
        self._lock = threading.Lock()

    def failed(self, error: BaseException) -> None:
        """A command could not reach the server: log the outage if it just began."""
        with self._lock:
            if self.down_since is not None:
                return
            self.down_since = time.monotonic()
        log.warning(
            "%s is unreachable (%s: %s): failing fast (store_unavailable) until it is back",
            self.name,
            type(error).__name__,
            error,
        )

    def succeeded(self) -> None:
        """A command got its answer: log the recovery if an outage was under way."""
        if self.down_since is None:  # the common case, without the lock
            return
        with self._lock:
            since, self.down_since = self.down_since, None
        if since is not None:
            log.info("%s is reachable again after %.1f s", self.name, time.monotonic() - since)


class StoreClient(redis.Redis):
    """A redis-py client whose unreachable-server errors are `StoreUnavailable`."""

    outage: Outage

    def execute_command(self, *args: Any, **options: Any) -> Any:
        """Run a command; an unreachable or stalled server is `StoreUnavailable`."""
        try:
            result = super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        except UNREACHABLE as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Pipeline:
        """A pipeline whose `execute` fails the same way."""
        pipe = StorePipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.outage = self.outage
        return pipe


class StorePipeline(Pipeline):
    """A pipeline of a `StoreClient`."""

    outage: Outage

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        """Send the queued commands; an unreachable or stalled server is `StoreUnavailable`."""
        try:
            result: list[Any] = super().execute(raise_on_error)
        except UNREACHABLE as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result


class StoreCluster(RedisCluster):
    """A redis-py cluster client whose unreachable-node errors are `StoreUnavailable`.

    Redirections (MOVED, ASK) are followed, as they must be: the command did not run.
    A connection error is not retried (`retry` with no retries), as on one Redis.
    """

    outage: Outage

    def __init__(self, outage: Outage, **options: Any) -> None:
        self.outage = outage  # set first: the cluster client sends COMMAND as it starts
        super().__init__(**options)

    def execute_command(self, *args: Any, **options: Any) -> Any:
        """Run a command; an unreachable or stalled node is `StoreUnavailable`."""
        try:
            result = super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        except UNREACHABLE_CLUSTER as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        """A pipeline whose `execute` fails the same way."""
        pipe: ClusterPipeline = super().pipeline(transaction, shard_hint)  # type: ignore[no-untyped-call]
        # RedisCluster builds its pipeline from a dozen of its internals: re-class the
        # one it built (StoreClusterPipeline adds no state but `outage`).
        pipe.__class__ = StoreClusterPipeline
        cast(StoreClusterPipeline, pipe).outage = self.outage
        return pipe


class StoreClusterPipeline(ClusterPipeline):
    """A pipeline of a `StoreCluster`."""

    outage: Outage

    def execute(self, raise_on_error: bool = True) -> list[Any]:
        """Send the queued commands; an unreachable or stalled node is `StoreUnavailable`."""
        try:
            result: list[Any] = super().execute(raise_on_error)
        except UNREACHABLE_CLUSTER as exc:
            raise unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result


def unavailable(outage: Outage, error: BaseException) -> StoreUnavailable:
    if isinstance(error, StoreUnavailable):
        return error
    outage.failed(error)
    return StoreUnavailable(f"{outage.name} is unreachable; retry shortly")


def event_store_client(
    url: str, timeouts: Timeouts | None = None, name: str = "Redis"
) -> StoreClient | StoreCluster:
    """A client of the event store at `url`: one Redis, or a Redis Cluster.

    `redis+cluster://host:port,...` builds a cluster client (`StoreCluster`) with the
    same timeouts, no retries and the same failures as `store_client`.
    """
    if not is_cluster_url(url):
        return store_client(url, timeouts, name)
    timeouts = timeouts if timeouts is not None else Timeouts()
    nodes, tls = cluster_nodes(url)
    return StoreCluster(
        Outage(name),
        startup_nodes=nodes,
        ssl=tls,
        socket_connect_timeout=timeouts.connect,
        socket_timeout=timeouts.socket,
        retry=Retry(NoBackoff(), 0),
    )


def store_client(url: str, timeouts: Timeouts | None = None, name: str = "Redis") -> StoreClient:
    """A client of the Redis at `url`: explicit timeouts, no hidden retries, clear failures.

    One Redis only (the Celery broker and the job records); the event store's client,
    which may be a cluster's, is `event_store_client`.
    """
    if is_cluster_url(url):
        raise ValueError(f"{name} is one Redis, not a Redis Cluster ({url.split('://')[0]})")
    timeouts = timeouts if timeouts is not None else Timeouts()
    client = cast(
        StoreClient,
        StoreClient.from_url(
            url,
            socket_connect_timeout=timeouts.connect,
            socket_timeout=timeouts.socket,
            retry=Retry(NoBackoff(), 0),
        ),
    )
    client.outage = Outage(name)
    return client
