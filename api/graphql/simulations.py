"""GraphQL: simulation and tuning jobs — start one, read it, follow a simulation's
progress live, cancel it.

The same use cases and tenant scoping as REST (api/simulations.py). The subscription
`simulationProgress` (graphql-transport-ws) yields the job's state whenever its progress
or status changes, and ends once the job (with its chart sweep) is finished. A browser
shows its API key in the connection_init payload (`"api_key": "..."`).
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import AsyncGenerator, Callable
from typing import Annotated, Any, TypeAlias

import strawberry
from pydantic import ValidationError
from strawberry.scalars import JSON

from api import simulations
from api.clients import authenticate_connection
from api.graphql.context import Info, connection_param
from api.graphql.problem import Problem
from api.graphql.sessions.errors import EXPECTED, as_problem

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


@strawberry.enum(description="What a tuning aims at.")
class TuningTarget(enum.Enum):
    ESCAPE_RATE = "escape_rate"
    MEAN_TURNS = "mean_turns"


@strawberry.type(description="A deck given as counts of each card kind.")
class TuningDeck:
    right_path: int
    dead_end: int
    monster: int
    trap: int


@strawberry.type(description="One configuration a tuning tried, and how near the target.")
class TuningCandidate:
    dc: int
    deck: TuningDeck | None = strawberry.field(
        description="The deck tried; null when the labyrinth's deck is not given as counts."
    )
    distance: float = strawberry.field(description="|measured − target|.")
    escape_rate: float
    mean_turns: float
    statistics: JSON = strawberry.field(
        description="Escape rate and its 95% CI, turns, encounters, traps."
    )

    @classmethod
    def from_json(cls, shown: dict[str, Any]) -> TuningCandidate:
        """From one of the use case's candidates."""
        deck = shown["deck"]
        summary = shown["summary"]
        return cls(
            dc=shown["dc"],
            deck=None if deck is None else TuningDeck(**deck),
            distance=shown["distance"],
            escape_rate=summary["escape_rate"],
            mean_turns=summary["turns"]["mean"],
            statistics=summary,
        )


@strawberry.type(description="A tuning job: progress and, when done, the nearest configurations.")
class Tuning:
    job_id: strawberry.ID
    status: str
    progress: float
    games: int = strawberry.field(description="Every configuration's games, in all.")
    games_done: int
    error: str | None
    target: TuningTarget
    value: float
    games_per_configuration: int
    configurations: int
    seed: str
    candidates: list[TuningCandidate] | None = strawberry.field(
        description="Best first, once the status is succeeded."
    )

    @classmethod
    def from_view(cls, shown: dict[str, Any]) -> Tuning:
        """From the use case's view."""
        found = shown["candidates"]
        return cls(
            job_id=strawberry.ID(shown["job_id"]),
            status=shown["status"],
            progress=shown["progress"],
            games=shown["games"],
            games_done=shown["games_done"],
            error=shown["error"],
            target=TuningTarget(shown["target"]),
            value=shown["value"],
            games_per_configuration=shown["games_per_configuration"],
            configurations=shown["configurations"],
            seed=shown["seed"],
            candidates=None if found is None else [TuningCandidate.from_json(c) for c in found],
        )


@strawberry.type(description="A queued tuning job.")
class StartedTuning:
    job_id: strawberry.ID
    status: str
    seed: str
    configurations: int
    games_per_configuration: int
    games: int


TuningPayload: TypeAlias = Annotated[Tuning | Problem, strawberry.union("TuningPayload")]
StartTuningPayload: TypeAlias = Annotated[
    StartedTuning | Problem, strawberry.union("StartTuningPayload")
]
SimulationPayload: TypeAlias = Annotated[
    Simulation | Problem, strawberry.union("SimulationPayload")
]
StartSimulationPayload: TypeAlias = Annotated[
    StartedSimulation | Problem, strawberry.union("StartSimulationPayload")
]


async def _start(
    conn: Any, price: int, what: str, use_case: Callable[..., Any], body: Any
) -> dict[str, Any]:
    started = await simulations.start_job(conn, price, what, use_case, body)
    return started | {"job_id": strawberry.ID(started["job_id"])}


async def _view(conn: Any, job: str) -> Simulation:
    return Simulation.from_view(await simulations.for_tenant(conn, simulations.view, job))


@strawberry.type
class SimulationQuery:
    @strawberry.field(description="A simulation job of the caller's tenant.")
    async def simulation(self, info: Info, id: strawberry.ID) -> SimulationPayload:
        try:
            return await _view(info.context["request"], str(id))
        except EXPECTED as exc:
            return as_problem(exc)

    @strawberry.field(description="A tuning job of the caller's tenant.")
    async def tuning(self, info: Info, id: strawberry.ID) -> TuningPayload:
        try:
            shown = await simulations.for_tenant(
                info.context["request"], simulations.view_tuning, str(id)
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return Tuning.from_view(shown)


def _maze_and_party(
    preset: str | None,
    definition: JSON | None,
    dc: int | None,
    party: JSON | None,
    combat: JSON | None,
    seed: str | None,
) -> dict[str, Any]:
    """The request fields a caller gave (the model's defaults stand for the rest)."""
    given = {
        "preset": preset,
        "definition": definition,
        "dc": dc,
        "party": party,
        "combat": combat,
        "seed": seed,
    }
    return {name: value for name, value in given.items() if value is not None}


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
        raw |= _maze_and_party(preset, definition, dc, party, combat, seed)
        if chart is not strawberry.UNSET:
            raw["chart"] = chart
        try:
            body = simulations.SimulationRequest.model_validate(raw)
            price = simulations.simulation_price(body)
            started = await _start(conn, price, "this simulation", simulations.start, body)
        except (*EXPECTED, ValidationError) as exc:
            return as_problem(exc)
        return StartedSimulation(**started)

    @strawberry.mutation(description="Cancel a simulation job and its chart sweep.")
    async def cancel_simulation(self, info: Info, id: strawberry.ID) -> SimulationPayload:
        try:
            shown = await simulations.for_tenant(
                info.context["request"], simulations.cancel, str(id)
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return Simulation.from_view(shown)

    @strawberry.mutation(
        description="Queue a tuning: every DC from dcFrom to dcTo (and, with varyDeck, "
        "every deck around the labyrinth's) played `games` times; read it with "
        "`tuning(id:)`. At most "
        f"{simulations.TUNING_BUDGET} games in all at the default 500 turns."
    )
    async def start_tuning(
        self,
        info: Info,
        target: TuningTarget,
        value: float,
        preset: str | None = None,
        definition: JSON | None = None,
        dc: int | None = None,
        party: JSON | None = None,
        policy: str = "blind",
        combat: JSON | None = None,
        seed: str | None = None,
        max_turns: int = 500,
        dc_from: int = 8,
        dc_to: int = 20,
        vary_deck: bool = False,
        games: int = 1_000,
        best: int = 5,
    ) -> StartTuningPayload:
        conn = info.context["request"]
        raw: dict[str, Any] = {
            "target": target.value,
            "value": value,
            "policy": policy,
            "max_turns": max_turns,
            "dc_from": dc_from,
            "dc_to": dc_to,
            "vary_deck": vary_deck,
            "games": games,
            "best": best,
        }
        raw |= _maze_and_party(preset, definition, dc, party, combat, seed)
        try:
            body = simulations.TuningRequest.model_validate(raw)
            price = simulations.tuning_price(body)
            started = await _start(conn, price, "this tuning", simulations.start_tuning, body)
        except (*EXPECTED, ValidationError) as exc:
            return as_problem(exc)
        return StartedTuning(**started)

    @strawberry.mutation(description="Cancel a tuning job.")
    async def cancel_tuning(self, info: Info, id: strawberry.ID) -> TuningPayload:
        try:
            shown = await simulations.for_tenant(
                info.context["request"], simulations.cancel_tuning, str(id)
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return Tuning.from_view(shown)


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
