"""One round of a complex action: every AE with points left rolls once, paying 1 point."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, model_validator

from services.dice import Rng
from services.errors import field_error
from services.haze.abilities import Score
from services.haze.action import ActionSpec
from services.haze.complex import ComplexAction, exhaust, step
from services.haze.errors import NoParticipants
from services.haze.exhaustion import Points, action_cost
from services.haze.outcome import ActionOutcome, roll_action
from services.haze.rules import DEFAULT_RULES, HazeRules

# Each AE rolls once a round: the first action of a round.
ROLL_COST = action_cost(1)


class Participant(BaseModel):
    """An AE taking part: the roll it makes and its exhaustion points left in that aspect.

    `health` (the aspect's health score) is optional; under `recovery: each_round` the
    pool refills to it after the round (without it, the round's cost is given back).
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    spec: ActionSpec
    points: Points
    health: Score | None = None

    @model_validator(mode="after")
    def _within_health(self) -> Participant:
        if self.health is not None and self.points > self.health:
            raise field_error("points", "points must not exceed the health score")
        return self


class RoundResult(BaseModel):
    """The complex action after the round, the participants' points and their rolls."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: ComplexAction
    participants: list[Participant]
    rolls: list[ActionOutcome | None]


def check_participants(participants: Sequence[Participant]) -> None:
    """Refuse a round with nobody in it (it is not the same as everyone being exhausted)."""
    if not participants:
        raise NoParticipants("a complex-action round needs at least one participant")


def _after(p: Participant, rolled: bool, rules: HazeRules) -> Participant:
    if rules.recovery == "each_round":
        # Every round is a fresh budget: the pool is full again whatever the round cost.
        return p if p.health is None else p.model_copy(update={"points": p.health})
    return p.model_copy(update={"points": p.points - ROLL_COST}) if rolled else p


def pay_round(
    participants: Sequence[Participant], rules: HazeRules = DEFAULT_RULES
) -> tuple[list[bool], list[Participant]]:
    """Who can pay for this round's roll, and everyone's points once the round is over.

    Payment never depends on the dice, so the odds replay it to know who rolls each round.
    """
    rolling = [p.points >= ROLL_COST for p in participants]
    return rolling, [_after(p, r, rules) for p, r in zip(participants, rolling, strict=True)]


def play_round(
    state: ComplexAction,
    participants: Sequence[Participant],
    rng: Rng,
    rules: HazeRules = DEFAULT_RULES,
) -> RoundResult:
    """Roll for every participant who can pay; none can → the action is exhausted."""
    check_participants(participants)
    rolling, after = pay_round(participants, rules)
    rolls = [
        roll_action(p.spec, rng, rules) if r else None
        for p, r in zip(participants, rolling, strict=True)
    ]
    made = [r for r in rolls if r is not None]
    action = step(state, made, rules) if made else exhaust(state)
    return RoundResult(action=action, participants=after, rolls=rolls)
