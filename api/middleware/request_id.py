"""Every request gets an id: the client's `X-Request-ID` if it is sane, else a fresh one.

The id is echoed in the response's `X-Request-ID` and set for the logs of the request.
"""

from __future__ import annotations

import re
import uuid

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from infra.logs import request_id_var

HEADER = "x-request-id"
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


def request_id_from(scope: Scope) -> str:
    """The client's id when it is short and plain, else a new random one."""
    for name, value in scope.get("headers", ()):
        if name == HEADER.encode():
            given: str = value.decode("latin-1")
            if _SANE.fullmatch(given):
                return given
            break
    return uuid.uuid4().hex


class RequestId:
    """Assign the request id, expose it to the logs, and echo it in the response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        token = request_id_var.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["X-Request-ID"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id_var.reset(token)
