"""A response's writes leave the server as one (api/protocol.py), on uvicorn's own protocol."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from uvicorn.config import Config
from uvicorn.server import ServerState

from api.protocol import HttpProtocol, OneWritePerTurn


class Recorded(asyncio.Transport):
    """A transport that keeps what is written to it."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.protocol: Any = None

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50_000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol


def _app() -> Starlette:
    async def hello(request: Any) -> PlainTextResponse:
        return PlainTextResponse("hello, maze")

    return Starlette(routes=[Route("/", hello)])


async def _connected(transport: Recorded) -> HttpProtocol:
    config = Config(app=_app(), log_config=None, access_log=False, lifespan="off")
    config.load()
    protocol = HttpProtocol(
        config=config, server_state=ServerState(), app_state={}, _loop=asyncio.get_running_loop()
    )
    protocol.connection_made(transport)
    return protocol


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_a_response_is_one_write_of_its_head_and_body() -> None:
    async def scenario() -> list[bytes]:
        transport = Recorded()
        protocol = await _connected(transport)
        protocol.data_received(b"GET / HTTP/1.1\r\nhost: example\r\n\r\n")
        await _settle()
        protocol.data_received(b"GET / HTTP/1.1\r\nhost: example\r\n\r\n")  # keep-alive
        await _settle()
        protocol.connection_lost(None)
        return transport.writes

    writes = asyncio.run(scenario())
    assert len(writes) == 2  # one per response, not one for the head and one for the body
    for write in writes:
        assert write.startswith(b"HTTP/1.1 200 OK\r\n")
        assert write.endswith(b"\r\n\r\nhello, maze")


def test_writes_of_one_turn_leave_together_and_close_sends_them_first() -> None:
    async def scenario() -> tuple[list[bytes], list[bytes], bool]:
        transport = Recorded()
        held = OneWritePerTurn(transport, asyncio.get_running_loop())
        held.write(b"a")
        held.write(b"b")
        assert transport.writes == []  # held until the turn ends
        await _settle()
        first = list(transport.writes)
        held.write(b"c")
        held.close()  # before its turn ends: sent, then closed
        second = transport.writes[len(first) :]
        held.write(b"late")  # after the close: dropped, as a closing transport drops it
        await _settle()
        return first, second, transport.writes[-1] == b"c" and held.is_closing()

    first, second, closed_last = asyncio.run(scenario())
    assert first == [b"ab"] and second == [b"c"] and closed_last


def test_a_websocket_upgrade_gets_the_sockets_own_transport() -> None:
    async def scenario() -> tuple[Recorded, Any]:
        transport = Recorded()
        protocol = await _connected(transport)
        protocol.data_received(
            b"GET / HTTP/1.1\r\nhost: example\r\nupgrade: websocket\r\nconnection: upgrade\r\n"
            b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
        )
        await _settle()
        return transport, transport.protocol

    transport, ws = asyncio.run(scenario())
    assert ws is not None and ws.transport is transport
