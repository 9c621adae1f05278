"""What a viewer of a campaign is shown, typed: the campaign's view and every event.

As for labyrinth sessions (services/labyrinth/shown.py), the JSON comes from the
redaction (views.py) and a model only names the keys a viewer may be shown: extra keys
are an error, and a field the table is not shown (the supplies number, the GM's reason,
an avoidance roll's DC and band) is None for a player or a spectator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import ConfigDict, Discriminator, Tag

from services.campaign.events import EVENTS
from services.dice.shown import RolledDie
from services.labyrinth.shown import TableRole
from services.markers import Identifier, LongInt, Named, Shown, event_type, type_const

Effect = Annotated[
    Literal["hunger", "thirst", "poison", "fear", "exhaustion", "tunnel_vision", "contentment"],
    Named("MazeEffect"),
]
Injury = Annotated[
    Literal["fatal", "grave", "serious", "minor", "superficial", "scratch"], Named("MazeInjury")
]
Band = Annotated[
    Literal[
        "incredible_success",
        "major_success",
        "success",
        "small_success",
        "failure",
        "miserable_failure",
        "catastrophic_failure",
    ],
    Named("MazeBand"),
]
Ability = Annotated[
    Literal["ready", "interaction", "surroundings", "navigation"], Named("MazeAbility")
]
Activity = Annotated[
    Literal["idle", "gather", "farm", "build", "rest", "treat", "maze"], Named("CampaignActivity")
]
Status = Annotated[Literal["alive", "dead"], Named("RunnerStatus")]
Level = Annotated[Literal["plentiful", "adequate", "low", "scarce", "none"], Named("SuppliesLevel")]
Trend = Annotated[Literal["up", "down", "none"], Named("SuppliesTrend")]


class CampaignYields(Shown):
    """Supplies a productive activity brings in, by the band of its check."""

    incredible_success: int
    major_success: int
    success: int
    small_success: int
    failure: int
    miserable_failure: int
    catastrophic_failure: int


class CampaignTreatDC(Shown):
    """The Medicine DC to treat each injury (and to cure Poison)."""

    superficial: int
    minor: int
    serious: int
    grave: int
    fatal: int
    poison: int


class CampaignRulesShown(Shown):
    """The campaign's rules (docs/RULES.md); `supplies_start` is the GM's only."""

    season_downtimes: int
    supplies_max: int
    supplies_start: int | None = None
    max_runners: int
    upkeep_per_runner: int
    inaction_decay: int
    activity_dc: int
    gather: str
    farm: str
    build: str
    treat: str
    yields: CampaignYields
    farmer_bonus: int
    farmer_relief: int
    architect_bonus: int
    architect_shelter: int
    hermit_upkeep: int
    hermit_contentment_after: int
    contentment_after: int
    avoid_threshold: int
    avoid_step: int
    hunger_skill: str
    thirst_skill: str
    exhaustion_skill: str
    fed_at: int
    worsen_every: int
    fatal_deadline: int
    treat_dc: CampaignTreatDC


class CampaignManualCadence(Shown):
    """Downtimes pass only when the GM advances the clock."""

    kind: str


class CampaignIntervalCadence(Shown):
    """A tick every `every_seconds`, passing `downtimes_per_tick` downtimes."""

    kind: str
    every_seconds: int
    downtimes_per_tick: int


class CampaignWeeklyCadence(Shown):
    """A tick on each of `days` at `at` (local time in `timezone`)."""

    kind: str
    days: list[str]
    at: str
    timezone: str
    downtimes_per_tick: int


Cadence = Annotated[
    CampaignManualCadence | CampaignIntervalCadence | CampaignWeeklyCadence,
    Named("CampaignCadence"),
]


class CampaignAbilityDice(Shown):
    """The die of each ability."""

    ready: int
    interaction: int
    surroundings: int
    navigation: int


class CampaignInjuryMark(Shown):
    """An injury on a character sheet."""

    injury: Injury
    treated: bool


class CampaignCharacter(Shown):
    """A runner's sheet (The Maze); `skills` maps each skill to its modifier."""

    name: str
    abilities: CampaignAbilityDice
    skills: dict[str, int]
    traits: list[str]
    buddies: list[str]
    effects: list[Effect]
    injuries: list[CampaignInjuryMark]
    checked_this_run: list[Ability]
    is_pc: bool


class CampaignInjury(Shown):
    """An injury a runner carries: its id, whether treated, how long it has waited."""

    id: str
    injury: Injury
    treated: bool
    untreated_for: int


class CampaignRunner(Shown):
    id: str
    character: CampaignCharacter
    status: Status
    effects: list[Effect]
    injuries: list[CampaignInjury]
    downtimes_since_maze: int
    on_run: str | None
    tokens: int
    died_at: int | None
    cause: str | None


class CampaignChoice(Shown):
    activity: Activity
    target_runner: str | None
    target_injury: str | None
    cure_poison: bool


class CampaignRun(Shown):
    id: str
    session_id: str | None
    runners: list[str]
    started: int
    ended: int | None


class CampaignRunnerAfter(Shown):
    """A runner's campaign fields after an event."""

    runner: str
    effects: list[Effect]
    injuries: list[CampaignInjury]
    status: Status
    downtimes_since_maze: int
    tokens: int
    died_at: int | None
    cause: str | None


class CampaignCheck(Shown):
    """A skill check: faces, total (null when automatic); DC and band (an avoidance
    roll's are the GM's only)."""

    skill: str
    dice: list[int]
    total: int | None
    dc: int | None = None
    band: Band | None = None


class CampaignAvoidanceRoll(Shown):
    effect: Effect
    check: CampaignCheck
    gained: bool


class CampaignDamageRoll(Shown):
    effect: Effect
    dice: list[int]
    total: int
    injury: Injury
    injury_id: str | None


class CampaignWorsened(Shown):
    injury_id: str
    before: Injury
    after: Injury


class CampaignRunnerTick(Shown):
    """What one downtime did to one runner in the clearing, and the runner after it."""

    runner: str
    activity: Activity
    check: CampaignCheck | None
    yielded: int
    target_runner: str | None
    target_injury: str | None
    cure_poison: bool
    treated: bool
    damage: list[CampaignDamageRoll]
    avoidance: list[CampaignAvoidanceRoll]
    effects_gained: list[Effect]
    effects_lost: list[Effect]
    worsened: list[CampaignWorsened]
    tokens_awarded: int
    died: bool
    cause: str | None
    after: CampaignRunnerAfter


class CampaignEvent(Shown):
    """An event of a campaign as one viewer may see it: its version in the campaign and
    its stored type name (`CampaignCreated`, ...)."""

    # GraphQL: the interface `CampaignEvent`; each event type `<Type>Event` implements it.
    graphql_interface: ClassVar[bool] = True
    graphql_suffix: ClassVar[str] = "Event"
    model_config = ConfigDict(json_schema_extra=type_const)

    version: LongInt
    type: str


class CampaignCreated(CampaignEvent):
    """The campaign began: the GM sees the supplies, the table their level."""

    name: str
    rules: CampaignRulesShown
    cadence: Cadence
    supplies: int | None = None
    supplies_level: Level | None = None
    anchor: float
    base: int


class RunnerAdded(CampaignEvent):
    added: CampaignRunner


class RunnerRemoved(CampaignEvent):
    runner: str
    reason: str


class ActivityChosen(CampaignEvent):
    runner: str
    downtime: int
    choice: CampaignChoice


class RunStarted(CampaignEvent):
    run: CampaignRun


class RunEnded(CampaignEvent):
    run_id: str
    downtime: int
    results: list[CampaignRunnerAfter]


class SuppliesAdjusted(CampaignEvent):
    """The GM adjusted the supplies: the GM sees the numbers and the reason, the table
    which way they went and the levels."""

    delta: int | None = None
    before: int | None = None
    after: int | None = None
    reason: str | None = None
    supplies_max: int | None = None
    supplies_trend: Trend | None = None
    supplies_level_before: Level | None = None
    supplies_level_after: Level | None = None


class EffectSet(CampaignEvent):
    runner: str
    effect: Effect
    present: bool


class InjuryRecorded(CampaignEvent):
    runner: str
    injury: CampaignInjury


class CadenceSet(CampaignEvent):
    cadence: Cadence
    anchor: float
    base: int


class DowntimePassed(CampaignEvent):
    """A downtime passed (a tick): the GM sees the supplies' numbers, the table which way
    they went and the levels."""

    index: int
    at: float
    due_at: float | None
    supplies_before: int | None = None
    supplies_after: int | None = None
    supplies_gained: int | None = None
    supplies_eaten: int | None = None
    supplies_decayed: int | None = None
    supplies_max: int | None = None
    supplies_trend: Trend | None = None
    supplies_level_before: Level | None = None
    supplies_level_after: Level | None = None
    runners: list[CampaignRunnerTick]
    season_over: bool


class BuddyLost(CampaignEvent):
    partner: str
    runner_ids: list[str]


class CampaignEnded(CampaignEvent):
    reason: str
    downtime: int


class CampaignDiceRolled(CampaignEvent):
    """A roll at the table. A viewer outside its audience sees only who rolled and
    `hidden: true` (label, audience and roll null)."""

    by: str | None
    visibility: str
    label: str | None = None
    to: list[str] | None = None
    expression: str | None = None
    faces: list[LongInt] | None = None
    total: LongInt | None = None
    dice: list[RolledDie] | None = None
    hidden: bool | None = None


EVENT_MODELS: dict[str, type[CampaignEvent]] = {
    model.__name__: model for model in CampaignEvent.__subclasses__()
}


def shown_event(shown: dict[str, Any]) -> CampaignEvent:
    """The typed form of a redacted campaign event (`{"version", "type", ...}`)."""
    return EVENT_MODELS[shown["type"]].model_validate(shown)


class CampaignStateView(Shown):
    """The campaign as this viewer may see it: the supplies number and the avoidance DC
    are the GM's; `viewer` is a player's runner; `choices` maps runners to their plans."""

    created: bool
    name: str
    rules: CampaignRulesShown
    cadence: Cadence
    anchor: float
    base: int
    downtime: int
    supplies: int | None = None
    avoidance_dc: int | None = None
    viewer: str | None = None
    runners: list[CampaignRunner]
    choices: dict[str, CampaignChoice]
    runs: list[CampaignRun]
    ended: bool
    end_reason: str | None
    last_tick_at: float | None
    supplies_level: Level
    season_over: bool
    next_due_at: float | None


# One of the event models, told apart by `type` (JSON Schema: a `oneOf`; GraphQL: the
# interface they implement).
if TYPE_CHECKING:
    AnyEvent = CampaignEvent
else:
    AnyEvent = Annotated[
        Union[tuple(Annotated[m, Tag(m.__name__)] for m in EVENT_MODELS.values())],  # noqa: UP007
        Discriminator(event_type),
    ]
Events = list[AnyEvent]


class CampaignView(Shown):
    """A campaign's state for the token's viewer, and its version."""

    campaign_id: Identifier
    role: TableRole
    runner: str | None
    version: LongInt
    view: CampaignStateView


class CampaignCommandResult(Shown):
    """The version after a campaign command, its events and the view, as the sender may
    see them (`duplicate`: nothing new was recorded)."""

    version: LongInt
    duplicate: bool
    events: Events
    view: CampaignStateView


class CampaignEventPage(Shown):
    """A viewer's campaign events after a version, and the campaign's version; `next_after`
    is the next page's `after` (null once read through)."""

    version: LongInt
    events: Events
    next_after: LongInt | None


class CampaignTickPage(Shown):
    """A viewer's DowntimePassed events after a version, oldest first; `next_after` is
    the cursor of the next page (null once read through)."""

    version: LongInt
    ticks: Events
    next_after: LongInt | None


def shown_look(looked: dict[str, Any]) -> CampaignView:
    """The typed form of `look`'s answer."""
    return CampaignView(**{**looked, "view": CampaignStateView.model_validate(looked["view"])})


def shown_result(result: dict[str, Any]) -> CampaignCommandResult:
    """The typed form of a campaign command's answer."""
    events = [shown_event(e) for e in result["events"]]
    view = CampaignStateView.model_validate(result["view"])
    return CampaignCommandResult(version=result["version"], duplicate=result["duplicate"],
                                 events=events, view=view)  # fmt: skip


def shown_page(page: dict[str, Any]) -> CampaignEventPage:
    """The typed form of an event page."""
    events = [shown_event(e) for e in page["events"]]
    return CampaignEventPage(version=page["version"], events=events, next_after=page["next_after"])


def shown_ticks(page: dict[str, Any]) -> CampaignTickPage:
    """The typed form of a tick page."""
    ticks = [shown_event(e) for e in page["ticks"]]
    return CampaignTickPage(version=page["version"], ticks=ticks, next_after=page["next_after"])


_missing = {r.name for r in EVENTS.registrations} - set(EVENT_MODELS)
if _missing:
    raise TypeError(f"campaign events without a shown model: {sorted(_missing)}")
