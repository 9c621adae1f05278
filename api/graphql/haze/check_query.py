"""GraphQL: ability checks, spells and prayers, and complex-action odds."""

from __future__ import annotations

from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON

from api.graphql.haze.ability_check import HazeAbilityCheck
from api.graphql.haze.action_odds import HazeActionOdds
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.haze.check_entry import HazeCheckEntry
from api.graphql.haze.check_inputs import HazeAbilityCheckInput, HazeCastInput, HazeSpellInput
from api.graphql.haze.check_payloads import (
    HazeAbilityCheckPayload,
    HazeComplexOddsPayload,
    HazeLearnedSpellPayload,
)
from api.graphql.haze.combat_query import HazeCombatQuery
from api.graphql.haze.complex_odds import HazeComplexOdds
from api.graphql.haze.inputs import HazeComplexInput, HazeParticipantInput
from api.graphql.haze.learned_spell import HazeLearnedSpell
from api.graphql.haze.payloads import HazeActionOddsPayload, HazeActionPayload
from api.graphql.haze.validate import answered, checked, seed_or_new, table_rules
from api.graphql.rolled import with_rolls
from api.rolls import recorded
from services.dice import seeded_rng
from services.haze import effect_dice_for
from services.haze.catalogue import CATALOGUE
from services.haze.checks import HazeCheckRequest, check_odds, roll_check
from services.haze.complex_odds import DEFAULT_MAX_ROUNDS, complex_odds
from services.haze.requests import HazeComplexOddsRequest
from services.haze.spells import HazeCastRequest, HazeLearnRequest, cast, cast_odds, cast_spec
from services.haze.spells import learn as learn_spell

RulesArg = Annotated[JSON | None, strawberry.argument(description="HazeRules (camelCase).")]
CastArg = Annotated[HazeCastInput, strawberry.argument(name="cast")]


def _check(check: HazeAbilityCheckInput, rules: JSON | None) -> HazeCheckRequest:
    return checked(HazeCheckRequest, {**check.to_dict(), "rules": table_rules(rules)}, "check")


def _cast(cast_input: HazeCastInput, rules: JSON | None) -> HazeCastRequest:
    return checked(HazeCastRequest, {**cast_input.to_dict(), "rules": table_rules(rules)}, "cast")


def _rolled_check(
    check: HazeAbilityCheckInput, seed: str | None, rules: JSON | None
) -> HazeAbilityCheck:
    body = _check(check, rules)
    used = seed_or_new(seed)
    result, rolls = recorded(roll_check, body, seeded_rng(used))
    return with_rolls(HazeAbilityCheck.from_domain(result, used), rolls)


def _check_odds(check: HazeAbilityCheckInput, rules: JSON | None) -> HazeActionOdds:
    return HazeActionOdds.from_domain(check_odds(_check(check, rules)))


def _learned(spell: HazeSpellInput, school_score: int) -> HazeLearnedSpell:
    data = {"spell": spell.to_dict(), "school_score": school_score}
    body = checked(HazeLearnRequest, data)
    return HazeLearnedSpell.from_domain(learn_spell(body.spell, body.school_score))


def _cast_roll(cast_input: HazeCastInput, seed: str | None, rules: JSON | None) -> HazeActionResult:
    body = _cast(cast_input, rules)
    used = seed_or_new(seed)
    outcome, rolls = recorded(cast, body, seeded_rng(used))
    dice = effect_dice_for(cast_spec(body), body.rules)
    return with_rolls(HazeActionResult.from_domain(outcome, dice, used), rolls)


def _complex_request(
    action: HazeComplexInput,
    participants: list[HazeParticipantInput],
    max_rounds: int,
    rules: JSON | None,
) -> HazeComplexOddsRequest:
    data = {
        "action": action.to_dict(),
        "participants": [p.to_dict() for p in participants],
        "max_rounds": max_rounds,
        "rules": table_rules(rules),
    }
    return checked(HazeComplexOddsRequest, data)


@strawberry.type
class HazeCheckQuery(HazeCombatQuery):
    @strawberry.field(description="The ability-check catalogue of haze.txt.")
    def haze_ability_checks(self) -> list[HazeCheckEntry]:
        return [HazeCheckEntry.from_domain(entry) for entry in CATALOGUE]

    @strawberry.field(description="Roll an ability check through the action roll.")
    def haze_ability_check(
        self, check: HazeAbilityCheckInput, seed: str | None = None, rules: RulesArg = None
    ) -> HazeAbilityCheckPayload:
        return answered(lambda: _rolled_check(check, seed, rules))

    @strawberry.field(description="Exact odds of an ability check's action roll.")
    def haze_ability_check_odds(
        self, check: HazeAbilityCheckInput, rules: RulesArg = None
    ) -> HazeActionOddsPayload:
        return answered(lambda: _check_odds(check, rules))

    @strawberry.field(description="May the AE learn this spell (school score above difficulty)?")
    def haze_learn_spell(self, spell: HazeSpellInput, school_score: int) -> HazeLearnedSpellPayload:
        return answered(lambda: _learned(spell, school_score))

    @strawberry.field(description="Cast a spell or prayer: its difficulty applies to the roll.")
    def haze_cast_spell(
        self, cast_input: CastArg, seed: str | None = None, rules: RulesArg = None
    ) -> HazeActionPayload:
        return answered(lambda: _cast_roll(cast_input, seed, rules))

    @strawberry.field(description="Exact odds of casting a spell or prayer.")
    def haze_cast_spell_odds(
        self, cast_input: CastArg, rules: RulesArg = None
    ) -> HazeActionOddsPayload:
        return answered(lambda: HazeActionOdds.from_domain(cast_odds(_cast(cast_input, rules))))

    @strawberry.field(
        description="Exact odds of a complex action (assists: several participants): how and "
        "after how many rounds it ends."
    )
    async def haze_complex_action_odds(
        self,
        action: HazeComplexInput,
        participants: list[HazeParticipantInput],
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        rules: RulesArg = None,
    ) -> HazeComplexOddsPayload:
        body = answered(lambda: _complex_request(action, participants, max_rounds, rules))
        if not isinstance(body, HazeComplexOddsRequest):
            return body

        def odds() -> HazeComplexOdds:
            found = complex_odds(body.action, body.participants, body.rules, body.max_rounds)
            return HazeComplexOdds.from_domain(found)

        return await run_in_threadpool(answered, odds)
