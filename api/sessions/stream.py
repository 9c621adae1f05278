"""A viewer's events as they are appended: catch up from a checkpoint, then follow live.

`follow_stream` is shared by every event-sourced stream a viewer can watch (sessions,
campaigns): the wake-ups come from the tenant's live feed (api/sessions/live.py), which
tails the global log, so events appended by a Celery worker wake watchers too.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.sessions.access import now, sessions_of
from api.sessions.live import live_feed_of
from api.sessions.revocation import watch_of
from api.sessions.tokens import RoleToken
from api.sessions.usecases import MAX_PAGE, feed, viewer_of
from services.store import RecordedEvent, RedisEventStore

# A session's last event: after either, every command is refused (docs/PROTOCOL.md).
FINAL_EVENTS = frozenset({"MazeEscaped", "MazeEnded"})

# A safety net: even without a wake-up, look at the stream this often.
RECHECK_SECONDS = 5.0
# How often a waiting subscription looks for its token's revocation (seconds).
REVOCATION_CHECK = 0.25

Render = Callable[[Sequence[RecordedEvent]], Iterable[dict[str, Any]]]


async def follow_stream(
    conn: HTTPConnection,
    store: RedisEventStore,
    stream: str,
    expires: int,
    after: int,
    render: Render,
    grant: RoleToken,
    final: frozenset[str] = frozenset(),
) -> AsyncIterator[dict[str, Any]]:
    """`render`ed events of `stream` after version `after`, in order, until `expires`.

    The feed completes after an event whose type is in `final` (nothing can follow it),
    and raises TokenRevoked within a second of `grant`'s revocation.
    Cancellation (the client left) unregisters the watcher at once: the only await that
    lasts is on an asyncio event. An unreachable store ends it with `StoreUnavailable`
    (`store_unavailable`): the client subscribes again after the last version it got.
    """
    last = after
    revocations = watch_of(conn)
    live = live_feed_of(conn, store)
    async with live.watch(stream) as woken:
        while now() < expires:
            if live.failure is not None:  # the client resumes after its last version
                raise live.failure
            woken.clear()  # before reading, so a wake-up during the read is kept
            await revocations.ensure_live(conn, stream, grant)
            page = await run_in_threadpool(store.read, stream, last + 1, MAX_PAGE)
            for shown in render(page):
                yield shown
            if any(recorded.type in final for recorded in page):
                return
            if page:
                last = page[-1].version
                if len(page) == MAX_PAGE:
                    continue
            await _wait(woken, lambda: revocations.ensure_live(conn, stream, grant))


async def _wait(woken: asyncio.Event, check: Callable[[], Awaitable[None]]) -> None:
    """Until `woken` (or RECHECK_SECONDS), running `check` every REVOCATION_CHECK seconds."""
    for _ in range(round(RECHECK_SECONDS / REVOCATION_CHECK)):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), REVOCATION_CHECK)
            return
        await check()


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
        grant,
        FINAL_EVENTS,
    )
