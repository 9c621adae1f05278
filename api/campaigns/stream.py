"""A viewer's campaign events as they are appended: catch up, then follow live.

The wake-ups come from the sessions' live feed (api/sessions/live.py): one tail of the
tenant's global log per process, whatever the stream — a campaign is the stream
`campaign-<id>`, and ticks appended by a Celery worker show up in that log too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.campaigns.access import campaign_id_of, campaigns_of
from api.campaigns.usecases import MAX_PAGE, feed, viewer_of
from api.sessions.access import now
from api.sessions.live import live_feed_of
from api.sessions.tokens import RoleToken

# A safety net: even without a wake-up, look at the stream this often.
RECHECK_SECONDS = 5.0


async def follow(
    conn: HTTPConnection, grant: RoleToken, after: int
) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted events after version `after`, in order, until cancelled.

    Ends when the token expires; cancellation (the client left) unregisters at once.
    """
    campaigns = campaigns_of(conn)
    store = campaigns.store
    stream = campaigns.stream(campaign_id_of(grant))
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
