"""Commands: what the GM, the players and the clock ask of a campaign (imperatives, frozen)."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.campaign.cadence import AnyCadence, ManualCadence
from services.campaign.model import Activity
from services.campaign.rules import DEFAULT_CAMPAIGN_RULES, CampaignRules
from services.maze.character import Character
from services.maze.effects import Effect
from services.maze.injuries import Injury


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateCampaign:
    """GM: open a campaign; `supplies` defaults to the rules' start, `at` anchors the cadence."""

    name: str
    rules: CampaignRules = DEFAULT_CAMPAIGN_RULES
    cadence: AnyCadence = field(default_factory=ManualCadence)
    supplies: int | None = None
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class AddRunner:
    """GM: a runner joins the clearing with a character sheet."""

    runner: str
    character: Character


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveRunner:
    """GM: a runner leaves the campaign."""

    runner: str
    reason: str = "left"


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseActivity:
    """A runner's plan for downtime `downtime` (the coming one)."""

    runner: str
    downtime: int
    activity: Activity
    target_runner: str | None = None
    target_injury: str | None = None
    cure_poison: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StartRun:
    """GM: these runners leave the clearing for the maze."""

    run: str
    runners: tuple[str, ...]
    session_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RunResult:
    """What one runner brought back from a run."""

    runner: str
    injuries: tuple[Injury, ...] = ()
    effects_gained: frozenset[Effect] = frozenset()
    effects_cleared: frozenset[Effect] = frozenset()
    died: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EndRun:
    """GM: a run is over; its runners return to the clearing (or died in the maze)."""

    run: str
    results: tuple[RunResult, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class AdjustSupplies:
    """GM: add or take supplies; the reason is for the GM's eyes."""

    delta: int
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class SetEffect:
    """GM: give a runner an effect or take it away."""

    runner: str
    effect: Effect
    present: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class RecordInjury:
    """GM: a runner has an (untreated) injury."""

    runner: str
    injury: Injury


@dataclass(frozen=True, slots=True, kw_only=True)
class SetCadence:
    """GM: when downtimes pass from `at` on (the schedule restarts there)."""

    cadence: AnyCadence
    at: float


@dataclass(frozen=True, slots=True, kw_only=True)
class AdvanceDowntime:
    """The clock (or the GM): pass downtime `index` — the tick.

    `scheduled` ticks only pass a downtime the cadence has made due by `at`, judged on
    the state the tick is decided against: a cadence the GM changed a moment earlier
    (to manual, say) stops a catch-up that was computed before it.
    """

    index: int
    at: float
    scheduled: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class EndCampaign:
    """GM: the campaign is over."""

    reason: str = "ended_by_gm"


@dataclass(frozen=True, slots=True, kw_only=True)
class RollDice:
    """A runner's player (`by`; None: the GM) rolls at the table: the campaign's roll log.

    `visibility`: everyone, the GM only, or a whisper to the runners in `to` (the roller
    and the GM always see it).
    """

    by: str | None
    expression: str
    label: str | None = None
    visibility: str = "everyone"
    to: tuple[str, ...] = ()


Command = (
    CreateCampaign
    | AddRunner
    | RemoveRunner
    | ChooseActivity
    | StartRun
    | EndRun
    | AdjustSupplies
    | SetEffect
    | RecordInjury
    | SetCadence
    | AdvanceDowntime
    | EndCampaign
    | RollDice
)
