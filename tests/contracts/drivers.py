"""The two ways a session command reaches the store, for the session service's contract.

`threads`: `SessionService.execute` and `load`, blocking on redis-py's client (the
workers, the API's other table rows). `asyncio`: `SessionService.aexecute` and `aload`
on an `AsyncEventStore` (the API's session commands and looks), run here in an event
loop of its own thread, so that the same tests (threads racing included) drive it; its
coroutines interleave in that loop as the API's requests do.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from services.store import RedisEventStore
from services.store.aio import AsyncEventStore, AsyncRedis, async_event_store_client
from services.store.sessions import Executed, Loaded, SessionService

T = TypeVar("T")
DRIVERS = ("threads", "asyncio")


class Loop:
    """An event loop running in a thread of its own, and the asyncio clients opened on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="test-loop")
        self.thread.start()
        self.clients: list[AsyncRedis] = []
        self._lock = threading.Lock()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Run `coroutine` in the loop; its result (or error) here."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=120)

    def client(self, url: str) -> AsyncRedis:
        """An asyncio client of `url`, closed with the loop."""
        client = async_event_store_client(url)
        with self._lock:
            self.clients.append(client)
        return client

    def close(self) -> None:
        """Close every client, stop the loop and join its thread."""
        for client in self.clients:
            self.run(client.aclose())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


class LoopDriven(SessionService[Any]):
    """A session service whose `execute` and `load` are `aexecute` and `aload` on an
    asyncio client of `url`."""

    def __init__(self, loop: Loop, url: str, store: RedisEventStore, *args: Any, **kw: Any):
        super().__init__(store, *args, **kw)
        self.loop = loop
        self.astore = AsyncEventStore(store, loop.client(url))

    def execute(self, session_id: str, command: Any, rng: Any, **kw: Any) -> Executed[Any]:
        return self.loop.run(self.aexecute(self.astore, session_id, command, rng, **kw))

    def load(self, session_id: str) -> Loaded[Any]:
        return self.loop.run(self.aload(self.astore, session_id))
