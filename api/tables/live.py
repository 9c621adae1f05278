"""The live feed: one tail of the event store's global log per process, waking watchers.

Subscribers do not read the log themselves: each registers for its session's stream
and is woken when the tail sees an event of that stream, then reads the stream from its
own checkpoint. So a thousand watchers cost one blocking XREAD (on a Redis Cluster, one
read of the log shards every 20 ms), a slow watcher never holds events in memory, and
resuming from a version is a plain stream read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from redis.exceptions import RedisError
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from services.store import LogCursor, RedisEventStore
from services.store.errors import StoreUnavailable

log = logging.getLogger(__name__)

# Short, so a cancelled tail's thread is back in the pool quickly (and well under the
# Redis socket timeout, so a quiet log never reads as a stalled server).
BLOCK_MS = 250
# Between attempts to read the log again while the store is unreachable.
RETRY_SECONDS = 0.5


class LiveFeed:
    """Wakes the watchers of a stream whenever the global log shows an event of it."""

    def __init__(self, store: RedisEventStore, block_ms: int = BLOCK_MS) -> None:
        self.store = store
        self.block_ms = block_ms
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._task: asyncio.Task[None] | None = None
        # Set while the tail cannot read the log (what the watchers end with).
        self.failure: StoreUnavailable | None = None

    @property
    def watching(self) -> int:
        """How many watchers are registered (for tests and metrics)."""
        return sum(len(w) for w in self._watchers.values())

    @contextlib.asynccontextmanager
    async def watch(self, stream: str) -> AsyncIterator[asyncio.Event]:
        """An event set whenever `stream` may have grown; unregistered on exit.

        Registered before the caller's first read, and the tail starts from the log's
        head read after that, so no append can fall between the two.
        """
        woken = asyncio.Event()
        self._watchers.setdefault(stream, set()).add(woken)
        try:
            if self._task is None or self._task.done():
                head = await run_in_threadpool(self.store.log_head)
                if self._task is None or self._task.done():
                    self.failure = None  # the head was just read: the store is back
                    self._task = asyncio.create_task(self._tail(head))
            yield woken
        finally:
            group = self._watchers.get(stream, set())
            group.discard(woken)
            if not group:
                self._watchers.pop(stream, None)
            if not self._watchers and self._task is not None:
                self._task.cancel()
                self._task = None

    async def _tail(self, cursor: LogCursor) -> None:
        # One Redis: a blocking XREAD; a Redis Cluster: its log shards, polled.
        while True:
            try:
                batch, moved = await run_in_threadpool(self.store.follow, cursor, self.block_ms)
            except (RedisError, OSError) as exc:
                # The client logged the outage once; every watcher ends its subscription
                # with `store_unavailable` now rather than at its next periodic read.
                self.failure = _as_unavailable(exc)
                for group in self._watchers.values():
                    for woken in group:
                        woken.set()
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.failure = None
            cursor = moved
            for recorded in batch:
                for woken in self._watchers.get(recorded.stream, ()):
                    woken.set()


def _as_unavailable(error: BaseException) -> StoreUnavailable:
    if isinstance(error, StoreUnavailable):
        return error
    log.debug("live feed: the event store is unreachable: %r", error)
    return StoreUnavailable("the event store is unreachable; resubscribe after your last version")


def live_feed_of(conn: HTTPConnection, store: RedisEventStore) -> LiveFeed:
    """The live feed of `store`'s tenant (created on first use, on the app's event loop).

    One per tenant: each tails only its own tenant's global log, so a watcher can never
    be woken, let alone fed, by another tenant's events.
    """
    feeds: dict[str, LiveFeed] | None = getattr(conn.app.state, "session_live_feeds", None)
    if feeds is None:
        feeds = {}
        conn.app.state.session_live_feeds = feeds
    tenant = store.keys.tenant
    feed = feeds.get(tenant)
    if feed is None or feed.store is not store:
        feed = feeds[tenant] = LiveFeed(store)
    return feed
