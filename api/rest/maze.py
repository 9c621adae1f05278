"""REST: the The Maze checks under /v1/maze."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
