"""A viewer's events as they are appended: catch up from a checkpoint, then follow live."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.sessions.access import now, sessions_of
from api.sessions.live import live_feed_of
from api.sessions.tokens import RoleToken
from api.sessions.usecases import MAX_PAGE, feed, viewer_of

# A safety net: even without a wake-up, look at the stream this often.
RECHECK_SECONDS = 5.0


async def follow(
    conn: HTTPConnection, grant: RoleToken, after: int
) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted events after version `after`, in order, until cancelled.

    Ends when the token expires. Cancellation (the client left) unregisters the watcher
    at once: the only await that lasts is on an asyncio event.
    """
    sessions = sessions_of(conn)
    store = sessions.store
    stream = sessions.stream(grant.session_id)
    viewer = viewer_of(grant)
    last = after
    async with live_feed_of(conn, store).watch(stream) as woken:
        while now() < grant.expires:
            woken.clear()  # before reading, so a wake-up during the read is kept
            page = await run_in_threadpool(store.read, stream, last + 1, MAX_PAGE)
            for shown in feed(page, viewer):
                yield shown
            if page:
                last = page[-1].version
                if len(page) == MAX_PAGE:
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), RECHECK_SECONDS)
