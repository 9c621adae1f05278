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
    redirect, a 404) goes through Starlette's whole router, as before. Within the
    segment, a route whose path has another number of parts, or another literal last
    part, is passed over without its expression (`_shape`): it cannot match.
    """

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        super().__init__(list(routes))
        self._segments: dict[str, list[tuple[BaseRoute, int, str | None]]] = {}
        for route in routes:
            if not isinstance(route, Route) or route.path.split("/")[1].startswith("{"):
                raise TypeError(f"{route!r}: a segment-routed path starts with a literal")
            group = self._segments.setdefault(route.path.split("/")[1], [])
            group.append((route, *_shape(route.path)))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self.full_match(scope) if scope["type"] == "http" else None
        if found is None:
            await super().__call__(scope, receive, send)
            return
        route, child_scope = found  # as Router.app does it
        scope["route"] = route
        scope.update(child_scope)
        await route.handle(scope, receive, send)

    def full_match(self, scope: Scope) -> tuple[BaseRoute, Scope] | None:
        """The first route (in order) of the path's first segment that matches the
        request in full, and its child scope; None for Starlette's router to answer."""
        parts = get_route_path(scope).split("/")
        count, last = len(parts), parts[-1]
        for route, parts_of, last_of in self._segments.get(parts[1] if count > 1 else "", ()):
            if (parts_of >= 0 and parts_of != count) or last_of not in (None, last):
                continue  # a path of other parts: its pattern cannot match it
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return route, child_scope
        return None


def _shape(path: str) -> tuple[int, str | None]:
    """What a route's path pattern says of the paths it matches, checked before its
    regular expression: how many `/`-separated parts they have and their last part when
    it is literal; (-1, None) when a parameter may span parts or share one (`{x:path}`,
    `{a}.{b}`), so only the expression can tell."""
    parts = path.split("/")
    for part in parts:
        if "{" in part and (part.count("{") > 1 or part[0] != "{" or part[-1] != "}"):
            return -1, None
        if ":path}" in part:
            return -1, None
    last = parts[-1]
    return len(parts), None if last.startswith("{") else last
