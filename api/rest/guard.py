"""Token-guarded REST endpoints: a refused role token is a 401 with `WWW-Authenticate`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

from api import problems
from api.tables.tokens import InvalidToken

Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(title: str) -> Callable[[Endpoint], Endpoint]:
    """Wrap endpoints so a refused token answers 401 problem+json titled `title`.

    The header follows RFC 6750; the token itself is never echoed.
    """

    def wrap(endpoint: Endpoint) -> Endpoint:
        async def guarded_endpoint(request: Request) -> Response:
            try:
                return await endpoint(request)
            except InvalidToken as exc:
                return problems.problem(
                    401,
                    exc.code,
                    exc.message,
                    title=title,
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                )

        guarded_endpoint.__doc__ = endpoint.__doc__
        return guarded_endpoint

    return wrap
