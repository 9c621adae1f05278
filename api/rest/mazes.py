"""REST: maze definitions — the presets a session accepts, and checking a custom one."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api import mazes
from api.bodies import read_model


async def list_presets(request: Request) -> Response:
    """GET /v1/mazes/presets: every preset name and its full definition."""
    return JSONResponse({"presets": mazes.presets()})


async def validate_definition(request: Request) -> Response:
    """POST /v1/mazes/validate: `{definition}` → `{valid, problems, warnings, definition}`."""
    body = await read_model(request, mazes.ValidateDefinition)
    return JSONResponse(mazes.validate(body.definition))


routes: list[BaseRoute] = [
    Route("/mazes/presets", list_presets, methods=["GET"]),
    Route("/mazes/validate", validate_definition, methods=["POST"]),
]
