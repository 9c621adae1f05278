"""Cadences: counting schedule points and finding the n-th, exactly and fast."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from services.campaign.cadence import (
    DAYS,
    AnyCadence,
    IntervalCadence,
    ManualCadence,
    WeeklyCadence,
    point_at,
    points_between,
)
from services.jsoncodec import STORED

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"]


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


intervals = st.builds(
    IntervalCadence,
    every_seconds=st.integers(1, 31_622_400),
    downtimes_per_tick=st.integers(1, 14),
)
weeklies = st.builds(
    WeeklyCadence,
    days=st.lists(st.sampled_from(DAYS), min_size=1, max_size=7, unique=True).map(tuple),
    at=st.tuples(st.integers(0, 23), st.integers(0, 59)).map(lambda t: f"{t[0]:02d}:{t[1]:02d}"),
    timezone=st.sampled_from(ZONES),
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(intervals, weeklies), st.floats(0, 4e9), st.integers(1, 3000))
def test_point_at_n_is_the_nth_point_after_the_anchor(
    cadence: AnyCadence, anchor: float, n: int
) -> None:
    if isinstance(cadence, IntervalCadence):
        # Below 2**33 seconds (year 2242) a float still resolves a microsecond.
        n = max(1, min(n, int((2**33 - anchor) // cadence.every_seconds)))
    point = point_at(cadence, anchor, n)
    assert point > anchor
    assert points_between(cadence, anchor, point) == n
    assert points_between(cadence, anchor, point - 1e-6) == n - 1
    assert point_at(cadence, anchor, n + 1) > point


def test_an_interval_ticks_every_n_seconds_after_the_anchor() -> None:
    cadence = IntervalCadence(every_seconds=3600)
    assert [points_between(cadence, 1000.0, t) for t in (1000.0, 4599.0, 4600.0, 9000.0)] == [
        0,
        0,
        1,
        2,
    ]
    assert point_at(cadence, 1000.0, 3) == 1000.0 + 3 * 3600


def test_no_points_fall_before_the_anchor() -> None:
    for cadence in (IntervalCadence(every_seconds=60), WeeklyCadence(days=("mon",))):
        assert points_between(cadence, 1e9, 1e9 - 86400 * 30) == 0


def test_the_weekly_broadcast_ticks_on_its_days_at_its_time() -> None:
    cadence = WeeklyCadence(days=("fri", "mon", "wed"), at="20:00")
    monday = utc(2024, 5, 6)
    assert [point_at(cadence, monday, n) for n in (1, 2, 3, 4)] == [
        utc(2024, 5, 6, 20),
        utc(2024, 5, 8, 20),
        utc(2024, 5, 10, 20),
        utc(2024, 5, 13, 20),
    ]
    assert points_between(cadence, monday, utc(2024, 5, 13, 19, 59)) == 3


def test_a_weekly_time_keeps_its_wall_clock_across_a_dst_change_in_berlin() -> None:
    cadence = WeeklyCadence(days=("sun",), at="20:00", timezone="Europe/Berlin")
    anchor = utc(2024, 3, 20)
    # 20:00 CET is 19:00 UTC; a week later 20:00 CEST is 18:00 UTC.
    assert point_at(cadence, anchor, 1) == utc(2024, 3, 24, 19)
    assert point_at(cadence, anchor, 2) == utc(2024, 3, 31, 18)
    assert points_between(cadence, anchor, utc(2024, 3, 31, 18)) == 2
    assert points_between(cadence, anchor, utc(2024, 3, 31, 17, 59)) == 1


def test_a_time_skipped_by_the_clocks_moves_forward_and_a_repeated_one_comes_once() -> None:
    daily = WeeklyCadence(days=DAYS, at="02:30", timezone="Europe/Berlin")
    spring = utc(2024, 3, 29, 12)
    # 30 March 02:30 CET; 31 March 02:30 does not exist: 03:30 CEST; then 02:30 CEST.
    assert [point_at(daily, spring, n) for n in (1, 2, 3)] == [
        utc(2024, 3, 30, 1, 30),
        utc(2024, 3, 31, 1, 30),
        utc(2024, 4, 1, 0, 30),
    ]
    autumn = utc(2024, 10, 26, 12)
    # 27 October 02:30 happens twice: the first (CEST, 00:30 UTC) is the point.
    assert [point_at(daily, autumn, n) for n in (1, 2)] == [
        utc(2024, 10, 27, 0, 30),
        utc(2024, 10, 28, 1, 30),
    ]
    assert points_between(daily, autumn, utc(2024, 10, 27, 1, 30)) == 1


def test_a_gap_of_decades_is_counted_exactly_and_fast() -> None:
    weekly = WeeklyCadence(days=("mon", "wed", "fri"), at="20:00", timezone="Europe/Berlin")
    interval = IntervalCadence(every_seconds=7)
    anchor = utc(2000, 1, 3)
    later = utc(2050, 1, 3)
    weeks = round((later - anchor) / (7 * 86400))
    start = time.perf_counter()
    for _ in range(200):
        assert points_between(weekly, anchor, later) == 3 * weeks
        assert points_between(interval, anchor, later) == int((later - anchor) // 7)
    assert time.perf_counter() - start < 1.0
    assert point_at(weekly, anchor, 3 * weeks) < later < point_at(weekly, anchor, 3 * weeks + 1)


def test_a_manual_cadence_has_no_points() -> None:
    assert points_between(ManualCadence(), 0.0, 1e12) == 0
    with pytest.raises(ValueError):
        point_at(ManualCadence(), 0.0, 1)
    with pytest.raises(ValueError):
        point_at(IntervalCadence(every_seconds=1), 0.0, 0)


@pytest.mark.parametrize(
    "fields",
    [
        {"days": ()},
        {"days": ("mon", "mon")},
        {"days": ("funday",)},
        {"days": ("mon",), "at": "24:00"},
        {"days": ("mon",), "at": "8:00"},
        {"days": ("mon",), "timezone": "Mars/Olympus"},
        {"days": ("mon",), "timezone": "../etc/passwd"},
        {"days": ("mon",), "downtimes_per_tick": 15},
    ],
)
def test_a_malformed_weekly_cadence_is_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        WeeklyCadence.model_validate(fields)


def test_an_interval_is_between_a_second_and_a_leap_year() -> None:
    for every in (0, 31_622_401):
        with pytest.raises(ValidationError):
            IntervalCadence(every_seconds=every)


@pytest.mark.parametrize("zone", ["localtime", "posixrules", "Mars/Olympus", ""])
def test_a_weekly_cadence_takes_iana_zones_only_not_the_servers_own(zone: str) -> None:
    with pytest.raises(ValidationError, match="time zone"):
        WeeklyCadence(days=("sun",), timezone=zone)


def test_a_cadence_stored_with_the_servers_own_zone_still_loads() -> None:
    stored = {"kind": "weekly", "days": ["sun"], "timezone": "localtime"}
    loaded = WeeklyCadence.model_validate(stored, context=STORED)
    assert loaded.timezone == "localtime"
