"""What the running service holds: its Redis connection and, per tenant, a session service.

Opened when the app starts (the lifespan), closed when it stops. Without REDIS_URL the
embedded Redis is started under the data folder; either way the server is checked
(AOF on, no eviction) before any event is written. Each tenant gets its own event store
(its own key prefix) and session service, built on first use and kept; campaigns run
on the same per-tenant store, and the tick schedule lives on the same Redis.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import redis
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from api.metrics import Metrics, ObservedEventStore
from infra.settings import Settings
from services.campaign import CampaignAggregate, CampaignState
from services.labyrinth import MazeState
from services.labyrinth.codec import LabyrinthAggregate
from services.store import (
    Connection,
    RedisEventStore,
    check_durability,
    connect_url,
    start_embedded,
)
from services.store.aio import AsyncEventStore, AsyncRedis, async_event_store_client
from services.store.campaigns import CampaignClock
from services.store.client import Timeouts, store_client
from services.store.fairrolls import FairRolls
from services.store.revocations import Revocations
from services.store.schedule import TickSchedule
from services.store.sessions import SessionService
from services.store.tables import Tables
from workers.client import stop_sending_jobs

THREADS = 40


@dataclass
class Runtime:
    """The service's live resources."""

    connection: Connection
    metrics: Metrics = field(default_factory=Metrics)
    # The Celery broker's Redis (`DAEDALUS_REDIS_URL`) when it is not the event store's:
    # job records live next to the queue the workers read, as in workers/tasks.py.
    broker_url: str | None = None
    timeouts: Timeouts = field(default_factory=Timeouts)
    _broker: redis.Redis | None = field(default=None, init=False)
    _sessions: dict[str, SessionService[MazeState]] = field(default_factory=dict)
    _campaigns: dict[str, SessionService[CampaignState]] = field(default_factory=dict)
    _clocks: dict[str, CampaignClock] = field(default_factory=dict)
    _revocations: dict[str, Revocations] = field(default_factory=dict)
    schedule: TickSchedule = field(init=False)
    # The session commands' asyncio client of the event store (services/store/aio.py),
    # opened in the event loop by the lifespan; without it they block in a thread.
    aio: AsyncRedis | None = None
    _aio_stores: dict[str, AsyncEventStore] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.schedule = TickSchedule(self.connection.client)

    @property
    def jobs_url(self) -> str:
        """The redis-py URL of the Redis the workers use (queue and job records)."""
        return self.broker_url or self.connection.url

    @property
    def jobs_client(self) -> redis.Redis:
        """A client of `jobs_url` (the event store's client when they are one Redis)."""
        if self.broker_url is None:
            if not isinstance(self.connection.client, redis.Redis):  # Settings refuse it
                raise ValueError("a Redis Cluster event store needs DAEDALUS_REDIS_URL set")
            return self.connection.client
        if self._broker is None:
            self._broker = store_client(self.broker_url, self.timeouts, "the workers' Redis")
        return self._broker

    def sessions_for(self, tenant: str) -> SessionService[MazeState]:
        """The session service of `tenant` (created on first use, then cached)."""
        service = self._sessions.get(tenant)
        if service is None:
            store = ObservedEventStore(self.connection.client, tenant, self.metrics)
            service = self._sessions.setdefault(tenant, SessionService(store, LabyrinthAggregate()))
        return service

    def store_for(self, tenant: str) -> RedisEventStore:
        """The event store of `tenant`."""
        return self.sessions_for(tenant).store

    def async_store_for(self, tenant: str) -> AsyncEventStore | None:
        """`tenant`'s (observed) event store on the asyncio client, once it is open."""
        if self.aio is None:
            return None
        found = self._aio_stores.get(tenant)
        if found is None:
            fresh = AsyncEventStore(self.store_for(tenant), self.aio)
            found = self._aio_stores.setdefault(tenant, fresh)
        return found

    def campaigns_for(self, tenant: str) -> SessionService[CampaignState]:
        """The campaign service of `tenant`, on the sessions' (observed) store."""
        service = self._campaigns.get(tenant)
        if service is None:
            fresh = SessionService(self.store_for(tenant), CampaignAggregate())
            service = self._campaigns.setdefault(tenant, fresh)
        return service

    def revocations_for(self, tenant: str) -> Revocations:
        """The revoked role tokens of `tenant`'s sessions and campaigns."""
        found = self._revocations.get(tenant)
        if found is None:
            fresh = Revocations(self.connection.client, self.store_for(tenant).keys)
            found = self._revocations.setdefault(tenant, fresh)
        return found

    def fair_rolls_for(self, tenant: str) -> FairRolls:
        """The nonces rolled under `tenant`'s provably fair commitments."""
        return FairRolls(self.connection.client, self.store_for(tenant).keys)

    def tables_for(self, tenant: str) -> Tables:
        """The index of `tenant`'s sessions and campaigns, and its join codes."""
        return Tables(self.connection.client, self.store_for(tenant).keys)

    def clock_for(self, tenant: str) -> CampaignClock:
        """The campaign clock of `tenant`: hand advances and rescheduling, as beat's ticks do."""
        clock = self._clocks.get(tenant)
        if clock is None:
            fresh = CampaignClock(self.campaigns_for(tenant), self.schedule, tenant)
            clock = self._clocks.setdefault(tenant, fresh)
        return clock


def open_runtime(settings: Settings, metrics: Metrics | None = None) -> Runtime:
    """Connect to Redis (embedded by default), check it, and build the services on it."""
    timeouts = settings.redis_timeouts
    if settings.redis_url:
        connection = connect_url(settings.redis_url, timeouts)
    else:
        connection = start_embedded(settings.data_dir, timeouts=timeouts)
    try:
        check_durability(connection.client, allow_unsafe=settings.redis_allow_unsafe)
    except Exception:
        connection.close()
        raise
    return Runtime(
        connection,
        metrics if metrics is not None else Metrics(),
        broker_url=settings.broker_url,
        timeouts=timeouts,
    )


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the runtime when the app starts, close it when it stops.

    Stopping releases the Celery connections first, then the clients, then (if this
    runtime started it) the embedded Redis: nothing is left to reconnect to a stopped Redis.
    """
    runtime = await run_in_threadpool(open_runtime, app.state.settings, app.state.metrics)
    outage = getattr(runtime.connection.client, "outage", None)
    # Traced, redis-py's asyncio client (its commands are spans); else the pipelined one.
    traced = getattr(app.state, "tracing", None) is not None
    url = runtime.connection.url
    runtime.aio = async_event_store_client(url, runtime.timeouts, outage, pipelined=not traced)
    app.state.runtime = runtime
    # The request path's threads (api/usecases/run.py), as many as anyio's default.
    app.state.threads = threads = ThreadPoolExecutor(THREADS, thread_name_prefix="api")
    try:
        yield
    finally:
        del app.state.threads
        await run_in_threadpool(threads.shutdown)
        await run_in_threadpool(stop_sending_jobs)
        if runtime._broker is not None:
            runtime._broker.close()
        await runtime.aio.aclose()
        await run_in_threadpool(runtime.connection.close)


def runtime_of(request: Request) -> Runtime | None:
    """The runtime, once the app has started."""
    runtime: Runtime | None = getattr(request.app.state, "runtime", None)
    return runtime
