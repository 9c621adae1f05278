"""What the running service holds: its Redis connection and, per tenant, a session service.

Opened when the app starts (the lifespan), closed when it stops. Without REDIS_URL the
embedded Redis is started under the data folder; either way the server is checked
(AOF on, no eviction) before any event is written. Each tenant gets its own event store
(its own key prefix) and session service, built on first use and kept.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from api.metrics import Metrics, ObservedEventStore
from api.settings import Settings
from services.labyrinth import MazeState
from services.labyrinth.codec import LabyrinthAggregate
from services.store import (
    Connection,
    RedisEventStore,
    check_durability,
    connect_url,
    start_embedded,
)
from services.store.sessions import SessionService


@dataclass
class Runtime:
    """The service's live resources."""

    connection: Connection
    metrics: Metrics = field(default_factory=Metrics)
    _sessions: dict[str, SessionService[MazeState]] = field(default_factory=dict)

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


def open_runtime(settings: Settings, metrics: Metrics | None = None) -> Runtime:
    """Connect to Redis (embedded by default), check it, and build the services on it."""
    if settings.redis_url:
        connection = connect_url(settings.redis_url)
    else:
        connection = start_embedded(settings.data_dir)
    try:
        check_durability(connection.client, allow_unsafe=settings.redis_allow_unsafe)
    except Exception:
        connection.close()
        raise
    return Runtime(connection, metrics if metrics is not None else Metrics())


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Open the runtime when the app starts, close it when it stops."""
    runtime = await run_in_threadpool(open_runtime, app.state.settings, app.state.metrics)
    app.state.runtime = runtime
    try:
        yield
    finally:
        await run_in_threadpool(runtime.connection.close)


def runtime_of(request: Request) -> Runtime | None:
    """The runtime, once the app has started."""
    runtime: Runtime | None = getattr(request.app.state, "runtime", None)
    return runtime
