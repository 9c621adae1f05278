"""REST: the Haze checks under /v1/haze."""

from __future__ import annotations

from starlette.routing import BaseRoute

routes: list[BaseRoute] = []
