"""CampaignError, the root of every refusal from the campaign clock, with its stable codes."""

from __future__ import annotations

from enum import StrEnum
from typing import TypeVar

from services.errors import DomainError

E = TypeVar("E", bound=StrEnum)


class CampaignError(DomainError):
    """A campaign command the caller can fix; `code` says which rule refused it."""

    code = "campaign_error"
    http_status = 422

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message, code=code)
        # One class for every refusal, so the status follows the code (404/409 where natural).
        self.http_status = STATUS.get(self.code, 422)


# Stable codes, one per rule that can refuse a command.
CAMPAIGN_NOT_FOUND = "campaign_not_found"
CAMPAIGN_EXISTS = "campaign_exists"
CAMPAIGN_ENDED = "campaign_ended"
SEASON_OVER = "season_over"
DOWNTIME_OUT_OF_ORDER = "downtime_out_of_order"
UNKNOWN_RUNNER = "unknown_runner"
INVALID_ROLL = "invalid_roll"
RUNNER_EXISTS = "runner_exists"
RUNNER_DEAD = "runner_dead"
RUNNER_ON_RUN = "runner_on_run"
TOO_MANY_RUNNERS = "too_many_runners"
WRONG_DOWNTIME = "wrong_downtime"
INVALID_ACTIVITY = "invalid_activity"
INVALID_TARGET = "invalid_target"
SELF_TREATMENT_OF_FATAL = "self_treatment_of_fatal"
UNKNOWN_INJURY = "unknown_injury"
RUN_EXISTS = "run_exists"
UNKNOWN_RUN = "unknown_run"
RUN_ENDED = "run_ended"
INVALID_CADENCE = "invalid_cadence"
INVALID_SUPPLIES = "invalid_supplies"

STATUS: dict[str, int] = {
    CAMPAIGN_NOT_FOUND: 404,
    UNKNOWN_RUNNER: 404,
    UNKNOWN_RUN: 404,
    CAMPAIGN_EXISTS: 409,
    RUNNER_EXISTS: 409,
    RUN_EXISTS: 409,
    # A tick that arrives before its predecessor is a race the caller retries, not bad input.
    DOWNTIME_OUT_OF_ORDER: 409,
}


def enum_of(cls: type[E], value: str) -> E:
    """A plain string from a caller as the enum member it names (invalid_target if none)."""
    try:
        return cls(value)
    except ValueError:
        raise CampaignError(f"not a {cls.__name__}: {value!r}", code=INVALID_TARGET) from None
