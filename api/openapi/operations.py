"""Every REST operation the app serves under /v1, declared once for the OpenAPI document."""

from __future__ import annotations

from api.openapi.spec import Operation, Param
from api.openapi.usecases import operations
from api.usecases.rows import ROWS

# The chart is an SVG document, not a row's JSON (api/rest/simulations.py).
CHART = Operation(
    "get", "/v1/simulations/{id}/chart.svg", "getSimulationChart",
    "Escape rate against DC, as SVG", "simulations", None,
    {"type": "string", "description": "An SVG document."}, errors=(401, 404, 409, 429, 503),
    params=(Param("id", "path", {"type": "string", "maxLength": 64}, "The simulation's id."),),
    media_type="image/svg+xml",
    description="409 `chart_not_ready` until the DC sweep has succeeded.",
)  # fmt: skip


def all_operations() -> list[Operation]:
    """Every REST operation, in a stable order."""
    return [
        *operations(ROWS),
        CHART,
    ]
