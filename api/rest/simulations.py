"""REST: simulation jobs and the difficulty tuner, scoped to the caller's tenant.

`POST /v1/simulations` answers 202 with the job id; `GET /v1/simulations/{id}` shows its
status, progress and (when done) statistics; `GET /v1/simulations/{id}/chart.svg` draws
escape rate against DC; `DELETE /v1/simulations/{id}` cancels. `POST /v1/tunings` queues
a tuning the same way (202), `GET /v1/tunings/{id}` shows its progress and, when done,
the configurations nearest the target, `DELETE /v1/tunings/{id}` cancels. See api/simulations.py.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api import simulations
from api.bodies import read_model

SVG_MEDIA_TYPE = "image/svg+xml"


def _job_id(request: Request) -> str:
    job: str = request.path_params["job_id"]
    return job


async def start_simulation(request: Request) -> Response:
    """POST /v1/simulations: check the request, queue the job; 202 with its id."""
    body = await read_model(request, simulations.SimulationRequest)
    price = simulations.simulation_price(body)
    started = await simulations.start_job(
        request, price, "this simulation", simulations.start, body
    )
    location = f"/v1/simulations/{started['job_id']}"
    return JSONResponse(started, status_code=202, headers={"Location": location})


async def get_simulation(request: Request) -> Response:
    """GET /v1/simulations/{id}: status, progress and, when done, the statistics."""
    shown = await simulations.for_tenant(request, simulations.view, _job_id(request))
    return JSONResponse(shown, headers={"Cache-Control": "no-store"})


async def get_chart(request: Request) -> Response:
    """GET /v1/simulations/{id}/chart.svg: escape rate against DC, with its 95% band."""
    svg = await simulations.for_tenant(request, simulations.chart, _job_id(request))
    return Response(svg, media_type=SVG_MEDIA_TYPE)


async def cancel_simulation(request: Request) -> Response:
    """DELETE /v1/simulations/{id}: cancel the job and its chart sweep."""
    shown = await simulations.for_tenant(request, simulations.cancel, _job_id(request))
    return JSONResponse(shown)


async def start_tuning(request: Request) -> Response:
    """POST /v1/tunings: check the request, queue the tuning job; 202 with its id."""
    body = await read_model(request, simulations.TuningRequest)
    price = simulations.tuning_price(body)
    started = await simulations.start_job(
        request, price, "this tuning", simulations.start_tuning, body
    )
    location = f"/v1/tunings/{started['job_id']}"
    return JSONResponse(started, status_code=202, headers={"Location": location})


async def get_tuning(request: Request) -> Response:
    """GET /v1/tunings/{id}: status, progress and, when done, the candidates."""
    shown = await simulations.for_tenant(request, simulations.view_tuning, _job_id(request))
    return JSONResponse(shown, headers={"Cache-Control": "no-store"})


async def cancel_tuning(request: Request) -> Response:
    """DELETE /v1/tunings/{id}: cancel the tuning."""
    shown = await simulations.for_tenant(request, simulations.cancel_tuning, _job_id(request))
    return JSONResponse(shown)


_ID = "{job_id:str}"

routes: list[BaseRoute] = [
    Route("/simulations", start_simulation, methods=["POST"]),
    Route(f"/simulations/{_ID}", get_simulation, methods=["GET"]),
    Route(f"/simulations/{_ID}", cancel_simulation, methods=["DELETE"]),
    Route(f"/simulations/{_ID}/chart.svg", get_chart, methods=["GET"]),
    Route("/tunings", start_tuning, methods=["POST"]),
    Route(f"/tunings/{_ID}", get_tuning, methods=["GET"]),
    Route(f"/tunings/{_ID}", cancel_tuning, methods=["DELETE"]),
]
