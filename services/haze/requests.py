"""Inputs of the Haze use cases, shared by REST and GraphQL.

The nested inputs are the domain's models under Haze names (`HazeAction` is an
`ActionSpec`, …): GraphQL names its input types after them (`HazeActionInput`).
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.errors import field_error
from services.haze.abilities import Aspect, Score
from services.haze.action import ActionSpec, Attack, Level, Modifier, Weapon, unskilled_check
from services.haze.complex import ComplexAction
from services.haze.complex_odds import DEFAULT_MAX_ROUNDS, MAX_PARTICIPANTS, Rounds
from services.haze.complex_round import Participant
from services.haze.effect import MAX_EFFECT_DICE, effect_dice_for
from services.haze.exhaustion import AspectPool, Exhaustion
from services.haze.initiative import Combatant, reaction_penalty
from services.haze.rules import HazeRules

Seed = Annotated[str, Field(min_length=1, max_length=256)]
Rate = Annotated[int, Field(ge=-50, le=50)]
MAX_COMBATANTS = 50


class HazeWeapon(Weapon):
    """A weapon: its difficulty, the strength it requires, and whether it shoots."""


class HazeAttack(Attack):
    """An attack: the weapon, the wielder's strength, the cross wind (ranged shots only)."""

    weapon: HazeWeapon


class HazeAction(ActionSpec):
    """One action roll: ability score, skill level (or unskilled), the GM's difficulty,
    `modifier` (added to the target), `effect_modifier` (added to the effect dice)."""

    attack: HazeAttack | None = None


class HazeCombatant(Combatant):
    """A combatant: name, wits (1–10) and initiative skill level."""


class HazeParticipant(Participant):
    """An AE taking part in a complex action: its roll (`spec`), its exhaustion points left
    and, optionally, its health score (the pool refills to it under `recovery: each_round`)."""

    spec: HazeAction


class HazeComplex(ComplexAction):
    """A complex action so far (a fresh one: its difficulty only)."""


class HazeAspectPool(AspectPool):
    """One aspect's exhaustion points (a rested one: points = health) and this round's
    actions and spending."""


class HazeExhaustion(Exhaustion):
    """The exhaustion points of body, mind and soul."""

    body: HazeAspectPool
    mind: HazeAspectPool
    soul: HazeAspectPool


class HazeRequest(BaseModel):
    """Unknown fields are refused and nothing is coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class HazeOddsRequest(HazeRequest):
    """The exact odds of an action (or of taking an arbitrary success)."""

    action: HazeAction
    arbitrary: bool = Field(
        default=False, description="Take an arbitrary success (skill above the difficulty)."
    )
    rules: HazeRules = Field(default_factory=HazeRules)


class HazeActionRequest(HazeOddsRequest):
    """Roll an action; without a seed the service picks one and returns it."""

    seed: Seed | None = None


class ReactionRequest(HazeRequest):
    """An attack, the defender's re-action (or none), and both initiative success rates."""

    attack: HazeAction
    defence: HazeAction | None = None
    attacker_initiative: Rate | None = None
    defender_initiative: Rate | None = None
    rules: HazeRules = Field(default_factory=HazeRules)

    @model_validator(mode="after")
    def _both_initiatives(self) -> ReactionRequest:
        if (self.attacker_initiative is None) != (self.defender_initiative is None):
            raise ValueError("give both initiative success rates or neither")
        return self

    @property
    def penalty(self) -> int:
        """The re-action's penalty: attacker's initiative success rate less the defender's."""
        if self.attacker_initiative is None or self.defender_initiative is None:
            return 0
        return reaction_penalty(self.attacker_initiative, self.defender_initiative)


class ReactionRollRequest(ReactionRequest):
    """Roll an attack and the defender's re-action (or none)."""

    seed: Seed | None = None


class InitiativeRequest(HazeRequest):
    """Everyone rolls wits + initiative; in an ambush, the ambushers only."""

    combatants: list[HazeCombatant] = Field(min_length=1, max_length=MAX_COMBATANTS)
    ambushers: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(
        default_factory=list, max_length=MAX_COMBATANTS
    )
    rules: HazeRules = Field(default_factory=HazeRules)
    seed: Seed | None = None


class EffectOddsRequest(HazeRequest):
    """Effect dice by count, or from ability + skill (+ modifiers, unskilled)."""

    dice: int | None = Field(default=None, ge=0, le=MAX_EFFECT_DICE)
    ability: Score | None = None
    skill: Level = 0
    modifiers: Modifier = 0
    unskilled: bool = False
    related_skill: bool = False
    rules: HazeRules = Field(default_factory=HazeRules)

    @model_validator(mode="after")
    def _one_source(self) -> EffectOddsRequest:
        if (self.dice is None) == (self.ability is None):
            raise ValueError("give either dice or ability (with skill, modifiers, unskilled)")
        if self.unskilled and self.skill:
            raise field_error("skill", "an unskilled action has no skill level")
        return self

    def count(self) -> int:
        """How many effect dice: as given, or ⌊(ability + skill)/2⌋ + modifiers."""
        if self.dice is not None:
            return self.dice
        assert self.ability is not None
        spec = ActionSpec(
            ability=self.ability,
            skill=self.skill,
            unskilled=self.unskilled,
            related_skill=self.related_skill,
            effect_modifier=self.modifiers,
        )
        unskilled_check(spec)
        return effect_dice_for(spec, self.rules)


class EffectRequest(EffectOddsRequest):
    """Roll effect dice: `dice`, or from ability + skill (+ modifiers, unskilled)."""

    seed: Seed | None = None


class HazeComplexOddsRequest(HazeRequest):
    """A complex action so far, who takes part (assists), and when the AEs would give up."""

    action: HazeComplex
    participants: list[HazeParticipant] = Field(min_length=1, max_length=MAX_PARTICIPANTS)
    max_rounds: Rounds = DEFAULT_MAX_ROUNDS
    rules: HazeRules = Field(default_factory=HazeRules)


class HazeComplexRoundRequest(HazeRequest):
    """One round of a complex action: everyone with points left rolls once (assists), or
    the AEs give up."""

    action: HazeComplex
    participants: list[HazeParticipant] = Field(max_length=MAX_PARTICIPANTS)
    give_up: bool = False
    rules: HazeRules = Field(default_factory=HazeRules)
    seed: Seed | None = None


class HazeExhaustionRequest(HazeRequest):
    """Pay for actions in order (each names its aspect), then maybe end the round."""

    state: HazeExhaustion
    actions: list[Aspect] = Field(default_factory=list, max_length=30)
    end_round: bool = False
    rules: HazeRules = Field(default_factory=HazeRules)
