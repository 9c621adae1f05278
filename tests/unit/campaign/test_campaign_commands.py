"""decide: what each command records, and every refusal with its stable code."""

from __future__ import annotations

import math

import pytest

from services.campaign import commands as cmd
from services.campaign.cadence import IntervalCadence
from services.campaign.decide import decide
from services.campaign.errors import CampaignError
from services.campaign.events import CadenceSet, InjuryRecorded, SuppliesAdjusted
from services.campaign.state import initial
from services.dice import HmacRng
from services.errors import DomainError
from services.maze.abilities import Ability
from services.maze.character import Character
from services.maze.effects import Effect
from services.maze.injuries import Injury, InjuryRecord
from tests.unit.campaign.play import Table, rules, sheet

RNG = HmacRng("commands")


def refused(table: Table, command: cmd.Command) -> CampaignError:
    with pytest.raises(CampaignError) as caught:
        table.do(command)
    return caught.value


def test_advancing_an_applied_downtime_again_records_nothing() -> None:
    table = Table()
    table.add("a")
    table.tick()
    table.tick()
    state = table.state
    assert decide(state, cmd.AdvanceDowntime(index=0, at=0.0), RNG) == []
    assert decide(state, cmd.AdvanceDowntime(index=1, at=0.0), RNG) == []
    assert table.state is state


def test_advancing_past_the_next_downtime_is_out_of_order() -> None:
    table = Table()
    error = refused(table, cmd.AdvanceDowntime(index=1, at=0.0))
    assert (error.code, error.http_status) == ("downtime_out_of_order", 409)


def test_commands_before_the_campaign_exists_are_not_found() -> None:
    for command in (cmd.AdvanceDowntime(index=0, at=0.0), cmd.AdjustSupplies(delta=1)):
        with pytest.raises(CampaignError) as caught:
            decide(initial(), command, RNG)
        assert (caught.value.code, caught.value.http_status) == ("campaign_not_found", 404)


def test_a_campaign_is_created_once() -> None:
    table = Table()
    error = refused(table, cmd.CreateCampaign(name="again", at=0.0))
    assert (error.code, error.http_status) == ("campaign_exists", 409)


def test_created_supplies_default_to_the_rules_and_must_fit_the_maximum() -> None:
    assert Table().state.supplies == 50
    assert Table(rules=rules(supplies_start=10)).state.supplies == 10
    with pytest.raises(CampaignError) as caught:
        Table(supplies=101)
    assert caught.value.code == "invalid_supplies"


def test_an_anchor_that_is_not_a_finite_time_is_refused() -> None:
    with pytest.raises(CampaignError) as caught:
        Table(at=math.nan)
    assert caught.value.code == "invalid_cadence"


def test_an_ended_campaign_refuses_ticks_and_commands() -> None:
    table = Table()
    table.do(cmd.EndCampaign())
    assert table.state.ended
    assert refused(table, cmd.AdvanceDowntime(index=0, at=0.0)).code == "campaign_ended"
    assert refused(table, cmd.AdjustSupplies(delta=1)).code == "campaign_ended"


def test_no_downtime_passes_after_the_season() -> None:
    table = Table(rules=rules(season_downtimes=1))
    table.tick()
    assert refused(table, cmd.AdvanceDowntime(index=1, at=0.0)).code == "season_over"
    assert decide(table.state, cmd.AdvanceDowntime(index=0, at=0.0), RNG) == []


def test_runner_ids_are_unique_and_the_clearing_has_room_for_max_runners() -> None:
    table = Table(rules=rules(max_runners=2))
    table.add("a")
    error = refused(table, cmd.AddRunner(runner="a", character=sheet()))
    assert (error.code, error.http_status) == ("runner_exists", 409)
    table.add("b")
    assert refused(table, cmd.AddRunner(runner="c", character=sheet())).code == "too_many_runners"


def test_a_sheet_without_a_die_the_clock_rolls_with_is_refused() -> None:
    no_ready = Character(name="x", abilities={Ability.SURROUNDINGS: 12})
    with pytest.raises(DomainError) as caught:
        Table().do(cmd.AddRunner(runner="x", character=no_ready))
    assert caught.value.code == "missing_ability"


def test_a_sheets_effects_and_injuries_move_onto_the_runner() -> None:
    table = Table()
    hurt = sheet().model_copy(
        update={
            "effects": frozenset({Effect.FEAR}),
            "injuries": (InjuryRecord(injury=Injury.MINOR),),
        }
    )
    table.add("a", hurt)
    runner = table.state.runners[0]
    assert runner.effects == {Effect.FEAR}
    assert [(i.id, i.injury) for i in runner.injuries] == [("i0-1", Injury.MINOR)]
    assert runner.character.effects == frozenset() and runner.character.injuries == ()


def test_activities_are_chosen_for_the_coming_downtime_only() -> None:
    table = Table()
    table.add("a")
    wrong = cmd.ChooseActivity(runner="a", downtime=3, activity="gather")  # type: ignore[arg-type]
    assert refused(table, wrong).code == "wrong_downtime"
    table.choose("a", "gather")
    table.choose("a", "farm")
    assert [(r, c.activity.value) for r, c in table.state.choices] == [("a", "farm")]
    table.tick()
    assert table.state.choices == ()


def test_the_maze_is_entered_by_a_run_not_chosen() -> None:
    table = Table()
    table.add("a")
    choice = cmd.ChooseActivity(runner="a", downtime=0, activity="maze")  # type: ignore[arg-type]
    assert refused(table, choice).code == "invalid_activity"


def test_self_treatment_of_a_fatal_injury_is_refused() -> None:
    table = Table()
    table.add("a")
    table.do(cmd.RecordInjury(runner="a", injury=Injury.FATAL))
    choice = cmd.ChooseActivity(
        runner="a",
        downtime=0,
        activity="treat",  # type: ignore[arg-type]
        target_injury="i0-1",
    )
    assert refused(table, choice).code == "self_treatment_of_fatal"


def test_treatment_targets_are_checked() -> None:
    table = Table()
    table.add("a")
    table.add("b")
    table.do(cmd.RecordInjury(runner="b", injury=Injury.MINOR))

    def treat(**target: object) -> str:
        command = cmd.ChooseActivity(
            runner="a",
            downtime=0,
            activity="treat",  # type: ignore[arg-type]
            **target,  # type: ignore[arg-type]
        )
        return refused(table, command).code

    assert treat(target_runner="b", target_injury="nope") == "unknown_injury"
    assert treat(target_runner="nobody", target_injury="i0-1") == "invalid_target"
    assert treat(target_runner="b") == "invalid_target"
    assert treat(target_runner="b", cure_poison=True) == "invalid_target"
    # Poisoned and injured: one or the other, and the refusal says so (not "no poison").
    table.do(cmd.SetEffect(runner="b", effect=Effect.POISON, present=True))
    both = cmd.ChooseActivity(
        runner="a",
        downtime=0,
        activity="treat",  # type: ignore[arg-type]
        target_runner="b",
        target_injury="i0-1",
        cure_poison=True,
    )
    assert "not both" in refused(table, both).message
    gather = cmd.ChooseActivity(runner="a", downtime=0, activity="gather", target_runner="b")  # type: ignore[arg-type]
    assert refused(table, gather).code == "invalid_target"


def test_runs_take_living_runners_who_are_not_away_already() -> None:
    table = Table()
    table.add("a")
    table.add("b")
    table.do(cmd.StartRun(run="r1", runners=("a",)))
    assert refused(table, cmd.StartRun(run="r1", runners=("b",))).code == "run_exists"
    assert refused(table, cmd.StartRun(run="r2", runners=("a",))).code == "runner_on_run"
    assert refused(table, cmd.StartRun(run="r2", runners=("z",))).code == "unknown_runner"
    assert refused(table, cmd.StartRun(run="r2", runners=())).code == "invalid_target"
    choose = cmd.ChooseActivity(runner="a", downtime=0, activity="rest")  # type: ignore[arg-type]
    assert refused(table, choose).code == "runner_on_run"
    assert refused(table, cmd.RemoveRunner(runner="a")).code == "runner_on_run"


def test_ending_a_run_applies_its_results() -> None:
    table = Table()
    table.add("a")
    table.add("b")
    table.do(cmd.StartRun(run="r1", runners=("a", "b"), session_id="s1"))
    result_a = cmd.RunResult(
        runner="a",
        injuries=(Injury.SERIOUS, Injury.SCRATCH),
        effects_gained=frozenset({Effect.FEAR, Effect.POISON}),
    )
    table.do(cmd.EndRun(run="r1", results=(result_a, cmd.RunResult(runner="b", died=True))))
    a, b = table.state.runners
    assert a.effects == {Effect.FEAR, Effect.POISON}
    assert [(i.id, i.injury, i.treated) for i in a.injuries] == [("i0-1", Injury.SERIOUS, False)]
    assert (b.status, b.cause, b.died_at) == ("dead", "died in the maze", 0)
    assert table.state.runs[0].ended == 0
    assert refused(table, cmd.EndRun(run="r1")).code == "run_ended"
    error = refused(table, cmd.EndRun(run="r9"))
    assert (error.code, error.http_status) == ("unknown_run", 404)
    assert refused(table, cmd.SetEffect(runner="b", effect=Effect.FEAR, present=True)).code == (
        "runner_dead"
    )


def test_results_for_runners_outside_the_run_are_refused() -> None:
    table = Table()
    table.add("a")
    table.add("b")
    table.do(cmd.StartRun(run="r1", runners=("a",)))
    bad = cmd.EndRun(run="r1", results=(cmd.RunResult(runner="b"),))
    assert refused(table, bad).code == "invalid_target"


def test_supply_adjustments_are_clamped_and_keep_the_reason() -> None:
    table = Table(supplies=50)
    (event,) = table.do(cmd.AdjustSupplies(delta=80, reason="airdrop"))
    assert isinstance(event, SuppliesAdjusted)
    assert (event.before, event.after, event.reason) == (50, 100, "airdrop")
    table.do(cmd.AdjustSupplies(delta=-500))
    assert table.state.supplies == 0


def test_recorded_injuries_get_fresh_ids_and_scratches_need_no_treatment() -> None:
    table = Table()
    table.add("a")
    first = table.do(cmd.RecordInjury(runner="a", injury=Injury.MINOR))[0]
    second = table.do(cmd.RecordInjury(runner="a", injury=Injury.SCRATCH))[0]
    assert isinstance(first, InjuryRecorded) and isinstance(second, InjuryRecorded)
    assert (first.injury.id, second.injury.id) == ("i0-1", "i0-2")
    assert second.injury.treated and not first.injury.treated


def test_setting_a_cadence_rebases_the_schedule_on_the_counter() -> None:
    table = Table()
    table.add("a")
    table.tick()
    cadence = IntervalCadence(every_seconds=60)
    (event,) = table.do(cmd.SetCadence(cadence=cadence, at=5000.0))
    assert event == CadenceSet(cadence=cadence, anchor=5000.0, base=1)
    assert (table.state.anchor, table.state.base) == (5000.0, 1)


def test_removing_a_runner_drops_their_choice() -> None:
    table = Table()
    table.add("a")
    table.choose("a", "gather")
    table.do(cmd.RemoveRunner(runner="a"))
    assert table.state.runners == () and table.state.choices == ()
    assert refused(table, cmd.RemoveRunner(runner="a")).code == "unknown_runner"
