"""Simulation and tuning use cases for the API: plan, submit, read, chart, cancel.

A simulation is one Celery job for the requested maze plus, for the chart, one small job
per DC of a sweep; the main job's id is the simulation's id. Every job records the tenant
that started it, and a caller only ever sees its own tenant's jobs (anything else is a
404, the same answer as an unknown id).

Limits before work (code `games_limit_exceeded`, 422): at most `MAX_GAMES` games per
simulation, `MAX_CHART_POINTS` DCs of `MAX_CHART_GAMES` games each for the chart, and
budgets in game-turns (games × `max_turns`, what an endless labyrinth really costs):
`SIMULATION_TURN_BUDGET` per simulation with its chart, `TUNING_TURN_BUDGET` per tuning.
Each is also priced in rate-limit tokens before any work. A tuning is a worker job too
(one task playing its configurations in checkpoints), with the same progress, cancel and
tenant scoping; simulations and tunings share the tenant's cap on jobs at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.sessions.access import NotReady, tenant_of
from api.usecases.run import spend_tokens
from services.dice import new_seed
from services.errors import DomainError
from services.labyrinth import DeckCounts, MazeDefinition, PartyMember
from services.sim.chart import escape_rate_svg
from services.sim.policies import get_policy
from services.sim.runner import SimulationSpec
from services.sim.tuner import TuningPlan, configurations, deck_variants
from workers.client import Jobs, key, send_jobs_to, submit, submit_tuning

MAX_GAMES = 1_000_000
# Work is games × the turn cap each may play (an endless labyrinth plays every game to
# its cap): the budgets are in game-turns, the game caps' at the default 500 turns.
DEFAULT_TURNS = 500
SIMULATION_TURN_BUDGET = (MAX_GAMES + 21 * 20_000) * DEFAULT_TURNS  # with a full chart
# Price (rate-limit tokens) per this many game-turns, beyond the request's first token.
SIMULATION_TURNS_PER_TOKEN = SIMULATION_TURN_BUDGET // 99
TUNING_TURNS_PER_TOKEN = 100_000 * DEFAULT_TURNS // 99
MAX_CHART_POINTS = 21
MAX_CHART_GAMES = 20_000
TUNING_BUDGET = 100_000
TUNING_TURN_BUDGET = TUNING_BUDGET * DEFAULT_TURNS
SHARD_GAMES = 50_000
CHART_SPREAD = 4  # the default chart sweeps the maze's DC ± this
MAX_JOBS = 4  # a tenant's simulations queued or running at once, by default


class SimulationError(DomainError):
    """A simulation or tuning request refused before any work."""

    code = "invalid_simulation"


class TooManyJobs(SimulationError):
    """The tenant already has as many simulations queued or running as it may."""

    code = "too_many_jobs"
    http_status = 429
    retry_after = 10


class GamesLimitExceeded(SimulationError):
    """More games than the service runs for one request."""

    code = "games_limit_exceeded"


class SimulationNotFound(SimulationError):
    """No such simulation for this caller's tenant."""

    code = "simulation_not_found"
    http_status = 404


class TuningNotFound(SimulationError):
    """No such tuning for this caller's tenant."""

    code = "tuning_not_found"
    http_status = 404


class ChartNotReady(SimulationError):
    """The chart's sweep has not finished (or did not succeed)."""

    code = "chart_not_ready"
    http_status = 409


class ChartRequest(BaseModel):
    """The escape-rate-by-DC sweep drawn on the chart (default: the maze's DC ± 4)."""

    model_config = ConfigDict(extra="forbid")

    dc_from: int | None = Field(default=None, ge=1, le=60)
    dc_to: int | None = Field(default=None, ge=1, le=60)
    games: int = Field(default=2_000, ge=100, description=f"Per DC, at most {MAX_CHART_GAMES}.")


class MazeAndParty(BaseModel):
    """A maze (preset or definition, optional DC override), a party, a policy, combat."""

    model_config = ConfigDict(extra="forbid")

    preset: str | None = Field(default=None, max_length=64)
    definition: MazeDefinition | None = None
    dc: int | None = Field(default=None, ge=1, le=60)
    party: list[PartyMember] | None = Field(default=None, min_length=1, max_length=8)
    policy: str = Field(default="blind", max_length=32)
    combat: dict[str, Any] = Field(
        default_factory=lambda: {"model": "win_probability", "win": 0.5},
        description='{"model": "win_probability", "win": p, "flee": q} or '
        '{"model": "checks", "hits": h, "wounds": w}.',
    )
    seed: str | None = Field(default=None, min_length=1, max_length=256)
    max_turns: int = Field(default=500, ge=1, le=10_000)

    def spec(self, games: int) -> SimulationSpec:
        """The simulation spec, checked (preset, policy, combat) before any work."""
        if self.preset is not None and self.definition is not None:
            raise SimulationError("give a preset or a definition, not both")
        fields: dict[str, Any] = {
            "definition": self.definition,
            "preset": self.preset,
            "dc": self.dc,
            "policy": self.policy,
            "combat": self.combat,
            "games": games,
            "seed": self.seed or new_seed(),
            "max_turns": self.max_turns,
        }
        if self.party is not None:
            fields["party"] = tuple(self.party)
        spec = SimulationSpec(**fields)
        try:
            get_policy(spec.policy)
            spec.compiled()
        except (ValueError, TypeError) as exc:
            raise SimulationError(str(exc)) from None
        return spec


class SimulationRequest(MazeAndParty):
    """POST /v1/simulations: what to simulate, how many games, and the chart's sweep."""

    games: int = Field(default=10_000, ge=1, description=f"At most {MAX_GAMES}.")
    chart: ChartRequest | None = Field(
        default_factory=ChartRequest, description="null: no chart sweep."
    )


class TuningRequest(MazeAndParty):
    """POST /v1/tunings: a target escape rate or mean turns; the nearest configurations."""

    target: Literal["escape_rate", "mean_turns"]
    value: float = Field(ge=0, le=10_000)
    dc_from: int = Field(default=8, ge=1, le=60)
    dc_to: int = Field(default=20, ge=1, le=60)
    vary_deck: bool = Field(default=False, description="Also move each card kind by ±1.")
    games: int = Field(default=1_000, ge=100, description="Per configuration.")
    best: int = Field(default=5, ge=1, le=20)


async def for_tenant(conn: HTTPConnection, use_case: Callable[..., Any], *args: Any) -> Any:
    """`use_case(jobs, tenant, *args)` for the caller's tenant, off the event loop (REST
    and GraphQL alike)."""
    return await run_in_threadpool(use_case, jobs_of(conn), tenant_of(conn), *args)


async def start_job(
    conn: HTTPConnection, price: int, what: str, use_case: Callable[..., Any], body: BaseModel
) -> dict[str, Any]:
    """Spend the job's price, then start it (`start`, `start_tuning`) within the tenant's
    cap on jobs at once."""
    await spend_tokens(conn, price, what)
    limit = conn.app.state.settings.max_jobs_per_tenant
    started: dict[str, Any] = await for_tenant(conn, use_case, body, limit)
    return started


def jobs_of(conn: HTTPConnection) -> Jobs:
    """The job records on the service's Redis; jobs submitted from here go there too."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the job store is not reachable")
    send_jobs_to(runtime.jobs_url)
    return Jobs(runtime.jobs_client)


def chart_dcs(spec: SimulationSpec, chart: ChartRequest | None) -> list[int]:
    """The DCs of the chart's sweep, within the limits."""
    if chart is None:
        return []
    if chart.games > MAX_CHART_GAMES:
        raise GamesLimitExceeded(f"chart.games is at most {MAX_CHART_GAMES}")
    dc = spec.maze().dc
    low = chart.dc_from if chart.dc_from is not None else max(1, dc - CHART_SPREAD)
    high = chart.dc_to if chart.dc_to is not None else min(60, dc + CHART_SPREAD)
    if low > high:
        raise SimulationError("chart.dc_from must be ≤ chart.dc_to")
    if high - low + 1 > MAX_CHART_POINTS:
        raise GamesLimitExceeded(f"the chart sweeps at most {MAX_CHART_POINTS} DCs")
    return list(range(low, high + 1))


def simulation_turns(body: SimulationRequest) -> int:
    """The game-turns a simulation (and its chart) may play, at most: checked before
    any work, refused past the budget (an endless labyrinth plays every game to its cap)."""
    if body.games > MAX_GAMES:
        raise GamesLimitExceeded(f"games is at most {MAX_GAMES} per simulation")
    chart, points = body.chart, 0
    if chart is not None:
        points = 9  # the default sweep: the maze's DC ± 4
        if chart.dc_from is not None and chart.dc_to is not None:
            points = max(0, chart.dc_to - chart.dc_from + 1)
    games = body.games + points * (chart.games if chart is not None else 0)
    turns = games * body.max_turns
    if turns > SIMULATION_TURN_BUDGET:
        raise GamesLimitExceeded(
            f"{games} games × max_turns {body.max_turns} is {turns} game-turns: at most "
            f"{SIMULATION_TURN_BUDGET} per simulation (lower games or max_turns)"
        )
    return turns


def simulation_price(body: SimulationRequest) -> int:
    """Rate-limit tokens a simulation costs: 1 plus one per 1/99 of the budget."""
    return 1 + min(99, simulation_turns(body) // SIMULATION_TURNS_PER_TOKEN)


def tuning_turns(configurations: int, body: TuningRequest) -> int:
    """The game-turns a tuning of `configurations` may play; refused past its budget."""
    turns = configurations * body.games * body.max_turns
    if turns > TUNING_TURN_BUDGET:
        raise GamesLimitExceeded(
            f"{configurations} configurations × {body.games} games × max_turns "
            f"{body.max_turns} is {turns} game-turns: a tuning plays at most "
            f"{TUNING_TURN_BUDGET} (lower games, the DC range or max_turns)"
        )
    return turns


def tuning_price(body: TuningRequest) -> int:
    """Rate-limit tokens a tuning costs: 1 plus one per 1/99 of its budget, from its
    game-turns (each DC; with `vary_deck` up to 27 decks around it), refused when even
    one deck per DC is past the budget."""
    dcs = max(0, body.dc_to - body.dc_from + 1)
    tuning_turns(dcs, body)
    turns = dcs * (27 if body.vary_deck else 1) * body.games * body.max_turns
    return 1 + min(99, turns // TUNING_TURNS_PER_TOKEN)


def _room_for_a_job(jobs: Jobs, tenant: str, max_jobs: int) -> None:
    """Refuse a job when the tenant already has `max_jobs` simulations and tunings queued
    or running (its fair share of the workers)."""
    running = jobs.active(tenant)
    if running >= max_jobs:
        raise TooManyJobs(
            f"{running} jobs (simulations and tunings) of this tenant are queued or running; "
            f"at most {max_jobs} at once (DAEDALUS_MAX_JOBS_PER_TENANT): wait for one, or "
            "cancel it"
        )


def start(
    jobs: Jobs, tenant: str, body: SimulationRequest, max_jobs: int = MAX_JOBS
) -> dict[str, Any]:
    """Check the request and the tenant's running jobs (at most `max_jobs`: its fair
    share of the workers), then submit the job and the chart's sweep for `tenant`."""
    simulation_turns(body)
    _room_for_a_job(jobs, tenant, max_jobs)
    spec = body.spec(body.games)
    dcs = chart_dcs(spec, body.chart)
    job = submit(jobs, spec, shard_games=SHARD_GAMES, owner=tenant)
    sweep = []
    for dc in dcs:
        assert body.chart is not None
        point = spec.model_copy(
            update={"dc": dc, "games": body.chart.games, "seed": f"{spec.seed}/chart/{dc}"}
        )
        sweep.append([dc, submit(jobs, point, shard_games=SHARD_GAMES, owner=tenant)])
    jobs.r.hset(key(job), "chart", json.dumps(sweep))
    jobs.register(tenant, job)
    return {"job_id": job, "status": "queued", "seed": spec.seed, "games": spec.games}


def _owned(jobs: Jobs, tenant: str, job: str, kind: str = "simulation") -> dict[str, Any]:
    info = jobs.get(job) if len(job) <= 64 else None
    if info is None or info["kind"] != kind or jobs.owner(job) != tenant:
        if kind == "tuning":
            raise TuningNotFound(f"no tuning {job[:64]!r}")
        raise SimulationNotFound(f"no simulation {job[:64]!r}")
    return info


def _sweep(jobs: Jobs, job: str) -> list[tuple[int, str, dict[str, Any] | None]]:
    raw = jobs.r.hget(key(job), "chart")
    pairs = json.loads(raw) if raw else []
    return [(int(dc), str(child), jobs.get(str(child))) for dc, child in pairs]


def _overall(statuses: list[str]) -> str:
    if "failed" in statuses:
        return "failed"
    if "cancelled" in statuses:
        return "cancelled"
    if all(s == "succeeded" for s in statuses):
        return "succeeded"
    if any(s != "queued" for s in statuses):
        return "running"
    return "queued"


def view(jobs: Jobs, tenant: str, job: str) -> dict[str, Any]:
    """Status, progress (the job and its chart sweep) and, once known, the statistics."""
    info = _owned(jobs, tenant, job)
    sweep = _sweep(jobs, job)
    expired: dict[str, Any] = {"status": "failed", "games": 0, "games_done": 0}
    children: list[dict[str, Any]] = [c if c is not None else expired for _, _, c in sweep]
    games = info["games"] + sum(c["games"] for c in children)
    done = info["games_done"] + sum(c["games_done"] for c in children)
    status = _overall([info["status"], *(c["status"] for c in children)])
    result = info["result"]
    return {
        "job_id": job,
        "status": status,
        "progress": done / max(1, games),
        "games": info["games"],
        "games_done": info["games_done"],
        "total_games": games,
        "total_games_done": done,
        "error": info["error"],
        "statistics": None if result is None else result["summary"],
        "chart": {
            "dcs": [dc for dc, _, _ in sweep],
            "ready": bool(sweep) and all(c["status"] == "succeeded" for c in children),
            "url": f"/v1/simulations/{job}/chart.svg",
        },
    }


def chart(jobs: Jobs, tenant: str, job: str) -> str:
    """The SVG of escape rate against DC for the job's party, once the sweep is done."""
    _owned(jobs, tenant, job)
    points = []
    for dc, _, child in _sweep(jobs, job):
        if child is None or child["status"] != "succeeded" or child["result"] is None:
            raise ChartNotReady("the chart's sweep has not finished")
        summary = child["result"]["summary"]
        low, high = summary["escape_ci95"]
        points.append((dc, float(summary["escape_rate"]), float(low), float(high)))
    if not points:
        raise ChartNotReady("this simulation was started without a chart sweep")
    spec = SimulationSpec.model_validate_json(jobs.r.hget(key(job), "spec") or b"{}")
    title = f"{spec.maze().name}: {spec.policy}, {len(spec.party)} runners"
    return escape_rate_svg(points, title)


def cancel(jobs: Jobs, tenant: str, job: str) -> dict[str, Any]:
    """Cancel the job and its sweep (shards stop at their next checkpoint)."""
    _owned(jobs, tenant, job)
    jobs.cancel(job)
    for _, child, _ in _sweep(jobs, job):
        jobs.cancel(child)
    return view(jobs, tenant, job)


def start_tuning(
    jobs: Jobs, tenant: str, body: TuningRequest, max_jobs: int = MAX_JOBS
) -> dict[str, Any]:
    """Check the tuning (target, DC range, game-turns, the tenant's running jobs), then
    queue it as a worker job for `tenant`: its configurations are every DC of the range,
    each with the maze's deck or, with `vary_deck`, every deck around it."""
    if body.target == "escape_rate" and body.value > 1:
        raise SimulationError("an escape-rate target is between 0 and 1")
    if body.dc_from > body.dc_to:
        raise SimulationError("dc_from must be ≤ dc_to")
    _room_for_a_job(jobs, tenant, max_jobs)
    spec = body.spec(body.games)
    decks: list[DeckCounts] | None = None
    base = spec.maze()
    if isinstance(base.deck, DeckCounts):
        decks = deck_variants(base.deck, 1) if body.vary_deck else [base.deck]
    tried = configurations(spec, range(body.dc_from, body.dc_to + 1), decks)
    tuning_turns(len(tried), body)
    plan = TuningPlan(
        target=body.target,
        value=body.value,
        dc_from=body.dc_from,
        dc_to=body.dc_to,
        decks=decks,
        games=body.games,
        best=body.best,
        configurations=len(tried),
        seed=spec.seed,
    )
    whole = spec.model_copy(update={"games": len(tried) * body.games})
    job = submit_tuning(jobs, whole, plan, owner=tenant)
    jobs.register(tenant, job)
    return {
        "job_id": job,
        "status": "queued",
        "seed": spec.seed,
        "configurations": len(tried),
        "games_per_configuration": body.games,
        "games": whole.games,
    }


def view_tuning(jobs: Jobs, tenant: str, job: str) -> dict[str, Any]:
    """Status, progress and, once done, the candidates nearest the target (best first)."""
    info = _owned(jobs, tenant, job, "tuning")
    plan = jobs.plan(job)
    result = info["result"]
    return {
        "job_id": job,
        "status": info["status"],
        "progress": info["progress"],
        "games": info["games"],
        "games_done": info["games_done"],
        "error": info["error"],
        "target": plan["target"],
        "value": plan["value"],
        "games_per_configuration": plan["games"],
        "configurations": plan["configurations"],
        "seed": plan["seed"],
        "candidates": None if result is None else result["candidates"],
    }


def cancel_tuning(jobs: Jobs, tenant: str, job: str) -> dict[str, Any]:
    """Cancel a tuning (it stops at its next checkpoint, within a few thousand games)."""
    _owned(jobs, tenant, job, "tuning")
    jobs.cancel(job)
    return view_tuning(jobs, tenant, job)
