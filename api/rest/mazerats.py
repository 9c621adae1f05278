"""REST: the Maze Rats checks under /v1/mazerats."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
