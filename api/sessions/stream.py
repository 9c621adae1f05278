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

# A session's last event: after either, every command is refused (docs/PROTOCOL.md).
FINAL_EVENTS = frozenset({"MazeEscaped", "MazeEnded"})

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
    final: frozenset[str] = frozenset(),
) -> AsyncIterator[dict[str, Any]]:
    """`render`ed events of `stream` after version `after`, in order, until `expires`.

    The feed completes after an event whose type is in `final` (nothing can follow it).
    Cancellation (the client left) unregisters the watcher at once: the only await that
    lasts is on an asyncio event.
    """
    last = after
    async with live_feed_of(conn, store).watch(stream) as woken:
        while now() < expires:
            woken.clear()  # before reading, so a wake-up during the read is kept
            page = await run_in_threadpool(store.read, stream, last + 1, MAX_PAGE)
            for shown in render(page):
                yield shown
            if any(recorded.type in final for recorded in page):
                return
            if page:
                last = page[-1].version
                if len(page) == MAX_PAGE:
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), RECHECK_SECONDS)


def follow(conn: HTTPConnection, grant: RoleToken, after: int) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted session events after `after`, until the end or the token expires."""
    sessions = sessions_of(conn)
    viewer = viewer_of(grant)
    return follow_stream(
        conn,
        sessions.store,
        sessions.stream(grant.session_id),
        grant.expires,
        after,
        lambda page: feed(page, viewer),
        FINAL_EVENTS,
    )
