"""uvicorn's HTTP protocol, with a response's writes sent as one.

uvicorn writes a response's status line and headers when the app sends
`http.response.start`, and its body on `http.response.body`: two `send` calls on the
socket for every answer. On loopback and on a VM's network each costs a trip through
the kernel's TCP stack and a wakeup of the reader, about a tenth of a session command's
CPU for the pair (bench/api.py). Both come in the same turn of the event loop (nothing
awaits between them), so `OneWritePerTurn` holds the writes of a turn and sends them
together at its end: one `send`, the same bytes, in the same order.

A WebSocket upgrade hands the socket's own transport to the WebSocket protocol (whose
frames are written as they come).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class OneWritePerTurn:
    """A transport whose writes within one event-loop turn leave as one write."""

    __slots__ = ("_held", "_loop", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._held is None:
            self._held = [data]
            self._loop.call_soon(self.flush)
        else:
            self._held.append(data)

    def flush(self) -> None:
        """Send what this turn wrote (nothing once the transport is closing)."""
        held, self._held = self._held, None
        if held and not self.transport.is_closing():
            self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def __getattr__(self, name: str) -> Any:  # the rest is the transport's own
        return getattr(self.transport, name)


class HttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol on a `OneWritePerTurn` transport."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(OneWritePerTurn(transport, self.loop))  # type: ignore[arg-type]

    def handle_websocket_upgrade(self) -> None:
        held = self.transport
        if isinstance(held, OneWritePerTurn):
            held.flush()
            self.transport = held.transport
        super().handle_websocket_upgrade()
