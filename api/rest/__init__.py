"""REST endpoints, mounted under /v1: the use-case rows, then the hand-written areas."""

from __future__ import annotations

from collections.abc import Sequence

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, Route, Router
from starlette.types import Receive, Scope, Send

from api.rest import simulations, usecases
from api.usecases.rows import ROWS

routes: list[BaseRoute] = [
    *usecases.routes(ROWS),
    *simulations.routes,
]


class SegmentRouter(Router):
    """A Router that first tries only the routes of the path's first segment (`/sessions/…`).

    Starlette tries a router's routes in order, a regular expression each: a session
    command, the 65th of the API's routes, cost more in matching than in its own
    handler's parsing. Every route here starts with a literal segment, so no other can
    match the path in full; a request none of them matches in full (a 405, a slash
    redirect, a 404) goes through Starlette's whole router, as before.
    """

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        super().__init__(list(routes))
        self._segments: dict[str, list[BaseRoute]] = {}
        for route in routes:
            if not isinstance(route, Route) or route.path.split("/")[1].startswith("{"):
                raise TypeError(f"{route!r}: a segment-routed path starts with a literal")
            self._segments.setdefault(route.path.split("/")[1], []).append(route)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            segment = get_route_path(scope).split("/", 2)[1:2]
            for route in self._segments.get(segment[0] if segment else "", ()):
                match, child_scope = route.matches(scope)
                if match is Match.FULL:  # as Router.app does it
                    scope["route"] = route
                    scope.update(child_scope)
                    await route.handle(scope, receive, send)
                    return
        await super().__call__(scope, receive, send)
