"""Scheduling from the state: the target downtime, when each falls due, what comes next."""

from __future__ import annotations

from services.campaign import commands as cmd
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.clock import due_at, next_due_at, target_downtime
from services.campaign.events import DowntimePassed
from tests.unit.campaign.play import Table, rules

HOUR = IntervalCadence(every_seconds=3600)


def test_an_interval_campaign_is_due_one_downtime_per_point() -> None:
    table = Table(at=0.0, cadence=HOUR)
    state = table.state
    assert [target_downtime(state, t) for t in (0.0, 3599.0, 3600.0, 7300.0)] == [0, 0, 1, 2]
    assert [due_at(state, i) for i in (0, 1, 2)] == [3600.0, 7200.0, 10800.0]
    assert next_due_at(state) == 3600.0
    table.tick()
    assert next_due_at(table.state) == 7200.0


def test_a_downtime_passed_by_hand_before_it_fell_due_has_no_due_time() -> None:
    table = Table(at=0.0, cadence=HOUR)
    early = table.do(cmd.AdvanceDowntime(index=0, at=10.0))[0]  # due at 3600
    late = table.do(cmd.AdvanceDowntime(index=1, at=7300.0))[0]  # due at 7200: overdue
    assert isinstance(early, DowntimePassed) and isinstance(late, DowntimePassed)
    assert (early.due_at, late.due_at) == (None, 7200.0)


def test_each_point_of_a_weekly_cadence_passes_downtimes_per_tick() -> None:
    cadence = WeeklyCadence(days=("mon", "wed", "fri"), at="20:00")
    monday = 1_714_953_600.0  # 2024-05-06 00:00 UTC
    state = Table(at=monday, cadence=cadence).state
    first, second = monday + 20 * 3600, monday + (2 * 24 + 20) * 3600
    assert due_at(state, 0) == due_at(state, 1) == first
    assert due_at(state, 2) == second
    assert target_downtime(state, first) == 2
    assert target_downtime(state, second + 1) == 4


def test_the_target_never_passes_the_season_nor_falls_below_the_counter() -> None:
    table = Table(at=0.0, cadence=HOUR, rules=rules(season_downtimes=3))
    assert target_downtime(table.state, 1e9) == 3
    for _ in range(2):
        table.tick()
    # The schedule restarts from now: nothing more is due yet, but nothing is undone.
    table.do(cmd.SetCadence(cadence=HOUR, at=100.0))
    assert target_downtime(table.state, 100.0) == 2
    assert due_at(table.state, 1) is None  # before the new base
    assert due_at(table.state, 2) == 3700.0


def test_nothing_is_due_for_a_manual_ended_or_finished_campaign() -> None:
    manual = Table()
    assert target_downtime(manual.state, 1e12) == 0
    assert due_at(manual.state, 0) is None and next_due_at(manual.state) is None
    ended = Table(at=0.0, cadence=HOUR)
    ended.do(cmd.EndCampaign())
    assert next_due_at(ended.state) is None and target_downtime(ended.state, 1e9) == 0
    finished = Table(at=0.0, cadence=HOUR, rules=rules(season_downtimes=1))
    finished.tick()
    assert next_due_at(finished.state) is None


def test_a_tick_records_when_it_fell_due() -> None:
    table = Table(at=0.0, cadence=HOUR)
    assert table.tick().due_at == 3600.0
    assert Table().tick().due_at is None


def test_a_scheduled_tick_passes_only_a_downtime_the_cadence_has_made_due() -> None:
    table = Table(at=0.0, cadence=HOUR)
    assert table.do(cmd.AdvanceDowntime(index=0, at=3599.0, scheduled=True)) == []
    assert len(table.do(cmd.AdvanceDowntime(index=0, at=3600.0, scheduled=True))) == 1
    # The GM turns the clock off: a catch-up computed before that passes nothing more.
    table.do(cmd.SetCadence(cadence=ManualCadence(), at=3700.0))
    assert table.do(cmd.AdvanceDowntime(index=1, at=1e6, scheduled=True)) == []
    # The GM's own advance is not scheduled: it always passes the next downtime.
    assert len(table.do(cmd.AdvanceDowntime(index=1, at=3800.0))) == 1
