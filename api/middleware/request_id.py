"""Every request gets an id: the client's `X-Request-ID` if it is sane, else a fresh one.

The id is echoed in the response's `X-Request-ID` and set for the logs of the request.
"""

from __future__ import annotations

import itertools
import os
import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from infra.logs import request_id_var

HEADER = "x-request-id"
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class _Ids:
    """Fresh ids: 16 random hex digits drawn once per process, then a counter (32 hex
    digits, like a UUID's; unique across processes, cheaper than a UUID per request)."""

    def __init__(self) -> None:
        self.pid = -1
        self.prefix = ""
        self.counter = itertools.count()

    def next(self) -> str:
        if self.pid != os.getpid():  # a forked process draws its own prefix
            self.pid, self.prefix = os.getpid(), os.urandom(8).hex()
        return f"{self.prefix}{next(self.counter):016x}"


_IDS = _Ids()


def request_id_from(scope: Scope) -> str:
    """The client's id when it is short and plain, else a new random one."""
    for name, value in scope.get("headers", ()):
        if name == HEADER.encode():
            given: str = value.decode("latin-1")
            if _SANE.fullmatch(given):
                return given
            break
    return _IDS.next()


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
