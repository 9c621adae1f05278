"""REST endpoints, mounted under /v1."""

from __future__ import annotations

from starlette.routing import BaseRoute

from api.rest import dice, fair

routes: list[BaseRoute] = [*dice.routes, *fair.routes]
