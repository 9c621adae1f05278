"""Request bodies are bounded for every route (GraphQL included), not only REST's readers.

A declared Content-Length past the limit is refused before the app runs; a body that
grows past it while streaming raises PayloadTooLarge from `receive`, which the app's
exception handler turns into the same 413 problem.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import problems
from api.problems import PayloadTooLarge


class BodyLimit:
    """Refuse request bodies larger than `limit` bytes with 413 `payload_too_large`."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                response = problems.problem(
                    413, "payload_too_large", f"request body exceeds {self.limit} bytes"
                )
                await response(scope, receive, send)
                return
        received = 0

        async def bounded() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise PayloadTooLarge(self.limit)
            return message

        await self.app(scope, bounded, send)
