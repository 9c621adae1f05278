"""GraphQL: the Haze combat queries — re-actions (with exact hit odds) and initiative."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry
from strawberry.scalars import JSON

from api.graphql.chance import Chance
from api.graphql.haze.combat_payloads import (
    HazeInitiativePayload,
    HazeReactionOddsPayload,
    HazeReactionPayload,
)
from api.graphql.haze.combatant_input import HazeCombatantInput
from api.graphql.haze.initiative import HazeInitiative
from api.graphql.haze.inputs import HazeActionInput
from api.graphql.haze.reaction import HazeReaction
from api.graphql.haze.reaction_odds import HazeReactionOdds
from api.graphql.haze.validate import Invalid, checked, seed_or_new, table_rules
from api.graphql.problem import Problem
from api.graphql.rolled import with_rolls
from api.rolls import recorded
from services.dice import seeded_rng
from services.haze import HazeError, action_odds
from services.haze.initiative import roll_initiatives
from services.haze.reaction import hit_odds, penalised, roll_reaction
from services.haze.requests import InitiativeRequest, ReactionRequest

RulesArg = Annotated[JSON | None, strawberry.argument(description="HazeRules (camelCase).")]
RateArg = Annotated[
    int | None, strawberry.argument(description="Initiative success rate (give both or neither).")
]


def _reaction(
    attack: HazeActionInput,
    defence: HazeActionInput | None,
    attacker_initiative: int | None,
    defender_initiative: int | None,
    rules: JSON | None,
) -> ReactionRequest:
    data: dict[str, Any] = {
        "attack": attack.to_dict(),
        "defence": defence.to_dict() if defence is not None else None,
        "attacker_initiative": attacker_initiative,
        "defender_initiative": defender_initiative,
        "rules": table_rules(rules),
    }
    return checked(ReactionRequest, data)


@strawberry.type
class HazeCombatQuery:
    @strawberry.field(description="Roll an attack and the defender's re-action (or none).")
    def haze_reaction(
        self,
        attack: HazeActionInput,
        defence: HazeActionInput | None = None,
        attacker_initiative: RateArg = None,
        defender_initiative: RateArg = None,
        seed: str | None = None,
        rules: RulesArg = None,
    ) -> HazeReactionPayload:
        try:
            body = _reaction(attack, defence, attacker_initiative, defender_initiative, rules)
            used = seed_or_new(seed)
            rolled, rolls = recorded(
                roll_reaction, body.attack, body.defence, seeded_rng(used), body.rules, body.penalty
            )
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(HazeReaction.from_domain(rolled, used), rolls)

    @strawberry.field(description="The exact chance an attack lands through the re-action.")
    def haze_reaction_odds(
        self,
        attack: HazeActionInput,
        defence: HazeActionInput | None = None,
        attacker_initiative: RateArg = None,
        defender_initiative: RateArg = None,
        rules: RulesArg = None,
    ) -> HazeReactionOddsPayload:
        try:
            body = _reaction(attack, defence, attacker_initiative, defender_initiative, rules)
            if body.defence is None:
                odds = action_odds(body.attack, body.rules).success
            else:
                odds = hit_odds(body.attack, penalised(body.defence, body.penalty), body.rules)
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return HazeReactionOdds(penalty=body.penalty, hit=Chance.from_fraction(odds))

    @strawberry.field(description="Everyone rolls wits + initiative; an ambush: ambushers only.")
    def haze_initiative(
        self,
        combatants: list[HazeCombatantInput],
        ambushers: list[str] | None = None,
        seed: str | None = None,
        rules: RulesArg = None,
    ) -> HazeInitiativePayload:
        try:
            data = {
                "combatants": [c.to_dict() for c in combatants],
                "ambushers": ambushers or [],
                "rules": table_rules(rules),
                "seed": seed,
            }
            body = checked(InitiativeRequest, data)
            used = seed_or_new(body.seed)
            args = (body.combatants, seeded_rng(used), body.rules, body.ambushers)
            result, rolls = recorded(roll_initiatives, *args)
        except Invalid as exc:
            return exc.problem
        except HazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(HazeInitiative.from_domain(result, used), rolls)
