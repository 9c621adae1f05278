"""Redis clients that fail fast and clearly: explicit timeouts, one error, one log per outage.

Every client Daedalus builds for its own Redis (the event store, the job records, the
workers' event store) comes from `store_client`: connect and socket timeouts are explicit
(about a second, from the settings), nothing is retried under the caller (a retried
append of a command without an id would be recorded twice), and a server that cannot be
reached or does not answer in time raises `StoreUnavailable` (503 `store_unavailable`
at the API's boundary). The first failure of an outage is logged as a warning, the first
success after it as an info: not a traceback per request.
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
from redis.retry import Retry

from services.store.errors import StoreUnavailable

log = logging.getLogger("daedalus.store")

# What an unreachable or stalled server raises in redis-py (BusyLoadingError, a Redis
# still loading its AOF after a restart, is a ConnectionError too).
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


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
            raise _unavailable(self.outage, exc) from exc
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
            raise _unavailable(self.outage, exc) from exc
        self.outage.succeeded()
        return result


def _unavailable(outage: Outage, error: BaseException) -> StoreUnavailable:
    if isinstance(error, StoreUnavailable):
        return error
    outage.failed(error)
    return StoreUnavailable(f"{outage.name} is unreachable; retry shortly")


def store_client(url: str, timeouts: Timeouts | None = None, name: str = "Redis") -> StoreClient:
    """A client of the Redis at `url`: explicit timeouts, no hidden retries, clear failures."""
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
