"""GraphQL: follow a simulation's progress live (the other simulation and tuning fields
are use-case rows, api/usecases/simulations.py).

`simulationProgress` (graphql-transport-ws) yields the job's state whenever its progress
or status changes, and ends once the job (with its chart sweep) is finished. A browser
shows its API key in the connection_init payload (`"api_key": "..."`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from starlette.concurrency import run_in_threadpool

from api.clients import authenticate_connection
from api.graphql.context import Info, connection_param
from api.graphql.problem import EXPECTED, as_problem
from api.graphql.usecases import payload
from api.usecases import simulations
from api.usecases.run import call_of

TERMINAL = ("succeeded", "failed", "cancelled")
POLL_SECONDS = 0.25
SimulationPayload: Any = payload(simulations.Simulation)


@strawberry.type
class SimulationSubscription:
    @strawberry.subscription(
        description="The job's state whenever it changes, until it has finished."
    )
    async def simulation_progress(
        self, info: Info, id: strawberry.ID
    ) -> AsyncGenerator[SimulationPayload, None]:
        conn = info.context["request"]
        last: tuple[str, int] | None = None
        ref: simulations.JobRef | None = None
        while True:
            try:
                authenticate_connection(conn, connection_param(info, "api_key"))
                # Refused as the `simulation` query refuses it (not a job id: a Problem).
                ref = ref or simulations.JobRef(id=str(id))
                shown = await run_in_threadpool(simulations.view, ref, call_of(conn))
            except EXPECTED as exc:
                yield as_problem(exc)
                return
            state = (shown.status, shown.total_games_done)
            if state != last:
                last = state
                yield shown
            if shown.status in TERMINAL:
                return
            await asyncio.sleep(POLL_SECONDS)
