"""Events: what happened to a campaign (past tense, frozen), with every rolled value.

A tick (`DowntimePassed`) records each runner's rolls AND the runner's resulting fields
(`RunnerAfter`), so `evolve` only copies results: replaying a campaign never re-rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.campaign.cadence import Cadence
from services.campaign.model import Activity, CampaignInjury, Choice, Run, Runner, Status
from services.campaign.rules import CampaignRules
from services.eventtypes import EventRegistry
from services.maze.bands import BandName
from services.maze.effects import Effect
from services.maze.injuries import Injury

# Stored names are a contract (services/eventtypes.py): a class may be renamed, never its name.
EVENTS = EventRegistry("campaign")


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckSummary:
    """One skill check: the faces thrown, the total (None when automatic), DC and band."""

    skill: str
    dice: tuple[int, ...]
    total: int | None
    dc: int
    band: BandName


@dataclass(frozen=True, slots=True, kw_only=True)
class AvoidanceRoll:
    """A roll to keep an effect away (Hunger, Thirst, Exhaustion) and whether it came."""

    effect: Effect
    check: CheckSummary
    gained: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class DamageRoll:
    """A repeat damage roll an effect called for; `injury_id` names the injury it left."""

    effect: Effect
    dice: tuple[int, ...]
    total: int
    injury: Injury
    injury_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Worsened:
    """An untreated injury that got worse."""

    injury_id: str
    before: Injury
    after: Injury


@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerAfter:
    """A runner's campaign fields after an event (copied as they are by `evolve`)."""

    runner: str
    effects: frozenset[Effect]
    injuries: tuple[CampaignInjury, ...]
    status: Status
    downtimes_since_maze: int
    tokens: int
    died_at: int | None = None
    cause: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerTick:
    """What one downtime did to one runner in the clearing, and the runner after it."""

    runner: str
    activity: Activity
    check: CheckSummary | None = None
    yielded: int = 0
    target_runner: str | None = None
    target_injury: str | None = None
    cure_poison: bool = False
    treated: bool = False
    damage: tuple[DamageRoll, ...] = ()
    avoidance: tuple[AvoidanceRoll, ...] = ()
    effects_gained: frozenset[Effect] = frozenset()
    effects_lost: frozenset[Effect] = frozenset()
    worsened: tuple[Worsened, ...] = ()
    tokens_awarded: int = 0
    died: bool = False
    cause: str | None = None
    after: RunnerAfter


@EVENTS.event("CampaignCreated")
@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignCreated:
    name: str
    rules: CampaignRules
    cadence: Cadence
    supplies: int
    anchor: float
    base: int = 0


@EVENTS.event("RunnerAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerAdded:
    runner: Runner


@EVENTS.event("RunnerRemoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class RunnerRemoved:
    runner: str
    reason: str


@EVENTS.event("ActivityChosen")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActivityChosen:
    runner: str
    downtime: int
    choice: Choice


@EVENTS.event("RunStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class RunStarted:
    run: Run


@EVENTS.event("RunEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class RunEnded:
    run: str
    downtime: int
    results: tuple[RunnerAfter, ...]


@EVENTS.event("SuppliesAdjusted")
@dataclass(frozen=True, slots=True, kw_only=True)
class SuppliesAdjusted:
    delta: int
    before: int
    after: int
    reason: str
    # Not in the spec's list: lets a player's view of the event name the level.
    supplies_max: int | None = None


@EVENTS.event("EffectSet")
@dataclass(frozen=True, slots=True, kw_only=True)
class EffectSet:
    runner: str
    effect: Effect
    present: bool


@EVENTS.event("InjuryRecorded")
@dataclass(frozen=True, slots=True, kw_only=True)
class InjuryRecorded:
    runner: str
    injury: CampaignInjury


@EVENTS.event("CadenceSet")
@dataclass(frozen=True, slots=True, kw_only=True)
class CadenceSet:
    cadence: Cadence
    anchor: float
    base: int


@EVENTS.event("DowntimePassed")
@dataclass(frozen=True, slots=True, kw_only=True)
class DowntimePassed:
    index: int
    at: float
    due_at: float | None
    supplies_before: int
    supplies_after: int
    supplies_gained: int
    supplies_eaten: int
    supplies_decayed: int
    runners: tuple[RunnerTick, ...]
    season_over: bool
    # Not in the spec's list: lets a player's view of the tick name the level.
    supplies_max: int | None = None


@EVENTS.event("BuddyLost")
@dataclass(frozen=True, slots=True, kw_only=True)
class BuddyLost:
    """A runner died: these runners (the dead partner among them) lose the Buddy trait."""

    partner: str
    runners: tuple[str, ...]


@EVENTS.event("CampaignEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignEnded:
    reason: str
    downtime: int


@EVENTS.event("CampaignDiceRolled")
@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRolled:
    """A roll at the table (the roll log): who rolled what, every face, who may see it."""

    by: str | None
    label: str | None
    visibility: str
    to: tuple[str, ...]
    expression: str
    faces: tuple[int, ...]
    total: int


Event = (
    CampaignCreated
    | RunnerAdded
    | RunnerRemoved
    | ActivityChosen
    | RunStarted
    | RunEnded
    | SuppliesAdjusted
    | EffectSet
    | InjuryRecorded
    | CadenceSet
    | DowntimePassed
    | BuddyLost
    | CampaignEnded
    | DiceRolled
)

EVENT_TYPES: tuple[type, ...] = Event.__args__
