"""A viewer's events as they are appended: catch up from a checkpoint, then follow live.

`follow_stream` is shared by every event-sourced stream a viewer can watch (sessions,
campaigns): the wake-ups come from the tenant's live feed (api/sessions/live.py), which
tails the global log, so events appended by a Celery worker wake watchers too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.sessions.access import now, sessions_of
from api.sessions.live import live_feed_of
from api.sessions.tokens import RoleToken
from api.sessions.usecases import MAX_PAGE, feed, viewer_of
from services.store import RecordedEvent, RedisEventStore

# A safety net: even without a wake-up, look at the stream this often.
RECHECK_SECONDS = 5.0

Render = Callable[[Sequence[RecordedEvent]], Iterable[dict[str, Any]]]


async def follow_stream(
    conn: HTTPConnection,
    store: RedisEventStore,
    stream: str,
    expires: int,
    after: int,
    render: Render,
) -> AsyncIterator[dict[str, Any]]:
    """`render`ed events of `stream` after version `after`, in order, until `expires`.

    Cancellation (the client left) unregisters the watcher at once: the only await that
    lasts is on an asyncio event. An unreachable store ends it with `StoreUnavailable`
    (`store_unavailable`): the client subscribes again after the last version it got.
    """
    last = after
    live = live_feed_of(conn, store)
    async with live.watch(stream) as woken:
        while now() < expires:
            if live.failure is not None:  # the client resumes after its last version
                raise live.failure
            woken.clear()  # before reading, so a wake-up during the read is kept
            page = await run_in_threadpool(store.read, stream, last + 1, MAX_PAGE)
            for shown in render(page):
                yield shown
            if page:
                last = page[-1].version
                if len(page) == MAX_PAGE:
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), RECHECK_SECONDS)


def follow(conn: HTTPConnection, grant: RoleToken, after: int) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted session events after version `after`, until the token expires."""
    sessions = sessions_of(conn)
    viewer = viewer_of(grant)
    return follow_stream(
        conn,
        sessions.store,
        sessions.stream(grant.session_id),
        grant.expires,
        after,
        lambda page: feed(page, viewer),
    )
