"""The REST router's shortcut (api/rest/__init__.py's SegmentRouter) picks the route
Starlette's own router would: the first, in order, whose pattern matches in full."""

from __future__ import annotations

import re
from typing import Any

from starlette.routing import Match, Route

from api.rest import SegmentRouter, _shape, routes


def _starlettes(scope: dict[str, Any]) -> Route | None:
    for route in routes:
        match, _ = route.matches(scope)
        if match is Match.FULL:
            assert isinstance(route, Route)
            return route
    return None


def _paths(template: str) -> list[str]:
    """Paths a route's template stands for, and near misses of it."""
    filled = re.sub(r"\{[^}]*\}", "a1b2", template)
    parts = filled.split("/")
    return [
        filled,
        filled + "/",
        filled + "/extra",
        "/".join(parts[:-1]) or "/",
        "/".join([*parts[:-1], "other"]),
        "/".join([*parts[:-1], "odds"]),
        filled.replace("a1b2", "x/y", 1),
        filled.replace("a1b2", "", 1),
    ]


def test_the_segment_router_picks_starlettes_route_for_every_path_and_method() -> None:
    router = SegmentRouter(routes)
    checked = found = 0
    templates = [r.path for r in routes if isinstance(r, Route)]
    for template in templates:
        for path in _paths(template):
            for method in ("GET", "POST", "HEAD", "DELETE"):
                scope = {"type": "http", "path": f"/v1{path}", "root_path": "/v1", "method": method}
                expected = _starlettes(scope)
                picked = router.full_match(scope)
                assert (picked[0] if picked else None) is expected, (method, path)
                if picked is not None:
                    assert picked[1] == expected.matches(scope)[1]  # type: ignore[union-attr]
                    found += 1
                checked += 1
    assert checked > 1000 and found > 100


def test_a_route_shape_says_what_only_its_pattern_can_tell_as_unknown() -> None:
    assert _shape("/sessions/{session_id}/commands") == (4, "commands")
    assert _shape("/sessions/{session_id}") == (3, None)
    assert _shape("/files/{rest:path}") == (-1, None)
    assert _shape("/rolls/{id}.json") == (-1, None)
    assert _shape("/pair/{a}{b}") == (-1, None)
