"""Running a row's service: the one place both transports call it (threadpool, bounds, metrics)."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.clients import client_of
from api.metrics import count_roll
from api.usecases.table import Call, UseCase

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


async def execute(row: UseCase, request: Any, conn: HTTPConnection, transport: str) -> BaseModel:
    """The row's result for a validated `request`; domain errors propagate to the adapter."""
    runtime = getattr(conn.app.state, "runtime", None)
    call = Call(conn.app.state.settings, client_of(conn).tenant, runtime)
    bound = _bound(row)
    if bound is not None:
        async with bound:
            result = await run_in_threadpool(row.service, request, call)
    elif row.cpu:
        result = await run_in_threadpool(row.service, request, call)
    else:
        result = row.service(request, call)
    if row.rolls:
        count_roll(conn, transport)
    return result
