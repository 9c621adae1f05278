"""The campaign's nouns: activities, runners and their injuries, choices, runs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from services.maze.character import Character
from services.maze.effects import Effect
from services.maze.injuries import Injury, needs_treatment

Status = Literal["alive", "dead"]


class Activity(StrEnum):
    """What a runner does with a downtime (`maze` is set by StartRun, never chosen)."""

    IDLE = "idle"
    GATHER = "gather"
    FARM = "farm"
    BUILD = "build"
    REST = "rest"
    TREAT = "treat"
    MAZE = "maze"


# Activities that bring supplies in (and keep the clearing from decaying).
PRODUCTIVE = frozenset({Activity.GATHER, Activity.FARM, Activity.BUILD})
CHOOSABLE = frozenset(Activity) - {Activity.MAZE}


@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignInjury:
    """An injury a runner carries: its id, whether treated, and how long it has waited."""

    id: str
    injury: Injury
    treated: bool = False
    untreated_for: int = 0

    @property
    def waiting(self) -> bool:
        """Whether it still needs treatment (untreated and worse than a Scratch)."""
        return not self.treated and needs_treatment(self.injury)


@dataclass(frozen=True, slots=True, kw_only=True)
class Runner:
    """A contestant in the clearing: the sheet plus what the campaign tracks."""

    id: str
    character: Character
    status: Status = "alive"
    effects: frozenset[Effect] = frozenset()
    injuries: tuple[CampaignInjury, ...] = ()
    downtimes_since_maze: int = 0
    on_run: str | None = None
    tokens: int = 0
    died_at: int | None = None
    cause: str | None = None

    @property
    def alive(self) -> bool:
        """Whether the runner is alive."""
        return self.status == "alive"

    @property
    def in_clearing(self) -> bool:
        """Alive and not away on a run: the runners a downtime acts on."""
        return self.status == "alive" and self.on_run is None

    def injury(self, injury_id: str) -> CampaignInjury | None:
        """One of the runner's injuries by id."""
        return next((i for i in self.injuries if i.id == injury_id), None)

    def has_trait(self, name: str) -> bool:
        """Whether the sheet lists this trait."""
        return name in self.character.traits


@dataclass(frozen=True, slots=True, kw_only=True)
class Choice:
    """A runner's plan for the coming downtime (treat: whom, which injury or the poison)."""

    activity: Activity
    target_runner: str | None = None
    target_injury: str | None = None
    cure_poison: bool = False


IDLE = Choice(activity=Activity.IDLE)


@dataclass(frozen=True, slots=True, kw_only=True)
class Run:
    """Runners away in the maze (optionally linked to a labyrinth session)."""

    id: str
    session_id: str | None = None
    runners: tuple[str, ...]
    started: int
    ended: int | None = None


def next_injury_id(runner: Runner, downtime: int, taken: int = 0) -> str:
    """A fresh id for the runner's next injury in this downtime (deterministic, unique)."""
    prefix = f"i{downtime}-"
    n = sum(1 for i in runner.injuries if i.id.startswith(prefix)) + taken + 1
    return f"{prefix}{n}"
