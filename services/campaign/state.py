"""The campaign's state: a frozen snapshot that only `evolve` (in evolve.py) ever replaces."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.campaign.cadence import Cadence, ManualCadence
from services.campaign.model import IDLE, Choice, Run, Runner
from services.campaign.rules import DEFAULT_CAMPAIGN_RULES, CampaignRules


@dataclass(frozen=True, slots=True, kw_only=True)
class CampaignState:
    """Everything about one campaign; `downtime` counts the downtimes passed (the next index)."""

    created: bool = False
    name: str = ""
    rules: CampaignRules = DEFAULT_CAMPAIGN_RULES
    cadence: Cadence = field(default_factory=ManualCadence)
    anchor: float = 0.0
    base: int = 0
    downtime: int = 0
    supplies: int = 0
    runners: tuple[Runner, ...] = ()
    choices: tuple[tuple[str, Choice], ...] = ()
    runs: tuple[Run, ...] = ()
    ended: bool = False
    end_reason: str | None = None
    last_tick_at: float | None = None

    def runner(self, runner_id: str) -> Runner | None:
        """A runner by id (None when there is no such runner)."""
        return next((r for r in self.runners if r.id == runner_id), None)

    def run(self, run_id: str) -> Run | None:
        """A run by id (None when there is no such run)."""
        return next((r for r in self.runs if r.id == run_id), None)

    def choice(self, runner_id: str) -> Choice:
        """The runner's choice for the coming downtime (idle unless they chose)."""
        return next((c for r, c in self.choices if r == runner_id), IDLE)

    @property
    def season_over(self) -> bool:
        """Whether every downtime of the season has passed."""
        return self.downtime >= self.rules.season_downtimes

    @property
    def open_runs(self) -> tuple[Run, ...]:
        """Runs still in the maze."""
        return tuple(r for r in self.runs if r.ended is None)

    def alive_count(self) -> int:
        """Living runners (the ones `max_runners` counts)."""
        return sum(1 for r in self.runners if r.alive)


def initial() -> CampaignState:
    """The state of a campaign before its first event (not created)."""
    return CampaignState()
