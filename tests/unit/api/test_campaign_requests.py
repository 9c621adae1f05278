"""Campaign request bodies: their limits, their domain commands, and who may send them."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError
from starlette.requests import Request

from api.campaigns.requests import (
    MAX_ADVANCE,
    AddRunner,
    AdjustmentBody,
    Advance,
    ChooseActivity,
    CreateCampaign,
    EndRun,
    InvalidCharacter,
    IssueCampaignToken,
    SetCadence,
    StartRun,
)
from api.campaigns.usecases import advance, authorize
from api.problems import InvalidRequest
from api.rest.params import int_param
from api.tables.tokens import Forbidden, RoleToken
from services.campaign import CampaignState
from services.campaign import commands as cmd
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.model import Activity
from services.maze.effects import Effect
from services.maze.injuries import Injury

GM = RoleToken("campaign:c1", "gm", None, 0, 1, "t")
R1 = RoleToken("campaign:c1", "player", "r1", 0, 1, "t")
WATCHER = RoleToken("campaign:c1", "spectator", None, 0, 1, "t")
SHEET: dict[str, Any] = {
    "name": "Ash",
    "abilities": {"ready": 8, "surroundings": 12, "navigation": 10, "interaction": 6},
    "skills": [{"name": "Survival", "modifier": 2}],
}


def test_a_new_campaign_defaults_to_a_manual_cadence_and_the_default_rules() -> None:
    command = CreateCampaign.model_validate({"name": "Glade"}).to_domain(at=12.5)
    assert isinstance(command.cadence, ManualCadence)
    assert command.at == 12.5 and command.supplies is None
    assert command.rules.season_downtimes == 732


def test_a_new_campaign_takes_a_cadence_rule_overrides_and_supplies() -> None:
    body = CreateCampaign.model_validate(
        {
            "name": "Glade",
            "cadence": {"kind": "weekly", "days": ["mon", "wed", "fri"], "at": "19:30"},
            "rules": {"supplies_max": 200, "avoid_step": 3},
            "supplies": 150,
        }
    )
    command = body.to_domain(at=0.0)
    assert isinstance(command.cadence, WeeklyCadence) and command.cadence.days == (
        "mon",
        "wed",
        "fri",
    )
    assert command.rules.supplies_max == 200 and command.rules.avoid_step == 3
    assert command.supplies == 150


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "x" * 101},
        {"name": "Glade", "cadence": {"kind": "hourly"}},
        {"name": "Glade", "cadence": {"kind": "interval", "every_seconds": 0}},
        {"name": "Glade", "cadence": {"kind": "weekly", "days": ["mon", "mon"]}},
        {"name": "Glade", "cadence": {"kind": "weekly", "days": ["mon"], "timezone": "Mars/Base"}},
        {"name": "Glade", "rules": {"avoid_step": 0}},
        {"name": "Glade", "rules": {"no_such_rule": 1}},
        {"name": "Glade", "supplies": -1},
        {"name": "Glade", "surprise": True},
    ],
)
def test_a_bad_campaign_body_is_refused(body: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        CreateCampaign.model_validate(body)


def test_a_player_token_names_a_runner_and_gm_and_spectator_tokens_none() -> None:
    assert IssueCampaignToken.model_validate({"role": "player", "runner": "r1"}).runner == "r1"
    assert IssueCampaignToken.model_validate({"role": "spectator"}).runner is None
    assert IssueCampaignToken.model_validate({"role": "gm"}).runner is None  # a renewal
    bad_ones = ({"role": "player"}, {"role": "spectator", "runner": "r1"}, {"role": "owner"})
    for bad in (*bad_ones, {"role": "gm", "runner": "r1"}):
        with pytest.raises(ValidationError):
            IssueCampaignToken.model_validate(bad)


def test_a_runner_joins_with_a_maze_character_sheet() -> None:
    command = AddRunner.model_validate({"runner": "r1", "character": SHEET}).to_domain()
    assert command.runner == "r1" and command.character.skills == {"Survival": 2}
    with pytest.raises(ValidationError):
        AddRunner.model_validate({"runner": "no spaces", "character": SHEET})
    with pytest.raises(ValidationError):
        AddRunner.model_validate({"runner": "r1", "character": {"name": "Ash"}})


@pytest.mark.parametrize(
    ("change", "codes"),
    [
        ({"abilities": {"ready": 8, "surroundings": 6, "navigation": 6, "interaction": 6}},
         ["dice_not_distinct"]),
        ({"abilities": {"ready": 12, "surroundings": 10, "navigation": 8}}, ["missing_ability"]),
        ({"skills": [{"name": "Nope", "modifier": 2}]}, ["unknown_skill"]),
        ({"traits": ["Farmer", "Farmer"]}, ["duplicate_trait"]),
        ({"skills": [{"name": "Nope", "modifier": 2}], "traits": ["Nope"]},
         ["unknown_skill", "unknown_trait"]),
    ],
)  # fmt: skip
def test_a_runner_sheet_the_maze_rules_refuse_is_refused_with_their_codes(
    change: dict[str, Any], codes: list[str]
) -> None:
    body = AddRunner.model_validate({"runner": "r1", "character": {**SHEET, **change}})
    with pytest.raises(InvalidCharacter) as refused:
        body.to_domain()
    assert refused.value.code == codes[0] and refused.value.http_status == 422
    assert [i.code for i in refused.value.issues] == codes
    assert all(code in refused.value.message for code in codes)


def test_a_choice_defaults_to_the_current_downtime_and_maze_is_not_choosable() -> None:
    body = ChooseActivity.model_validate({"runner": "r1", "activity": "gather"})
    assert body.to_domain(downtime=7) == cmd.ChooseActivity(
        runner="r1", downtime=7, activity=Activity.GATHER
    )
    explicit = ChooseActivity.model_validate(
        {"runner": "r1", "activity": "treat", "downtime": 3, "target_runner": "r2"}
    )
    assert explicit.to_domain(downtime=7).downtime == 3
    with pytest.raises(ValidationError):
        ChooseActivity.model_validate({"runner": "r1", "activity": "maze"})


def test_a_run_names_each_runner_once_and_gets_an_id() -> None:
    command = StartRun.model_validate({"runners": ["r1", "r2"]}).to_domain()
    assert command.runners == ("r1", "r2") and command.run
    with pytest.raises(ValidationError):
        StartRun.model_validate({"runners": ["r1", "r1"]})
    with pytest.raises(ValidationError):
        StartRun.model_validate({"runners": []})


def test_a_run_ends_with_each_runners_results() -> None:
    body = EndRun.model_validate(
        {"results": [{"runner": "r1", "injuries": ["minor"], "effects_gained": ["fear"]}]}
    )
    (result,) = body.to_domain("run1").results
    assert result.injuries == (Injury.MINOR,) and result.effects_gained == {Effect.FEAR}


@pytest.mark.parametrize(
    ("body", "command"),
    [
        (
            {"type": "supplies", "delta": -5, "reason": "rats"},
            cmd.AdjustSupplies(delta=-5, reason="rats"),
        ),
        (
            {"type": "effect", "runner": "r1", "effect": "poison"},
            cmd.SetEffect(runner="r1", effect=Effect.POISON, present=True),
        ),
        (
            {"type": "injury", "runner": "r1", "injury": "grave"},
            cmd.RecordInjury(runner="r1", injury=Injury.GRAVE),
        ),
    ],
)  # fmt: skip
def test_an_adjustment_is_tagged_by_type(body: dict[str, Any], command: cmd.Command) -> None:
    assert AdjustmentBody.model_validate(body).root.to_domain() == command


def test_an_adjustment_outside_its_limits_is_refused() -> None:
    for bad in (
        {"type": "supplies", "delta": 10**9},
        {"type": "weather", "delta": 1},
        {"type": "effect", "runner": "r1", "effect": "sunburn"},
    ):
        with pytest.raises(ValidationError):
            AdjustmentBody.model_validate(bad)


def test_a_cadence_change_and_an_advance_are_bounded() -> None:
    body = SetCadence.model_validate({"cadence": {"kind": "interval", "every_seconds": 1}})
    assert body.to_domain(at=5.0).cadence == IntervalCadence(every_seconds=1)
    assert Advance.model_validate({}).through is None
    with pytest.raises(ValidationError):
        Advance.model_validate({"through": 0})


def test_the_gm_acts_for_anyone_a_player_for_their_runner_a_spectator_never() -> None:
    authorize(GM, None, "end runs")
    authorize(GM, "r2", "choose")
    authorize(R1, "r1", "choose")
    with pytest.raises(Forbidden):
        authorize(R1, "r2", "choose")
    with pytest.raises(Forbidden):
        authorize(R1, None, "end runs")
    for runner in (None, "r1"):
        with pytest.raises(Forbidden):
            authorize(WATCHER, runner, "choose")


def test_the_target_injury_is_documented_as_an_id_from_the_view() -> None:
    described = ChooseActivity.model_json_schema()["properties"]["target_injury"]
    assert "injuries[].id" in described["description"]


class _Campaigns:
    """Just enough of the campaign service for an advance refused before it runs."""

    def load(self, campaign_id: str) -> SimpleNamespace:
        return SimpleNamespace(version=1, state=CampaignState(created=True))


def test_advancing_too_far_names_the_field_as_body_validation_does() -> None:
    with pytest.raises(InvalidRequest) as refused:
        advance(_Campaigns(), None, GM, Advance(through=MAX_ADVANCE + 1), 0.0)  # type: ignore[arg-type]
    assert [e["loc"] for e in refused.value.errors] == [["through"]]
    with pytest.raises(ValidationError) as invalid:
        Advance.model_validate({"through": 0})
    assert [e["loc"] for e in invalid.value.errors()] == [("through",)]


def _query(string: bytes) -> Request:
    return Request({"type": "http", "query_string": string, "headers": []})


@pytest.mark.parametrize("raw", [b"abc", b"1.5", b"", b"0x10", "²".encode(), b"1e3", b"+-1"])
def test_a_query_parameter_that_is_no_integer_says_so(raw: bytes) -> None:
    with pytest.raises(InvalidRequest) as refused:
        int_param(_query(b"after=" + raw), "after", 0, 0, 2**62)
    assert refused.value.detail == "query parameter 'after' must be an integer"
    assert refused.value.errors[0]["type"] == "int_parsing"


@pytest.mark.parametrize("raw", [b"-1", b"101", b"9" * 5000])
def test_a_query_parameter_out_of_its_bounds_says_so(raw: bytes) -> None:
    with pytest.raises(InvalidRequest) as refused:
        int_param(_query(b"limit=" + raw), "limit", 50, 1, 100)
    assert refused.value.detail == "query parameter 'limit' must be an integer in [1, 100]"
    assert refused.value.errors[0]["type"] == "int_range"


def test_a_query_parameter_in_bounds_or_absent_is_read() -> None:
    assert int_param(_query(b"after=42"), "after", 0, 0, 2**62) == 42
    assert int_param(_query(b""), "after", 7, 0, 2**62) == 7
