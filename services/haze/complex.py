"""Complex actions: success rates add up over rounds until the difficulty is reached."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.haze.errors import ComplexActionOver
from services.haze.outcome import ActionOutcome
from services.haze.rules import DEFAULT_RULES, HazeRules
from services.markers import Named

Status = Annotated[
    Literal["in_progress", "completed", "fumbled", "exhausted", "given_up"],
    Named("HazeComplexStatus"),
]
MAX_COMPLEX_DIFFICULTY = 1000


class ComplexAction(BaseModel):
    """The state of a complex action: its difficulty, the running total, rounds played."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    difficulty: Annotated[int, Field(ge=1, le=MAX_COMPLEX_DIFFICULTY)]
    total: Annotated[int, Field(ge=-100_000, le=100_000)] = 0
    rounds: Annotated[int, Field(ge=0, le=10_000)] = 0
    status: Status = "in_progress"

    @model_validator(mode="after")
    def _reached_means_completed(self) -> ComplexAction:
        # An action whose total has reached its difficulty is completed, not in progress:
        # the odds and the rounds of such a state would have no meaning.
        if self.status == "in_progress" and self.total >= self.difficulty:
            raise ValueError(
                f"total {self.total} has reached the difficulty {self.difficulty}: an action "
                "in progress is below it (the action is completed)"
            )
        return self

    @property
    def over(self) -> bool:
        """Whether the action has ended, one way or another."""
        return self.status != "in_progress"

    @property
    def remaining(self) -> int:
        """Success rate still needed (0 once reached)."""
        return max(0, self.difficulty - self.total)


def _open(state: ComplexAction) -> None:
    if state.over:
        raise ComplexActionOver(f"this complex action has already ended ({state.status})")


def step(
    state: ComplexAction, rolls: Sequence[ActionOutcome], rules: HazeRules = DEFAULT_RULES
) -> ComplexAction:
    """Play one round: every roll's success rate (failures negative) joins the total.

    Several rolls in one round are assists: AEs sharing the action add their rates.
    """
    _open(state)
    if not rolls:
        return exhaust(state)
    rounds = state.rounds + 1
    if rules.fumble_ends_complex and any(r.fumble for r in rolls):
        return state.model_copy(update={"rounds": rounds, "status": "fumbled"})
    total = state.total + sum(r.success_rate for r in rolls)
    status: Status = "completed" if total >= state.difficulty else "in_progress"
    return state.model_copy(update={"total": total, "rounds": rounds, "status": status})


def give_up(state: ComplexAction) -> ComplexAction:
    """The AE stops trying."""
    _open(state)
    return state.model_copy(update={"status": "given_up"})


def exhaust(state: ComplexAction) -> ComplexAction:
    """No one taking part has the exhaustion points for another roll."""
    _open(state)
    return state.model_copy(update={"status": "exhausted"})
