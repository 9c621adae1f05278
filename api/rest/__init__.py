"""REST endpoints, mounted under /v1."""

from __future__ import annotations

from starlette.routing import BaseRoute

from api.rest import (
    campaigns,
    dice,
    fair,
    haze,
    maze,
    mazerats,
    mazes,
    sessions,
    simulations,
    tables,
)

routes: list[BaseRoute] = [
    *dice.routes,
    *fair.routes,
    *maze.routes,
    *mazerats.routes,
    *haze.routes,
    *sessions.routes,
    *campaigns.routes,
    *mazes.routes,
    *simulations.routes,
    *tables.routes,
]
