"""One round of a complex action: every AE with points left rolls once, paying 1 point."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from services.dice import Rng
from services.haze.action import ActionSpec
from services.haze.complex import ComplexAction, exhaust, step
from services.haze.errors import NoParticipants
from services.haze.exhaustion import Points, action_cost
from services.haze.outcome import ActionOutcome, roll_action
from services.haze.rules import DEFAULT_RULES, HazeRules

# Each AE rolls once a round: the first action of a round.
ROLL_COST = action_cost(1)


class Participant(BaseModel):
    """An AE taking part: the roll it makes and its exhaustion points left in that aspect."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    spec: ActionSpec
    points: Points


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


def play_round(
    state: ComplexAction,
    participants: Sequence[Participant],
    rng: Rng,
    rules: HazeRules = DEFAULT_RULES,
) -> RoundResult:
    """Roll for every participant who can pay; none can → the action is exhausted."""
    check_participants(participants)
    rolls: list[ActionOutcome | None] = []
    after: list[Participant] = []
    for p in participants:
        if p.points < ROLL_COST:
            rolls.append(None)
            after.append(p)
            continue
        rolls.append(roll_action(p.spec, rng, rules))
        after.append(p.model_copy(update={"points": p.points - ROLL_COST}))
    made = [r for r in rolls if r is not None]
    action = step(state, made, rules) if made else exhaust(state)
    return RoundResult(action=action, participants=after, rolls=rolls)
