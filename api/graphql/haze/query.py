"""GraphQL: the Haze queries — actions, odds, effect dice, complex actions, exhaustion.

Checks, spells and complex-action odds come from HazeCheckQuery, combat from HazeCombatQuery.
"""

from __future__ import annotations

from typing import Annotated

import strawberry
from pydantic import TypeAdapter, ValidationError
from strawberry.scalars import JSON

from api.graphql.haze.action_odds import HazeActionOdds
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.haze.check_query import HazeCheckQuery
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
from api.graphql.haze.validate import Invalid, checked, seed_or_new, table_rules
from api.graphql.problem import Problem, graphql_problem
from api.graphql.rolled import with_rolls
from api.rolls import recorded, recorded_in_thread
from services.dice import seeded_rng
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
    effect_dice_for,
    play_round,
    roll_action,
    roll_effect,
    spend,
)
from services.haze import end_round as close_round
from services.haze import give_up as stop_trying
from services.haze.complex_round import check_participants
from services.haze.requests import EffectRequest

RULES_HELP = "Table settings (HazeRules fields, camelCase or snake_case); omitted keep defaults."


RulesArg = Annotated[JSON | None, strawberry.argument(description=RULES_HELP)]
ArbitraryArg = Annotated[
    bool, strawberry.argument(description="Take an arbitrary success (skill above difficulty).")
]


_ASPECTS: TypeAdapter[list[Aspect]] = TypeAdapter(list[Aspect])


def _spend_all(pools: Exhaustion, aspects: list[str]) -> Exhaustion:
    try:
        valid = _ASPECTS.validate_python(aspects)
    except ValidationError as exc:
        raise Invalid(graphql_problem(exc, "actions")) from None
    for aspect in valid:
        pools = spend(pools, aspect)
    return pools


def _complex_round(
    state: ComplexAction, people: list[Participant], stop: bool, seed: str, rules: HazeRules
) -> RoundResult:
    check_participants(people)
    if stop:
        ended = stop_trying(state)
        return RoundResult(action=ended, participants=people, rolls=[None] * len(people))
    return play_round(state, people, seeded_rng(seed), rules)


@strawberry.type
class HazeQuery(HazeCheckQuery):
    @strawberry.field(description="Roll an action (d10 ≤ ability + skill); replay with the seed.")
    def haze_action(
        self,
        action: HazeActionInput,
        seed: str | None = None,
        arbitrary: ArbitraryArg = False,
        rules: RulesArg = None,
    ) -> HazeActionPayload:
        try:
            spec = checked(ActionSpec, action.to_dict(), "action")
            table = table_rules(rules)
            used = seed_or_new(seed)
            outcome, rolls = recorded(
                roll_action, spec, seeded_rng(used), table, take_arbitrary=arbitrary
            )
            dice = effect_dice_for(spec, table)
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(HazeActionResult.from_domain(outcome, dice, used), rolls)

    @strawberry.field(description="Exact odds of an action: success, fumble, success rates.")
    def haze_action_odds(
        self,
        action: HazeActionInput,
        arbitrary: ArbitraryArg = False,
        rules: RulesArg = None,
    ) -> HazeActionOddsPayload:
        try:
            spec = checked(ActionSpec, action.to_dict(), "action")
            odds = action_odds(spec, table_rules(rules), take_arbitrary=arbitrary)
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeActionOdds.from_domain(odds)

    @strawberry.field(description="Roll ⌊(ability + skill)/2⌋ + modifiers effect dice.")
    async def haze_effect_dice(
        self,
        ability: int,
        skill: int = 0,
        modifiers: int = 0,
        unskilled: bool = False,
        related_skill: bool = False,
        seed: str | None = None,
        rules: RulesArg = None,
    ) -> HazeEffectDicePayload:
        try:
            body = checked(EffectRequest, {"ability": ability, "skill": skill,
                "modifiers": modifiers, "unskilled": unskilled, "related_skill": related_skill,
                "rules": table_rules(rules), "seed": seed})  # fmt: skip
            used = seed_or_new(body.seed)
            dice = body.count()
            effect, rolls = await recorded_in_thread(roll_effect, dice, seeded_rng(used))
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(HazeEffectDice.from_domain(effect, used), rolls)

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
            state = checked(ComplexAction, action.to_dict(), "action")
            people = [
                checked(Participant, p.to_dict(), f"participants.{i}")
                for i, p in enumerate(participants)
            ]
            used = seed_or_new(seed)
            result = _complex_round(state, people, give_up, used, table_rules(rules))
        except Invalid as exc:
            return exc.problem
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
            pools = checked(Exhaustion, state.to_dict(), "state")
            table = table_rules(rules)
            pools = _spend_all(pools, actions or [])
            if end_round:
                pools = close_round(pools, table)
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeExhaustion.from_domain(pools)
