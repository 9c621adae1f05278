"""Simulation and tuning jobs, scoped to the caller's tenant: start, read, cancel.

A simulation is one Celery job for the requested labyrinth plus, for the chart, one small
job per DC of a sweep; the main job's id is the simulation's id. A tuning is one job
playing its configurations in checkpoints. Every job records the tenant that started it,
and a caller only ever sees its own tenant's jobs (anything else is a 404, the same answer
as an unknown id). Simulations and tunings share the tenant's cap on jobs at once.

Limits before work (code `games_limit_exceeded`, 422): at most `MAX_GAMES` games per
simulation, `MAX_CHART_POINTS` DCs of `MAX_CHART_GAMES` games each for the chart, and
budgets in game-turns (games × `max_turns`, what an endless labyrinth really costs):
`SIMULATION_TURN_BUDGET` per simulation with its chart, `TUNING_TURN_BUDGET` per tuning.
Each is also priced in rate-limit tokens before any work (the rows' `price`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import Field

from api.models import Frozen
from api.tables.access import NotReady
from api.usecases.markers import FREE_FORM, Identifier, Named
from api.usecases.table import Call, Result, UseCase, no_store
from services.dice import new_seed
from services.errors import DomainError
from services.labyrinth import DeckCounts, MazeDefinition, PartyMember
from services.sim.runner import DEFAULT_PRESET, SimulationSpec
from services.sim.stats import SimulationStatistics
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
CHART_SPREAD = 4  # the default chart sweeps the labyrinth's DC ± this

JobStatus = Annotated[
    Literal["queued", "running", "succeeded", "failed", "cancelled"], Named("JobStatus")
]
# The registered policies (services/sim/policies.py; a unit test keeps the two equal).
Policy = Annotated[Literal["blind", "greedy"], Named("SimulationPolicy")]


class SimulationError(DomainError):
    """A simulation or tuning request refused before any work."""

    code = "invalid_simulation"


class TooManyJobs(SimulationError):
    """The tenant already has as many jobs queued or running as it may."""

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


class ChartNotRequested(SimulationError):
    """The simulation was started without a chart sweep: there is none to wait for."""

    code = "chart_not_requested"
    http_status = 404


# ---- requests --------------------------------------------------------------------------


class JobRef(Frozen):
    """One job of the caller's tenant."""

    id: Identifier = Field(description="The job's id.")


class Runner(PartyMember):
    """A party member the simulator plays: a stable id, a name and a check profile."""


class ChartRequest(Frozen):
    """The escape-rate-by-DC sweep drawn on the chart (default: the labyrinth's DC ± 4)."""

    dc_from: int | None = Field(default=None, ge=1, le=60)
    dc_to: int | None = Field(default=None, ge=1, le=60)
    games: int = Field(default=2_000, ge=100, description=f"Per DC, at most {MAX_CHART_GAMES}.")


class Combat(Frozen):
    """How a fight with the monster ends: `win_probability` (the party defeats it with
    `win`, flees with `flee`, else is defeated) or `checks` (members attack in turn with
    their STR expression against the DC: `hits` successes win, `wounds` failures lose)."""

    model: Annotated[Literal["win_probability", "checks"], Named("CombatModel")] = "win_probability"
    win: float | None = Field(default=None, ge=0, le=1, description="Default 0.5.")
    flee: float | None = Field(default=None, ge=0, le=1, description="Default 0.")
    hits: int | None = Field(default=None, ge=1, le=50, description="Default 3.")
    wounds: int | None = Field(default=None, ge=1, le=50, description="Default 3.")


class LabyrinthAndParty(Frozen):
    """A labyrinth (preset or definition, optional DC override), a party, a policy, combat."""

    preset: str | None = Field(
        default=None,
        max_length=64,
        description=f"A preset's name; with neither it nor `definition`, {DEFAULT_PRESET}.",
    )
    definition: Annotated[MazeDefinition | None, FREE_FORM] = Field(
        default=None, description="A labyrinth definition (a content pack)."
    )
    dc: int | None = Field(default=None, ge=1, le=60)
    party: list[Runner] | None = Field(default=None, min_length=1, max_length=8)
    policy: Policy = "blind"
    combat: Combat = Field(default_factory=lambda: Combat(win=0.5))
    seed: str | None = Field(default=None, min_length=1, max_length=256)
    max_turns: int = Field(default=DEFAULT_TURNS, ge=1, le=10_000)

    def spec(self, games: int) -> SimulationSpec:
        """The simulation spec, checked (preset, combat) before any work."""
        if self.preset is not None and self.definition is not None:
            raise SimulationError("give a preset or a definition, not both")
        fields: dict[str, Any] = {
            "definition": self.definition,
            "preset": self.preset,
            "dc": self.dc,
            "policy": self.policy,
            "combat": self.combat.model_dump(exclude_none=True),
            "games": games,
            "seed": self.seed or new_seed(),
            "max_turns": self.max_turns,
        }
        if self.party is not None:
            fields["party"] = tuple(self.party)
        spec = SimulationSpec(**fields)
        try:
            spec.compiled()
        except (ValueError, TypeError) as exc:
            raise SimulationError(str(exc)) from None
        return spec


class SimulationRequest(LabyrinthAndParty):
    """What to simulate, how many games, and the chart's sweep."""

    games: int = Field(default=10_000, ge=1, description=f"At most {MAX_GAMES}.")
    chart: ChartRequest | None = Field(
        default_factory=ChartRequest, description="null: no chart sweep."
    )


class TuningRequest(LabyrinthAndParty):
    """A target escape rate or mean turns; the configurations nearest it."""

    target: Annotated[Literal["escape_rate", "mean_turns"], Named("TuningTarget")]
    value: float = Field(ge=0, le=10_000)
    dc_from: int = Field(default=8, ge=1, le=60)
    dc_to: int = Field(default=20, ge=1, le=60)
    vary_deck: bool = Field(default=False, description="Also move each card kind by ±1.")
    games: int = Field(default=1_000, ge=100, description="Per configuration.")
    best: int = Field(default=5, ge=1, le=20)


# ---- results ---------------------------------------------------------------------------


class StartedSimulation(Result):
    """A queued simulation job."""

    job_id: Identifier
    status: JobStatus
    seed: str
    games: int


class StartedTuning(Result):
    """A queued tuning job."""

    job_id: Identifier
    status: JobStatus
    seed: str
    configurations: int
    games_per_configuration: int
    games: int


class SimulationChart(Result):
    """The chart's DC sweep: drawn at `url` (SVG) once `ready`."""

    dcs: list[int]
    ready: bool
    url: str


class Simulation(Result):
    """A simulation job: status, progress (with the chart's sweep) and, when done, its
    statistics."""

    job_id: Identifier
    status: JobStatus
    progress: float
    games: int
    games_done: int
    total_games: int = Field(description="With the chart's DC sweep.")
    total_games_done: int
    error: str | None
    statistics: SimulationStatistics | None
    chart: SimulationChart | None = Field(
        description="The chart's sweep; null for a simulation started without one."
    )


class TuningDeck(Result):
    """A deck given as counts of each card kind."""

    right_path: int
    dead_end: int
    monster: int
    trap: int


class TuningCandidate(Result):
    """One configuration a tuning tried, and how near the target (|measured − target|)."""

    dc: int
    deck: TuningDeck | None = Field(
        description="The deck tried; null when the labyrinth's deck is not given as counts."
    )
    distance: float
    statistics: SimulationStatistics


class Tuning(Result):
    """A tuning job: progress and, once succeeded, the configurations nearest the target,
    best first."""

    job_id: Identifier
    status: JobStatus
    progress: float
    games: int = Field(description="Every configuration's games, in all.")
    games_done: int
    error: str | None
    target: Annotated[Literal["escape_rate", "mean_turns"], Named("TuningTarget")]
    value: float
    games_per_configuration: int
    configurations: int
    seed: str
    candidates: list[TuningCandidate] | None


# ---- limits and prices -----------------------------------------------------------------


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
        points = 9  # the default sweep: the labyrinth's DC ± 4
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


# ---- use cases -------------------------------------------------------------------------


def jobs_of(call: Call) -> Jobs:
    """The job records on the service's Redis; jobs submitted from here go there too."""
    if call.runtime is None:
        raise NotReady("the job store is not reachable")
    send_jobs_to(call.runtime.jobs_url)
    return Jobs(call.runtime.jobs_client)


def _room_for_a_job(jobs: Jobs, call: Call) -> None:
    """Refuse a job when the tenant already has its cap of simulations and tunings queued
    or running (its fair share of the workers)."""
    running, cap = jobs.active(call.tenant), call.settings.max_jobs_per_tenant
    if running >= cap:
        raise TooManyJobs(
            f"{running} jobs (simulations and tunings) of this tenant are queued or running; "
            f"at most {cap} at once (DAEDALUS_MAX_JOBS_PER_TENANT): wait for one, or cancel it"
        )


def start(body: SimulationRequest, call: Call) -> StartedSimulation:
    """Check the request and the tenant's running jobs, then submit the job and the
    chart's sweep for the caller's tenant."""
    simulation_turns(body)
    jobs = jobs_of(call)
    _room_for_a_job(jobs, call)
    spec = body.spec(body.games)
    dcs = chart_dcs(spec, body.chart)
    job = submit(jobs, spec, shard_games=SHARD_GAMES, owner=call.tenant)
    sweep = []
    for dc in dcs:
        assert body.chart is not None
        point = spec.model_copy(
            update={"dc": dc, "games": body.chart.games, "seed": f"{spec.seed}/chart/{dc}"}
        )
        sweep.append([dc, submit(jobs, point, shard_games=SHARD_GAMES, owner=call.tenant)])
    jobs.r.hset(key(job), "chart", json.dumps(sweep))
    jobs.register(call.tenant, job)
    return StartedSimulation(job_id=job, status="queued", seed=spec.seed, games=spec.games)


def owned(jobs: Jobs, tenant: str, job: str, kind: str = "simulation") -> dict[str, Any]:
    """The job's record when it is the tenant's job of this kind; else not found."""
    info = jobs.get(job)
    if info is None or info["kind"] != kind or jobs.owner(job) != tenant:
        if kind == "tuning":
            raise TuningNotFound(f"no tuning {job!r}")
        raise SimulationNotFound(f"no simulation {job!r}")
    return info


def sweep_of(jobs: Jobs, job: str) -> list[tuple[int, str, dict[str, Any] | None]]:
    """The chart's (DC, job id, record) of a simulation."""
    raw = jobs.r.hget(key(job), "chart")
    pairs = json.loads(raw) if raw else []
    return [(int(dc), str(child), jobs.get(str(child))) for dc, child in pairs]


def _overall(statuses: list[str]) -> Any:
    if "failed" in statuses:
        return "failed"
    if "cancelled" in statuses:
        return "cancelled"
    if all(s == "succeeded" for s in statuses):
        return "succeeded"
    if any(s != "queued" for s in statuses):
        return "running"
    return "queued"


def _view(jobs: Jobs, tenant: str, job: str) -> Simulation:
    info = owned(jobs, tenant, job)
    sweep = sweep_of(jobs, job)
    expired: dict[str, Any] = {"status": "failed", "games": 0, "games_done": 0}
    children: list[dict[str, Any]] = [c if c is not None else expired for _, _, c in sweep]
    games = info["games"] + sum(c["games"] for c in children)
    done = info["games_done"] + sum(c["games_done"] for c in children)
    result = info["result"]
    return Simulation(
        job_id=job,
        status=_overall([info["status"], *(c["status"] for c in children)]),
        progress=done / max(1, games),
        games=info["games"],
        games_done=info["games_done"],
        total_games=games,
        total_games_done=done,
        error=info["error"],
        statistics=None if result is None else SimulationStatistics.of(result["summary"]),
        chart=None
        if not sweep
        else SimulationChart(
            dcs=[dc for dc, _, _ in sweep],
            ready=all(c["status"] == "succeeded" for c in children),
            url=f"/v1/simulations/{job}/chart.svg",
        ),
    )


def view(ref: JobRef, call: Call) -> Simulation:
    """Status, progress (the job and its chart sweep) and, once known, the statistics."""
    return _view(jobs_of(call), call.tenant, ref.id)


def cancel(ref: JobRef, call: Call) -> Simulation:
    """Cancel the job and its sweep (shards stop at their next checkpoint)."""
    jobs = jobs_of(call)
    owned(jobs, call.tenant, ref.id)
    jobs.cancel(ref.id)
    for _, child, _ in sweep_of(jobs, ref.id):
        jobs.cancel(child)
    return _view(jobs, call.tenant, ref.id)


def start_tuning(body: TuningRequest, call: Call) -> StartedTuning:
    """Check the tuning (target, DC range, game-turns, the tenant's running jobs), then
    queue it as a worker job: its configurations are every DC of the range, each with the
    labyrinth's deck or, with `vary_deck`, every deck around it."""
    if body.target == "escape_rate" and body.value > 1:
        raise SimulationError("an escape-rate target is between 0 and 1")
    if body.dc_from > body.dc_to:
        raise SimulationError("dc_from must be ≤ dc_to")
    jobs = jobs_of(call)
    _room_for_a_job(jobs, call)
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
    job = submit_tuning(jobs, whole, plan, owner=call.tenant)
    jobs.register(call.tenant, job)
    return StartedTuning(
        job_id=job,
        status="queued",
        seed=spec.seed,
        configurations=len(tried),
        games_per_configuration=body.games,
        games=whole.games,
    )


def _candidate(found: dict[str, Any]) -> TuningCandidate:
    deck = found["deck"]
    return TuningCandidate(
        dc=found["dc"],
        deck=None if deck is None else TuningDeck(**deck),
        distance=found["distance"],
        statistics=SimulationStatistics.of(found["summary"]),
    )


def _tuning(jobs: Jobs, tenant: str, job: str) -> Tuning:
    info = owned(jobs, tenant, job, "tuning")
    plan = jobs.plan(job)
    result = info["result"]
    return Tuning(
        job_id=job,
        status=info["status"],
        progress=info["progress"],
        games=info["games"],
        games_done=info["games_done"],
        error=info["error"],
        target=plan["target"],
        value=plan["value"],
        games_per_configuration=plan["games"],
        configurations=plan["configurations"],
        seed=plan["seed"],
        candidates=None if result is None else [_candidate(c) for c in result["candidates"]],
    )


def view_tuning(ref: JobRef, call: Call) -> Tuning:
    """Status, progress and, once done, the candidates nearest the target (best first)."""
    return _tuning(jobs_of(call), call.tenant, ref.id)


def cancel_tuning(ref: JobRef, call: Call) -> Tuning:
    """Cancel a tuning (it stops at its next checkpoint, within a few thousand games)."""
    jobs = jobs_of(call)
    owned(jobs, call.tenant, ref.id, "tuning")
    jobs.cancel(ref.id)
    return _tuning(jobs, call.tenant, ref.id)


def _located(kind: str) -> Any:
    def headers(started: Any) -> dict[str, str]:
        return {"Location": f"/v1/{kind}/{started.job_id}"}

    return headers


_JOB = "/simulations/{id}"
_TUNING = "/tunings/{id}"
_STARTS = (401, 413, 422, 429, 503)
_READS = (401, 404, 422, 429, 503)
_CAP = (
    "A tenant has at most `DAEDALUS_MAX_JOBS_PER_TENANT` (4) simulations and tunings "
    "queued or running at once (429 `too_many_jobs`, with Retry-After)."
)

ROWS: tuple[UseCase, ...] = (
    UseCase("startSimulation", "POST", "/simulations", "mutation", "start_simulation",
            SimulationRequest, StartedSimulation, start, "Start a simulation job",
            "simulations", status=202, errors=_STARTS, cpu=True, price=simulation_price,
            headers=_located("simulations"),
            description=f"At most {MAX_GAMES} games (`games_limit_exceeded`); the chart's "
            "DC sweep (`chart`, null for none; omitted: the labyrinth's DC ± 4) runs as "
            f"small jobs of its own. {_CAP}"),
    UseCase("getSimulation", "GET", _JOB, "query", "simulation", JobRef, Simulation, view,
            "A simulation's status, progress and statistics", "simulations", errors=_READS,
            cpu=True, headers=no_store, description="404 `simulation_not_found` for an "
            "unknown id or another tenant's."),
    UseCase("cancelSimulation", "DELETE", _JOB, "mutation", "cancel_simulation", JobRef,
            Simulation, cancel, "Cancel a simulation and its chart sweep", "simulations",
            errors=_READS, cpu=True),
    UseCase("startTuning", "POST", "/tunings", "mutation", "start_tuning", TuningRequest,
            StartedTuning, start_tuning,
            "Start a tuning: find configurations near a target difficulty", "simulations",
            status=202, errors=_STARTS, cpu=True, price=tuning_price,
            headers=_located("tunings"),
            description="Every DC from `dc_from` to `dc_to` (with `vary_deck`, every deck "
            "around the labyrinth's) played `games` times, as one worker job: at most "
            f"{TUNING_BUDGET} games at the default 500 turns, in game-turns "
            f"(`games_limit_exceeded`). {_CAP}"),
    UseCase("getTuning", "GET", _TUNING, "query", "tuning", JobRef, Tuning, view_tuning,
            "A tuning's status, progress and, when done, the nearest configurations",
            "simulations", errors=_READS, cpu=True, headers=no_store,
            description="`candidates` (best first) once `status` is `succeeded`; 404 "
            "`tuning_not_found` for an unknown id or another tenant's."),
    UseCase("cancelTuning", "DELETE", _TUNING, "mutation", "cancel_tuning", JobRef, Tuning,
            cancel_tuning, "Cancel a tuning", "simulations", errors=_READS, cpu=True),
)  # fmt: skip
