"""CampaignRules: every number the downtime text leaves open (docs/RULES.md, campaign clock)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, model_validator

from services.errors import field_error
from services.maze.bands import BandName
from services.maze.injuries import Injury
from services.maze.model import MazeModel
from services.maze.skills import Name

Count = Annotated[int, Field(ge=0, le=1_000_000)]
Small = Annotated[int, Field(ge=0, le=100)]


class Yields(MazeModel):
    """Supplies a productive activity brings in, by the band of its check."""

    incredible_success: Small = 6
    major_success: Small = 4
    success: Small = 3
    small_success: Small = 2
    failure: Small = 0
    miserable_failure: Small = 0
    catastrophic_failure: Small = 0

    def for_band(self, band: BandName) -> int:
        """The yield of a band."""
        value: int = getattr(self, band.value)
        return value


class TreatDC(MazeModel):
    """The Medicine DC to treat each injury (and to cure Poison)."""

    superficial: Small = 4
    minor: Small = 6
    serious: Small = 8
    grave: Small = 10
    fatal: Small = 12
    poison: Small = 8

    def for_injury(self, injury: Injury) -> int:
        """The DC to treat an injury (a Scratch needs no treatment: 0)."""
        if injury is Injury.SCRATCH:
            return 0
        value: int = getattr(self, injury.value)
        return value


class CampaignRules(MazeModel):
    """Table settings of a campaign; the defaults are documented in docs/RULES.md."""

    # 366 days and nights of 12-hour downtimes.
    season_downtimes: Annotated[int, Field(ge=1, le=100_000)] = 732
    supplies_max: Annotated[int, Field(ge=1, le=1_000_000)] = 100
    supplies_start: Count = 50
    max_runners: Annotated[int, Field(ge=1, le=64)] = 16
    upkeep_per_runner: Count = 1
    inaction_decay: Count = 2
    activity_dc: Small = 8
    gather: Name = "Scavenge"
    farm: Name = "Survival"
    build: Name = "Athletics"
    treat: Name = "Medicine"
    yields: Yields = Yields()
    farmer_bonus: Small = 2
    farmer_relief: Small = 1
    architect_bonus: Small = 2
    architect_shelter: Small = 2
    hermit_upkeep: Count = 0
    hermit_contentment_after: Annotated[int, Field(ge=1, le=10_000)] = 4
    contentment_after: Annotated[int, Field(ge=1, le=10_000)] = 6
    avoid_threshold: Count = 60
    avoid_step: Annotated[int, Field(ge=1, le=1_000_000)] = 6
    hunger_skill: Name = "Survival"
    thirst_skill: Name = "Survival"
    exhaustion_skill: Name = "Hardy"
    fed_at: Count = 25
    worsen_every: Annotated[int, Field(ge=1, le=10_000)] = 4
    fatal_deadline: Annotated[int, Field(ge=1, le=10_000)] = 2
    treat_dc: TreatDC = TreatDC()

    @model_validator(mode="after")
    def _within_max(self) -> CampaignRules:
        if self.supplies_start > self.supplies_max:
            raise field_error("supplies_start", "supplies_start cannot exceed supplies_max")
        return self

    def skills(self) -> tuple[str, ...]:
        """Every skill the clock rolls with (each runner needs a die for its ability)."""
        return (
            self.gather,
            self.farm,
            self.build,
            self.treat,
            self.hunger_skill,
            self.thirst_skill,
            self.exhaustion_skill,
        )


def avoidance_dc(rules: CampaignRules, supplies: int) -> int:
    """The DC to avoid Hunger, Thirst or Exhaustion: rises as supplies fall below the threshold."""
    # ceil((threshold - supplies) / step) in integers: exact for any size.
    return max(0, -((supplies - rules.avoid_threshold) // rules.avoid_step))


DEFAULT_CAMPAIGN_RULES = CampaignRules()
