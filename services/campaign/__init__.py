"""The Maze's downtime clock as an event-sourced aggregate (the-maze.txt: downtimes, supplies).

`decide(state, command, rng) -> events`, `evolve(state, event) -> state`, the tick
(`resolve_downtime`), cadences and scheduling, per-viewer views. Pure: randomness comes
in as a `services.dice.Rng`, time as POSIX seconds.
"""

from services.campaign.cadence import (
    Cadence,
    IntervalCadence,
    ManualCadence,
    WeeklyCadence,
    point_at,
    points_between,
)
from services.campaign.clock import due_at, next_due_at, target_downtime
from services.campaign.codec import (
    CampaignAggregate,
    decode_event,
    decode_state,
    encode_event,
    encode_state,
)
from services.campaign.commands import (
    AddRunner,
    AdjustSupplies,
    AdvanceDowntime,
    ChooseActivity,
    Command,
    CreateCampaign,
    EndCampaign,
    EndRun,
    RecordInjury,
    RemoveRunner,
    RunResult,
    SetCadence,
    SetEffect,
    StartRun,
)
from services.campaign.decide import decide
from services.campaign.errors import CampaignError
from services.campaign.events import EVENT_TYPES, DowntimePassed, Event, RunnerAfter, RunnerTick
from services.campaign.evolve import evolve
from services.campaign.model import Activity, CampaignInjury, Choice, Run, Runner
from services.campaign.rules import CampaignRules, avoidance_dc
from services.campaign.state import CampaignState, initial
from services.campaign.tick import resolve_downtime
from services.campaign.views import GM, SPECTATOR, Viewer, supplies_level, view_event, view_state

__all__ = [
    "EVENT_TYPES",
    "GM",
    "SPECTATOR",
    "Activity",
    "AddRunner",
    "AdjustSupplies",
    "AdvanceDowntime",
    "Cadence",
    "CampaignAggregate",
    "CampaignError",
    "CampaignInjury",
    "CampaignRules",
    "CampaignState",
    "Choice",
    "ChooseActivity",
    "Command",
    "CreateCampaign",
    "DowntimePassed",
    "EndCampaign",
    "EndRun",
    "Event",
    "IntervalCadence",
    "ManualCadence",
    "RecordInjury",
    "RemoveRunner",
    "Run",
    "RunResult",
    "Runner",
    "RunnerAfter",
    "RunnerTick",
    "SetCadence",
    "SetEffect",
    "StartRun",
    "Viewer",
    "WeeklyCadence",
    "avoidance_dc",
    "decide",
    "decode_event",
    "decode_state",
    "due_at",
    "encode_event",
    "encode_state",
    "evolve",
    "initial",
    "next_due_at",
    "point_at",
    "points_between",
    "resolve_downtime",
    "supplies_level",
    "target_downtime",
    "view_event",
    "view_state",
]
