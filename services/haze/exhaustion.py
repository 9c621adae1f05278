"""Exhaustion points: the nth action in a round costs n from its aspect; rest restores."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.haze.abilities import ASPECTS, Abilities, Aspect, Score
from services.haze.errors import Exhausted
from services.haze.rules import DEFAULT_RULES, HazeRules

Points = Annotated[int, Field(ge=0, le=10)]
Count = Annotated[int, Field(ge=0, le=10)]


def action_cost(nth: int) -> int:
    """The exhaustion cost of the nth action in a round: n points."""
    return nth


def round_cost(actions: int) -> int:
    """Total points spent by `actions` actions in one round: 1 + 2 + … + n."""
    return actions * (actions + 1) // 2


def max_actions_per_round(health: int) -> int:
    """The most actions in a round whose total cost stays within the health score."""
    n = 0
    while round_cost(n + 1) <= health:
        n += 1
    return n


class AspectPool(BaseModel):
    """One aspect's exhaustion points: what is left and what this round has cost so far."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    health: Score
    points: Points
    actions: Count = 0
    spent: Annotated[int, Field(ge=0, le=10)] = 0

    @model_validator(mode="after")
    def _within_health(self) -> AspectPool:
        # "The total expenditure ... may not exceed the AE's health score", and a rest
        # regains at most the health score: neither the pool nor the round's spend exceeds it.
        if self.points > self.health or self.spent > self.health:
            raise ValueError("points and spent must not exceed the health score")
        return self

    @classmethod
    def fresh(cls, health: int) -> AspectPool:
        """A rested aspect: as many points as its health score."""
        return cls(health=health, points=health)

    def next_cost(self) -> int:
        """What the next action of this aspect would cost this round."""
        return action_cost(self.actions + 1)

    def can_act(self) -> bool:
        """Whether the next action fits both the points left and the round's limit."""
        cost = self.next_cost()
        return cost <= self.points and self.spent + cost <= self.health


class Exhaustion(BaseModel):
    """The exhaustion state of an AE's three aspects."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    body: AspectPool
    mind: AspectPool
    soul: AspectPool

    def pool(self, aspect: Aspect) -> AspectPool:
        """The pool of one aspect."""
        pool: AspectPool = getattr(self, aspect)
        return pool


def start(abilities: Abilities) -> Exhaustion:
    """A rested AE: each aspect holds its health score in points."""
    return Exhaustion(
        body=AspectPool.fresh(abilities.constitution),
        mind=AspectPool.fresh(abilities.intelligence),
        soul=AspectPool.fresh(abilities.empathy),
    )


def spend(state: Exhaustion, aspect: Aspect) -> Exhaustion:
    """Pay for one more action of `aspect` this round, or refuse it."""
    pool = state.pool(aspect)
    cost = pool.next_cost()
    if not pool.can_act():
        raise Exhausted(
            f"action {pool.actions + 1} this round costs {cost} {aspect} points: "
            f"{pool.points} left, {pool.health - pool.spent} within the round's limit"
        )
    paid = AspectPool(
        health=pool.health,
        points=pool.points - cost,
        actions=pool.actions + 1,
        spent=pool.spent + cost,
    )
    return state.model_copy(update={aspect: paid})


def end_round(state: Exhaustion, rules: HazeRules = DEFAULT_RULES) -> Exhaustion:
    """Close the round: resting aspects regain their health score, counters reset."""
    idle = all(state.pool(a).actions == 0 for a in ASPECTS)
    update: dict[str, AspectPool] = {}
    for aspect in ASPECTS:
        pool = state.pool(aspect)
        rested = rules.recovery == "each_round" or (
            idle if rules.rest_scope == "all" else pool.actions == 0
        )
        # A rest regains the health score, which is also the most the pool holds.
        points = min(pool.health, pool.points + pool.health) if rested else pool.points
        update[aspect] = AspectPool(health=pool.health, points=points)
    return state.model_copy(update=update)
