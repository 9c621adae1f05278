"""REST endpoints, mounted under /v1: the use-case rows, then the hand-written areas."""

from __future__ import annotations

from collections.abc import Sequence

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Route, Router
from starlette.types import Receive, Scope, Send

from api.rest import simulations, usecases
from api.usecases.rows import ROWS

routes: list[BaseRoute] = [
    *usecases.routes(ROWS),
    *simulations.routes,
]


class SegmentRouter(Router):
    """A Router that tries only the routes of the path's first segment (`/sessions/…`).

    Starlette tries a router's routes in order, a regular expression each: a session
    command, the 65th of the API's routes, cost more in matching than in its own
    handler's parsing. Every route here starts with a literal segment, so the others can
    never match; within a segment the order, 405s and slash redirects are Starlette's.
    """

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        super().__init__(list(routes))
        buckets: dict[str, list[BaseRoute]] = {}
        for route in routes:
            if not isinstance(route, Route) or route.path.split("/")[1].startswith("{"):
                raise TypeError(f"{route!r}: a segment-routed path starts with a literal")
            buckets.setdefault(route.path.split("/")[1], []).append(route)
        self._segments = {segment: Router(found) for segment, found in buckets.items()}
        self._nowhere = Router([])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        segment = get_route_path(scope).split("/")[1:2]
        router = self._segments.get(segment[0] if segment else "", self._nowhere)
        await router(scope, receive, send)
