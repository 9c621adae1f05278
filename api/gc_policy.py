"""The cycle collector's settings for the serving process, and a full pass after sockets close.

Nearly all garbage is freed by reference counting, so full passes are kept rare (below).
A closed WebSocket is the exception: its connection (uvicorn's protocol and transport,
the socket, the permessage-deflate zlib streams, strawberry's and graphql-core's
execution state for its subscription) is a cycle of objects that lived long enough to
reach the oldest generation, about 75 KiB of it per socket. With full passes rare, 300
subscriptions opened and closed left some 22 MiB behind each time, freed only now and
then. `CollectClosedSockets` runs one full pass shortly after sockets close (at most
one every PASS_DELAY_SECONDS): what closed sockets leave behind is freed within seconds.
"""

from __future__ import annotations

import asyncio
import gc

from starlette.types import ASGIApp, Receive, Scope, Send

PASS_DELAY_SECONDS = 2.0
# Objects allocated (net) before a young pass (CPython 3.11's default: 700).
YOUNG_PASS_AFTER = 2000
# Middle-generation passes before a full one (CPython's default: 10).
FULL_PASS_AFTER = 1000


def tune_gc() -> None:
    """Keep the cycle collector's full passes off the request path (latency tails).

    What is built by now (modules, the GraphQL schema, models) lives as long as the
    process: frozen, the full passes no longer scan it (they took 50-150 ms each under
    load). And a full pass waits for FULL_PASS_AFTER middle-generation passes instead of
    10: nearly all garbage is freed by reference counting, and the pass that remains
    scans every live session state (20 ms with a thousand sessions cached, which held up
    every request in flight: a closed loop of 50 flips had its p99 at 37 ms instead of
    22, bench/api.py). What those passes found was a few hundred objects each (gc's own
    callbacks, counted over bench/api.py's runs), so passes ten times rarer keep little
    more; a closed WebSocket's connection, the one large cycle, is collected on its own
    (`CollectClosedSockets`).

    A young pass waits for YOUNG_PASS_AFTER new objects instead of 700. Each young pass
    finds the objects of the requests in flight alive and moves them on, and the middle
    passes that then scan them cost as much as the young ones: with 50 flips in flight,
    the middle passes took 19 ms of 3,000 flips' CPU at 2,000, against 28-69 ms at 700
    (up to 5% of a flip), for a longest pass of 3 ms instead of 2 (gc's callbacks,
    bench/api.py's closed loop). At 4,000 a pass took up to 8 ms, at 10,000 30 ms.
    """
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_PASS_AFTER, middle, FULL_PASS_AFTER)


class CollectClosedSockets:
    """ASGI wrapper: a full collection shortly after WebSocket sessions end.

    The pass is scheduled `delay` seconds after the first session that ends since the
    last one (so at most one a `delay`, however many close): by then uvicorn has torn
    the connections down, and what they leave is freed together.
    """

    def __init__(self, app: ASGIApp, delay: float = PASS_DELAY_SECONDS) -> None:
        self.app = app
        self.delay = delay
        self._pending: asyncio.TimerHandle | None = None
        self.passes = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            if self._pending is None:
                self._pending = asyncio.get_running_loop().call_later(self.delay, self._collect)

    def _collect(self) -> None:
        self._pending = None
        self.passes += 1
        gc.collect()
