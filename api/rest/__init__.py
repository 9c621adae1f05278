"""REST endpoints, mounted under /v1: the use-case rows, then the hand-written areas."""

from __future__ import annotations

from starlette.routing import BaseRoute

from api.rest import simulations, usecases
from api.usecases.rows import ROWS

routes: list[BaseRoute] = [
    *usecases.routes(ROWS),
    *simulations.routes,
]
