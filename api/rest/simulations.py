"""REST: a simulation's chart, `GET /v1/simulations/{id}/chart.svg` (an SVG document, not
a use-case row's JSON): escape rate against DC with its 95% band, once the sweep is done.
The other simulation and tuning routes are use-case rows (api/usecases/simulations.py)."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.usecases.run import call_of
from api.usecases.simulations import ChartNotReady, ChartNotRequested, jobs_of, owned, sweep_of
from api.usecases.table import Call
from services.jsoncodec import STORED
from services.sim.chart import escape_rate_svg
from services.sim.runner import SimulationSpec
from workers.client import key

SVG_MEDIA_TYPE = "image/svg+xml"


def chart(call: Call, job: str) -> str:
    """The SVG of escape rate against DC for the job's party, once the sweep is done."""
    jobs = jobs_of(call)
    owned(jobs, call.tenant, job)
    points = []
    for dc, _, child in sweep_of(jobs, job):
        if child is None or child["status"] != "succeeded" or child["result"] is None:
            raise ChartNotReady("the chart's sweep has not finished")
        summary = child["result"]["summary"]
        low, high = summary["escape_ci95"]
        points.append((dc, float(summary["escape_rate"]), float(low), float(high)))
    if not points:
        raise ChartNotRequested(
            "this simulation was started without a chart sweep (`chart`): there is no chart"
        )
    spec = SimulationSpec.model_validate_json(
        jobs.r.hget(key(job), "spec") or b"{}", context=STORED
    )
    title = f"{spec.maze().name}: {spec.policy}, {len(spec.party)} runners"
    return escape_rate_svg(points, title)


async def get_chart(request: Request) -> Response:
    """GET /v1/simulations/{id}/chart.svg: escape rate against DC, with its 95% band."""
    svg = await run_in_threadpool(chart, call_of(request), str(request.path_params["id"])[:64])
    return Response(svg, media_type=SVG_MEDIA_TYPE)


routes: list[BaseRoute] = [Route("/simulations/{id:str}/chart.svg", get_chart, methods=["GET"])]
