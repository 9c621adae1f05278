"""An app served in-process with its lifespan run (the runtime open), for in-process tests.

httpx's ASGITransport does not run the lifespan; this does, through the whole middleware
stack, on the test's own event loop, and shuts the app down afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from starlette.types import ASGIApp, Message


@contextlib.asynccontextmanager
async def serving(app: ASGIApp) -> AsyncIterator[httpx.AsyncClient]:
    """Start `app` (lifespan startup), yield a client for it, then shut it down."""
    inbox: asyncio.Queue[Message] = asyncio.Queue()
    outbox: asyncio.Queue[Message] = asyncio.Queue()
    scope: dict[str, Any] = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}

    async def run() -> None:
        await app(scope, inbox.get, outbox.put)

    task = asyncio.create_task(run())

    async def step(kind: str) -> None:
        await inbox.put({"type": f"lifespan.{kind}"})
        answer = await outbox.get()
        if answer["type"] != f"lifespan.{kind}.complete":
            raise RuntimeError(f"lifespan {kind} failed: {answer.get('message', '')}")

    await step("startup")
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client
    finally:
        await step("shutdown")
        await task
