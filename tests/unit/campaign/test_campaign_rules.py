"""CampaignRules: the defaults the text leaves open, and the ranges they must keep."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.campaign.errors import CampaignError, enum_of
from services.campaign.rules import CampaignRules
from services.maze.bands import BandName
from services.maze.effects import Effect
from services.maze.injuries import Injury


def test_the_defaults_are_the_documented_ones() -> None:
    r = CampaignRules()
    assert (r.season_downtimes, r.supplies_max, r.supplies_start, r.max_runners) == (
        732,
        100,
        50,
        16,
    )
    assert (r.upkeep_per_runner, r.inaction_decay, r.activity_dc) == (1, 2, 8)
    assert (r.gather, r.farm, r.build, r.treat) == ("Scavenge", "Survival", "Athletics", "Medicine")
    assert (r.contentment_after, r.hermit_contentment_after, r.hermit_upkeep) == (6, 4, 0)
    assert (r.avoid_threshold, r.avoid_step, r.fed_at) == (60, 6, 25)
    assert (r.worsen_every, r.fatal_deadline) == (4, 2)
    assert [r.yields.for_band(b) for b in BandName] == [6, 4, 3, 2, 0, 0, 0]
    assert [r.treat_dc.for_injury(i) for i in Injury] == [12, 10, 8, 6, 4, 0]
    assert r.treat_dc.poison == 8


@pytest.mark.parametrize(
    "fields",
    [
        {"upkeep_per_runner": -1},
        {"avoid_step": 0},
        {"worsen_every": 0},
        {"season_downtimes": 0},
        {"supplies_start": 101},
        {"supplies_max": 10, "supplies_start": 11},
        {"yields": {"success": -1}},
        {"treat_dc": {"fatal": -2}},
        {"gather": ""},
        {"typo": 1},
    ],
)
def test_out_of_range_rules_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        CampaignRules.model_validate(fields)


def test_a_start_over_the_maximum_is_refused_at_the_start() -> None:
    with pytest.raises(ValidationError) as caught:
        CampaignRules.model_validate({"supplies_max": 10, "supplies_start": 11})
    (error,) = caught.value.errors()
    assert (error["loc"], error["type"]) == (("supplies_start",), "value_error")
    assert error["msg"] == "Value error, supplies_start cannot exceed supplies_max"


def test_rules_are_frozen() -> None:
    with pytest.raises(ValidationError):
        CampaignRules().supplies_max = 5  # type: ignore[misc]


def test_a_plain_string_names_its_enum_member_or_is_refused() -> None:
    assert enum_of(Effect, "hunger") is Effect.HUNGER
    with pytest.raises(CampaignError) as caught:
        enum_of(Effect, "gout")
    assert caught.value.code == "invalid_target"
