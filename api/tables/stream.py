"""A viewer's events as they are appended: catch up from a checkpoint, then follow live.

`follow_stream` is shared by every event-sourced stream a viewer can watch (sessions,
campaigns): the wake-ups come from the tenant's live feed (api/tables/live.py), which
tails the global log, so events appended by a Celery worker wake watchers too.

A catch-up (`after` far behind) is bounded three ways, so a flood of them cannot starve
the event loop (issue 16; docs/OPERATIONS.md, "Price list"):
- it is read in pages of at most `PAGE` events, each read and redacted off the loop;
- at most `DAEDALUS_WS_MAX_CATCH_UP` pages are being delivered at once per process (the
  others wait their turn), each holding its place for at most `LEASE` seconds, so a
  client that stops reading cannot keep it;
- the subscription's token pays for its first page; each further page of a catch-up
  costs `PAGE_PRICE` tokens, paid before it is read (live events cost nothing more);
  when the caller's bucket cannot pay, the catch-up waits for it (backpressure), it
  does not fail.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.clients import client_state
from api.middleware.rate_limit import redis_url_of
from api.ratelimit import TokenBuckets
from api.tables.access import now
from api.tables.kind import PAGE, PAGE_PRICE, Kind
from api.tables.live import live_feed_of
from api.tables.revocation import watch_of
from api.tables.tokens import RoleToken
from services.store import RecordedEvent, RedisEventStore

# A safety net: even without a wake-up, look at the stream this often.
RECHECK_SECONDS = 5.0
# How often a waiting subscription looks for its token's revocation (seconds).
REVOCATION_CHECK = 0.25

Render = Callable[[Sequence[RecordedEvent]], Iterable[dict[str, Any]]]

LEASE = 1.0  # seconds a page may hold its delivery slot


class PageSlots:
    """At most `limit` pages being delivered at once (in this process), each for at most
    `lease` seconds: after that its slot is given to the next page even if the client
    has not taken the page's events yet."""

    def __init__(self, limit: int, lease: float = LEASE) -> None:
        self._free = asyncio.Semaphore(limit)
        self.lease = lease

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for the body (or until the lease ends)."""
        await self._free.acquire()
        held = True

        def give_back() -> None:
            nonlocal held
            if held:
                held = False
                self._free.release()

        expiry = asyncio.get_running_loop().call_later(self.lease, give_back)
        try:
            yield
        finally:
            expiry.cancel()
            give_back()


def page_slots(conn: HTTPConnection) -> PageSlots:
    """The process's delivery slots (DAEDALUS_WS_MAX_CATCH_UP), made on first use."""
    state = conn.app.state
    slots: PageSlots | None = getattr(state, "page_slots", None)
    if slots is None:
        slots = state.page_slots = PageSlots(state.settings.ws_max_catch_up)
    return slots


async def pay_for_page(conn: HTTPConnection) -> None:
    """Spend a catch-up page's price from the caller's bucket, waiting until it can pay."""
    buckets: TokenBuckets | None = getattr(conn.app.state, "rate_buckets", None)
    client = client_state(conn.scope)
    if buckets is None or client is None:
        return
    while True:
        decision = await buckets.take(client.identity, redis_url_of(conn.scope), cost=PAGE_PRICE)
        if decision is None or decision.allowed:
            return
        await asyncio.sleep(decision.retry_after)


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
    slots = page_slots(conn)
    catching_up = False  # the last page was full: the next one continues a catch-up

    def read(start: int) -> tuple[list[RecordedEvent], list[dict[str, Any]]]:
        page = store.read(stream, start, PAGE)
        return page, list(render(page))

    async with live.watch(stream) as woken:
        while now() < expires:
            if live.failure is not None:  # the client resumes after its last version
                raise live.failure
            woken.clear()  # before reading, so a wake-up during the read is kept
            await revocations.ensure_live(conn, stream, grant)
            if catching_up:
                await pay_for_page(conn)
            async with slots.slot():
                page, shown = await run_in_threadpool(read, last + 1)
                for event in shown:
                    yield event
                    await asyncio.sleep(0)  # one event at a time: the loop stays fair
            if any(recorded.type in final for recorded in page):
                return
            catching_up = len(page) == PAGE
            if page:
                last = page[-1].version
                if catching_up:
                    continue
            await _wait(woken, lambda: revocations.ensure_live(conn, stream, grant))


async def _wait(woken: asyncio.Event, check: Callable[[], Awaitable[None]]) -> None:
    """Until `woken` (or RECHECK_SECONDS), running `check` every REVOCATION_CHECK seconds."""
    for _ in range(round(RECHECK_SECONDS / REVOCATION_CHECK)):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken.wait(), REVOCATION_CHECK)
            return
        await check()


def follow(
    conn: HTTPConnection,
    kind: Kind[Any, Any],
    grant: RoleToken,
    after: int,
    final: frozenset[str] = frozenset(),
) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted events of the grant's table after `after`, until one of the
    `final` events or the token expires."""
    service = kind.of(conn)
    viewer = kind.viewer_of(grant)
    return follow_stream(
        conn,
        service.store,
        service.stream(kind.table_id(grant)),
        grant.expires,
        after,
        lambda page: kind.feed(page, viewer),
        grant,
        final,
    )
