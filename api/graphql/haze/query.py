"""GraphQL: the Haze queries — actions, odds, effect dice, complex actions, exhaustion."""

from __future__ import annotations

from typing import Annotated

import strawberry
from pydantic import TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from api.graphql.haze.action_odds import HazeActionOdds
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.haze.complex_action import HazeComplexAction
from api.graphql.haze.effect_dice import HazeEffectDice
from api.graphql.haze.exhaustion import HazeExhaustion
from api.graphql.haze.inputs import (
    HazeActionInput,
    HazeComplexInput,
    HazeExhaustionInput,
    HazeParticipantInput,
)
from api.graphql.haze.payloads import (
    HazeActionOddsPayload,
    HazeActionPayload,
    HazeComplexActionPayload,
    HazeEffectDicePayload,
    HazeExhaustionPayload,
)
from api.graphql.problem import Problem
from api.models import RequestModel, Seed
from services.dice import new_seed, seeded_rng
from services.haze import (
    ActionSpec,
    Aspect,
    ComplexAction,
    Exhaustion,
    HazeError,
    HazeRules,
    Participant,
    RoundResult,
    action_odds,
    effect_dice,
    effect_dice_for,
    play_round,
    roll_action,
    roll_effect,
    spend,
)
from services.haze import end_round as close_round
from services.haze import give_up as stop_trying

RULES_HELP = "Table settings (HazeRules fields, snake_case); omitted fields keep the defaults."


RulesArg = Annotated[JSON | None, strawberry.argument(description=RULES_HELP)]
ArbitraryArg = Annotated[
    bool, strawberry.argument(description="Take an arbitrary success (skill above difficulty).")
]


class _Seeded(RequestModel):
    """The bounds of a seed argument, as REST checks them."""

    seed: Seed | None = None


def _rules(rules: JSON | None) -> HazeRules:
    return HazeRules.model_validate(rules if rules is not None else {})


def _seed(seed: str | None) -> str:
    checked = _Seeded(seed=seed).seed
    return checked if checked is not None else new_seed()


_ASPECTS: TypeAdapter[list[Aspect]] = TypeAdapter(list[Aspect])


def _spend_all(pools: Exhaustion, aspects: list[str]) -> Exhaustion:
    for aspect in _ASPECTS.validate_python(aspects):
        pools = spend(pools, aspect)
    return pools


def _complex_round(
    state: ComplexAction, people: list[Participant], stop: bool, seed: str, rules: HazeRules
) -> RoundResult:
    if stop:
        ended = stop_trying(state)
        return RoundResult(action=ended, participants=people, rolls=[None] * len(people))
    return play_round(state, people, seeded_rng(seed), rules)


@strawberry.type
class HazeQuery:
    @strawberry.field(description="Roll an action (d10 ≤ ability + skill); replay with the seed.")
    def haze_action(
        self,
        action: HazeActionInput,
        seed: str | None = None,
        arbitrary: ArbitraryArg = False,
        rules: RulesArg = None,
    ) -> HazeActionPayload:
        try:
            spec = ActionSpec.model_validate(action.to_dict())
            table = _rules(rules)
            used = _seed(seed)
            outcome = roll_action(spec, seeded_rng(used), table, take_arbitrary=arbitrary)
            dice = effect_dice_for(spec, table)
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeActionResult.from_domain(outcome, dice, used)

    @strawberry.field(description="Exact odds of an action: success, fumble, success rates.")
    def haze_action_odds(
        self,
        action: HazeActionInput,
        arbitrary: ArbitraryArg = False,
        rules: RulesArg = None,
    ) -> HazeActionOddsPayload:
        try:
            spec = ActionSpec.model_validate(action.to_dict())
            odds = action_odds(spec, _rules(rules), take_arbitrary=arbitrary)
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeActionOdds.from_domain(odds)

    @strawberry.field(description="Roll ⌊(ability + skill)/2⌋ + modifiers effect dice.")
    async def haze_effect_dice(
        self, ability: int, skill: int = 0, modifiers: int = 0, seed: str | None = None
    ) -> HazeEffectDicePayload:
        try:
            spec = ActionSpec(ability=ability, skill=skill, effect_modifier=modifiers)
            used = _seed(seed)
            dice = effect_dice(spec.ability, spec.skill, spec.effect_modifier)
            effect = await run_in_threadpool(roll_effect, dice, seeded_rng(used))
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeEffectDice.from_domain(effect, used)

    @strawberry.field(description="Play one round of a complex action (assists: several AEs).")
    def haze_complex_action(
        self,
        action: HazeComplexInput,
        participants: list[HazeParticipantInput],
        give_up: bool = False,
        seed: str | None = None,
        rules: RulesArg = None,
    ) -> HazeComplexActionPayload:
        try:
            state = ComplexAction.model_validate(action.to_dict())
            people = [Participant.model_validate(p.to_dict()) for p in participants]
            used = _seed(seed)
            result = _complex_round(state, people, give_up, used, _rules(rules))
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeComplexAction.from_domain(result, used)

    @strawberry.field(description="Pay for actions in order (aspects), then maybe end the round.")
    def haze_exhaustion(
        self,
        state: HazeExhaustionInput,
        actions: list[str] | None = None,
        end_round: bool = False,
        rules: RulesArg = None,
    ) -> HazeExhaustionPayload:
        try:
            pools = Exhaustion.model_validate(state.to_dict())
            table = _rules(rules)
            pools = _spend_all(pools, actions or [])
            if end_round:
                pools = close_round(pools, table)
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeExhaustion.from_domain(pools)
