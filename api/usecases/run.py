"""Running a row's service: the one place both transports call it (threadpool, bounds, metrics).

A service that blocks (Redis) or takes CPU runs in the app's thread pool
(`app.state.threads`, opened and shut down with the app, api/runtime.py) through
asyncio's executor: anyio's `to_thread` (Starlette's `run_in_threadpool`) spends about
twice the CPU per hop on cancel scopes, a capacity limiter and context lookups, which
on a session command is a tenth of its cost. Before the app has started (a TestClient
without its lifespan) they run on anyio's.
"""

from __future__ import annotations

import asyncio
import contextvars
import math
from collections.abc import Callable
from concurrent.futures import Executor
from functools import partial
from typing import Any, TypeVar

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.clients import client_of
from api.metrics import count_roll
from api.middleware.rate_limit import redis_url_of
from api.problems import RateLimited
from api.ratelimit import TokenBuckets
from api.tables.kind import Kind
from api.tables.revocation import REVOKED, scopes_of
from api.tables.tokens import RoleToken, TokenRevoked
from api.usecases.table import AsyncService, Call, Redacted, UseCase
from services.errors import DomainError
from services.store.errors import Revoked
from services.store.revocations import Guard

T = TypeVar("T")

# One semaphore per bounded row, process-wide: exact distributions can take about a
# second of CPU each, and bounding them keeps the event loop (health checks) responsive.
_BOUNDS: dict[str, asyncio.Semaphore] = {}


def _bound(row: UseCase) -> asyncio.Semaphore | None:
    if row.concurrency is None:
        return None
    found = _BOUNDS.get(row.name)
    if found is None:
        found = _BOUNDS[row.name] = asyncio.Semaphore(row.concurrency)
    return found


async def spend_tokens(conn: HTTPConnection, price: int, what: str) -> None:
    """Spend `price` less the token the request took at the door from the caller's
    bucket, before any work; RateLimited when the bucket cannot pay it now. A price over
    the burst is charged as the whole burst (the door's token and the rest of a full
    bucket): more would never be paid."""
    buckets: TokenBuckets | None = getattr(conn.app.state, "rate_buckets", None)
    if price <= 1 or buckets is None:
        return
    identity = client_of(conn).identity
    rest = min(price, buckets.burst) - 1
    if rest < 1:
        return
    decision = await buckets.take(identity, redis_url_of(conn.scope), cost=rest)
    if decision is not None and not decision.allowed:
        # The retry pays the door again: one token more than this refusal waited for.
        retry = decision.retry_after + math.ceil(buckets.interval_us / 1_000_000)
        raise RateLimited(f"{what} costs {price} tokens: retry in {retry} s", retry_after=retry)


async def in_thread(conn: HTTPConnection, fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` in the app's thread pool, in a copy of the caller's context."""
    pool: Executor | None = getattr(conn.app.state, "threads", None)
    if pool is None:
        return await run_in_threadpool(fn, *args)
    run = contextvars.copy_context().run
    return await asyncio.get_running_loop().run_in_executor(pool, run, fn, *args)


def call_of(
    conn: HTTPConnection,
    grant: RoleToken | None = None,
    guard: Guard | None = None,
    shown: frozenset[str] | None = None,
) -> Call:
    """What a service may read of this request: the settings, the tenant, the runtime
    and, for a table row, the verified grant of its role token (and a `guarded` row's
    revocation check, for its append), and the result's fields the caller reads."""
    runtime = getattr(conn.app.state, "runtime", None)
    return Call(conn.app.state.settings, client_of(conn).tenant, runtime, grant, guard, shown)


async def execute(
    row: UseCase,
    request: Any,
    conn: HTTPConnection,
    transport: str,
    grant: RoleToken | None = None,
    shown: frozenset[str] | None = None,
) -> BaseModel | Redacted:
    """The row's result for a validated `request`; domain errors propagate to the adapter.

    A table row's `grant` (its token verified, no I/O yet) is checked against revocations
    in the same thread as the service, after the price: one hop off the event loop; a row
    with an `aservice` (a command, a look) checks them in the event loop instead, with no
    hop at all. A `guarded` row's check rides on its append script, no read of its own."""
    # The row's price (docs/OPERATIONS.md, "Price list") before any work; the door's
    # token paid for a price of 1.
    price = row.price(request) if callable(row.price) else row.price
    if price > 1:
        await spend_tokens(conn, price, row.name)
    guard = None
    if grant is not None and row.guarded:
        guard = Guard(grant.issued_at_ms, tuple(scopes_of(grant)))
    call = call_of(conn, grant, guard, shown)
    service: Callable[[Any, Call], BaseModel | Redacted] = row.service
    kind = None
    if grant is not None and row.table is not None:
        kind = row.table.kind
        service = partial(_live_first, kind.live, conn, grant, row.service)
    bound = _bound(row)
    aio = call.runtime is not None and call.runtime.aio is not None
    if kind is not None and grant is not None and row.aservice is not None and aio:
        result = await _live_first_async(kind, conn, grant, row.aservice, call, request)
    elif bound is not None:
        async with bound:
            result = await in_thread(conn, service, request, call)
    elif grant is not None or (row.cpu(request) if callable(row.cpu) else row.cpu):
        result = await in_thread(conn, service, request, call)
    else:
        result = service(request, call)
    if row.rolls:
        count_roll(conn, transport)
    return result


async def _live_first_async(
    kind: Kind[Any, Any],
    conn: HTTPConnection,
    grant: RoleToken,
    service: AsyncService,
    call: Call,
    request: Any,
) -> BaseModel | Redacted:
    """`_live_first` for a row's `aservice`, awaited in the event loop, the revocations
    read there too (`kind.alive`, on the tenant's asyncio store): first for a row that
    only reads (a look); for a `guarded` row the append script checks the token, and only
    a call that never reached it reads them."""
    guard = call.guard
    if guard is None:
        await kind.alive(conn, grant, call.async_store())
        return await service(request, call)
    try:
        result = await service(request, call)
    except Revoked:
        raise TokenRevoked(REVOKED) from None
    except DomainError:
        if not guard.checked:
            await kind.alive(conn, grant, call.async_store())
        raise
    if not guard.checked:
        await kind.alive(conn, grant, call.async_store())
    return result


def _live_first(
    live: Callable[[HTTPConnection, RoleToken], None],
    conn: HTTPConnection,
    grant: RoleToken,
    service: Callable[[Any, Call], BaseModel | Redacted],
    request: Any,
    call: Call,
) -> BaseModel | Redacted:
    """The service, once `live` found the token not revoked (one read, first).

    A `guarded` row's append script checks the token instead (`call.guard`: one round
    trip fewer). A call that never reached the script (refused first, a duplicate
    answered from the store, nothing to record) checks on its own before it answers, so
    a revoked token learns nothing either way: not even why its command was refused."""
    guard = call.guard
    if guard is None:
        live(conn, grant)
        return service(request, call)
    try:
        result = service(request, call)
    except Revoked:
        raise TokenRevoked(REVOKED) from None
    except DomainError:
        if not guard.checked:
            live(conn, grant)
        raise
    if not guard.checked:
        live(conn, grant)
    return result
