"""When downtimes fall due: manual, every N seconds, or on weekdays at a local time.

Times are POSIX seconds (floats). A cadence has schedule points after its anchor:
`points_between` counts them in (anchor, now] and `point_at` gives the n-th one. Both
are arithmetic (whole intervals, whole weeks), so a gap of years costs the same as one
of minutes; `point_at` is the source of truth and the count is checked against it.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from services.jsoncodec import is_stored
from services.markers import Named
from services.maze.model import MazeModel

Day = Annotated[Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"], Named("Weekday")]
DAYS: tuple[Day, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_HHMM = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
# Weeks are counted from this Monday; any Monday would do (floor division handles before).
_EPOCH_MONDAY = date(2000, 1, 3)
# POSIX range datetime can represent in every zone (years 2..9998, with a margin).
_MIN_T, _MAX_T = -62_000_000_000.0, 253_000_000_000.0


def _kind_required(schema: dict[str, Any]) -> None:
    """In the contract the tag is required: a body without it matches no cadence (the
    default only serves code building a cadence)."""
    required = schema.setdefault("required", [])
    if "kind" not in required:
        required.insert(0, "kind")


class ManualCadence(MazeModel):
    """Downtimes pass only when the GM advances the campaign."""

    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["manual"] = "manual"


class IntervalCadence(MazeModel):
    """A tick every `every_seconds` after the anchor, each passing `downtimes_per_tick`."""

    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["interval"] = "interval"
    every_seconds: Annotated[int, Field(ge=1, le=31_622_400)]
    downtimes_per_tick: Annotated[int, Field(ge=1, le=14)] = 1


class WeeklyCadence(MazeModel):
    """The broadcast schedule: ticks on these weekdays at a local wall-clock time."""

    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["weekly"] = "weekly"
    days: Annotated[tuple[Day, ...], Field(min_length=1, max_length=7)]
    at: str = "20:00"
    timezone: str = "UTC"
    downtimes_per_tick: Annotated[int, Field(ge=1, le=14)] = 2

    @field_validator("days")
    @classmethod
    def _unique(cls, days: tuple[Day, ...]) -> tuple[Day, ...]:
        if len(set(days)) != len(days):
            raise ValueError("each weekday at most once")
        return days

    @field_validator("at")
    @classmethod
    def _hhmm(cls, at: str) -> str:
        if not _HHMM.match(at):
            raise ValueError("`at` is a 24-hour local time HH:MM")
        return at

    @field_validator("timezone")
    @classmethod
    def _zone(cls, name: str, info: ValidationInfo) -> str:
        # The system's zone files hold `localtime`, the server's own zone: another server
        # (another pod, a restored backup) would tick the campaign at other hours. Refused
        # when given; a campaign stored with it still loads.
        if name in _MACHINE_ZONES and not is_stored(info):
            raise ValueError(f"{name!r} is the server's own time zone: give an IANA name")
        try:
            _zone_of(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown IANA time zone {name!r}") from exc
        return name


Cadence = Annotated[ManualCadence | IntervalCadence | WeeklyCadence, Field(discriminator="kind")]
AnyCadence = ManualCadence | IntervalCadence | WeeklyCadence


_MACHINE_ZONES = frozenset({"localtime", "posixrules"})


@lru_cache(maxsize=512)
def _zone_of(name: str) -> ZoneInfo:
    if not name or len(name) > 64:
        raise ValueError(name)
    return ZoneInfo(name)


@lru_cache(maxsize=1024)
def _weekly_plan(days: tuple[Day, ...], at: str) -> tuple[tuple[int, ...], time]:
    """Weekday numbers (Monday 0) in week order and the wall-clock time."""
    hours, minutes = at.split(":")
    return tuple(sorted(DAYS.index(d) for d in days)), time(int(hours), int(minutes))


def _weekly_point(cadence: WeeklyCadence, m: int) -> float:
    """The time of the weekly point with global index m (point 1 is the epoch week's first)."""
    weekdays, wall = _weekly_plan(cadence.days, cadence.at)
    week, pos = divmod(m - 1, len(weekdays))
    day = _EPOCH_MONDAY + timedelta(days=7 * week + weekdays[pos])
    # fold=0: an ambiguous time (clocks going back) is its first occurrence; a time in
    # the gap (clocks going forward) is read with the offset before it, i.e. shifted
    # forward by the gap — 02:30 on the spring-forward night becomes 03:30.
    local = datetime.combine(day, wall, tzinfo=_zone_of(cadence.timezone))
    return local.timestamp()


def _weekly_index(cadence: WeeklyCadence, t: float) -> int:
    """How many weekly points (by global index) are at or before t."""
    weekdays, _ = _weekly_plan(cadence.days, cadence.at)
    local = datetime.fromtimestamp(t, _zone_of(cadence.timezone)).date()
    weeks = (local - _EPOCH_MONDAY).days // 7
    weekday = local.weekday()
    # Points on earlier weekdays this week, plus today's if it has passed.
    m = weeks * len(weekdays) + sum(1 for d in weekdays if d < weekday)
    if weekday in weekdays and _weekly_point(cadence, m + 1) <= t:
        m += 1
    # DST can move a point across midnight in odd zones: settle against the points.
    while _weekly_point(cadence, m) > t:
        m -= 1
    while _weekly_point(cadence, m + 1) <= t:
        m += 1
    return m


def _interval_index(cadence: IntervalCadence, anchor: float, now: float) -> int:
    every = cadence.every_seconds
    k = max(0, math.floor((now - anchor) / every))
    # Float rounding of anchor + k·every: settle against point_at, the source of truth.
    while k > 0 and anchor + k * every > now:
        k -= 1
    while anchor + (k + 1) * every <= now:
        k += 1
    return k


def _clamp(t: float) -> float:
    if math.isnan(t):
        raise ValueError("a time must be a number")
    return min(max(t, _MIN_T), _MAX_T)


def points_between(cadence: AnyCadence, anchor: float, now: float) -> int:
    """How many schedule points fall in (anchor, now]; 0 for a manual cadence."""
    anchor, now = _clamp(anchor), _clamp(now)
    if isinstance(cadence, ManualCadence) or now <= anchor:
        return 0
    if isinstance(cadence, IntervalCadence):
        return _interval_index(cadence, anchor, now)
    return _weekly_index(cadence, now) - _weekly_index(cadence, anchor)


def point_at(cadence: AnyCadence, anchor: float, n: int) -> float:
    """The time of the n-th schedule point after the anchor (n ≥ 1)."""
    if n < 1:
        raise ValueError(f"points are counted from 1, not {n}")
    if isinstance(cadence, ManualCadence):
        raise ValueError("a manual cadence has no schedule points")
    if isinstance(cadence, IntervalCadence):
        return anchor + n * cadence.every_seconds
    return _weekly_point(cadence, _weekly_index(cadence, _clamp(anchor)) + n)


__all__ = [
    "DAYS",
    "AnyCadence",
    "Cadence",
    "Day",
    "IntervalCadence",
    "ManualCadence",
    "WeeklyCadence",
    "point_at",
    "points_between",
]
