"""GraphQL: simulation jobs — start one, read it, follow its progress live, cancel it.

The same use cases and tenant scoping as REST (api/simulations.py). The subscription
`simulationProgress` (graphql-transport-ws) yields the job's state whenever its progress
or status changes, and ends once the job (with its chart sweep) is finished. A browser
shows its API key in the connection_init payload (`"api_key": "..."`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Annotated, Any, TypeAlias

import strawberry
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from api import simulations
from api.clients import authenticate_connection
from api.graphql.context import Info, connection_param
from api.graphql.problem import Problem
from api.graphql.sessions.errors import EXPECTED, as_problem
from api.sessions.access import tenant_of
from api.usecases.run import spend_tokens

TERMINAL = ("succeeded", "failed", "cancelled")
POLL_SECONDS = 0.25


@strawberry.type(description="A simulation job: status, progress and, when done, statistics.")
class Simulation:
    job_id: strawberry.ID
    status: str
    progress: float
    games: int
    games_done: int
    total_games: int = strawberry.field(description="With the chart's DC sweep.")
    total_games_done: int
    error: str | None
    statistics: JSON | None = strawberry.field(
        description="Escape rate and its 95% CI, turns, encounters, traps (when done)."
    )
    chart_dcs: list[int]
    chart_ready: bool
    chart_url: str

    @classmethod
    def from_view(cls, shown: dict[str, Any]) -> Simulation:
        """From the use case's view."""
        chart = shown["chart"]
        return cls(
            job_id=strawberry.ID(shown["job_id"]),
            status=shown["status"],
            progress=shown["progress"],
            games=shown["games"],
            games_done=shown["games_done"],
            total_games=shown["total_games"],
            total_games_done=shown["total_games_done"],
            error=shown["error"],
            statistics=shown["statistics"],
            chart_dcs=chart["dcs"],
            chart_ready=chart["ready"],
            chart_url=chart["url"],
        )


@strawberry.type(description="A queued simulation job.")
class StartedSimulation:
    job_id: strawberry.ID
    status: str
    seed: str
    games: int


SimulationPayload: TypeAlias = Annotated[
    Simulation | Problem, strawberry.union("SimulationPayload")
]
StartSimulationPayload: TypeAlias = Annotated[
    StartedSimulation | Problem, strawberry.union("StartSimulationPayload")
]


async def _view(conn: Any, job: str) -> Simulation:
    jobs = simulations.jobs_of(conn)
    shown = await run_in_threadpool(simulations.view, jobs, tenant_of(conn), job)
    return Simulation.from_view(shown)


@strawberry.type
class SimulationQuery:
    @strawberry.field(description="A simulation job of the caller's tenant.")
    async def simulation(self, info: Info, id: strawberry.ID) -> SimulationPayload:
        try:
            return await _view(info.context["request"], str(id))
        except EXPECTED as exc:
            return as_problem(exc)


@strawberry.type
class SimulationMutation:
    @strawberry.mutation(
        description="Queue a simulation (a preset or a definition, a party, a policy, a "
        f"combat model; at most {simulations.MAX_GAMES} games). `chart`: the DC sweep "
        "({dc_from, dc_to, games}), null for none; omitted: the maze's DC ± 4."
    )
    async def start_simulation(
        self,
        info: Info,
        preset: str | None = None,
        definition: JSON | None = None,
        dc: int | None = None,
        party: JSON | None = None,
        policy: str = "blind",
        combat: JSON | None = None,
        games: int = 10_000,
        seed: str | None = None,
        max_turns: int = 500,
        chart: JSON | None = strawberry.UNSET,
    ) -> StartSimulationPayload:
        conn = info.context["request"]
        raw: dict[str, Any] = {"policy": policy, "games": games, "max_turns": max_turns}
        for name, value in (
            ("preset", preset),
            ("definition", definition),
            ("dc", dc),
            ("party", party),
            ("combat", combat),
            ("seed", seed),
        ):
            if value is not None:
                raw[name] = value
        if chart is not strawberry.UNSET:
            raw["chart"] = chart
        try:
            body = simulations.SimulationRequest.model_validate(raw)
            await spend_tokens(conn, simulations.simulation_price(body), "this simulation")
            jobs = simulations.jobs_of(conn)
            limit = conn.app.state.settings.max_jobs_per_tenant
            started = await run_in_threadpool(simulations.start, jobs, tenant_of(conn), body, limit)
        except (*EXPECTED, ValidationError) as exc:
            return as_problem(exc)
        return StartedSimulation(
            job_id=strawberry.ID(started["job_id"]),
            status=started["status"],
            seed=started["seed"],
            games=started["games"],
        )

    @strawberry.mutation(description="Cancel a simulation job and its chart sweep.")
    async def cancel_simulation(self, info: Info, id: strawberry.ID) -> SimulationPayload:
        conn = info.context["request"]
        try:
            jobs = simulations.jobs_of(conn)
            shown = await run_in_threadpool(simulations.cancel, jobs, tenant_of(conn), str(id))
        except EXPECTED as exc:
            return as_problem(exc)
        return Simulation.from_view(shown)


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
        while True:
            try:
                authenticate_connection(conn, connection_param(info, "api_key"))
                shown = await _view(conn, str(id))
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
