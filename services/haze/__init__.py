"""Haze rules as pure functions and pydantic models.

Randomness comes in as a `services.dice.Rng`; every table choice is a `HazeRules` field.
"""

from services.haze.abilities import (
    ASPECTS,
    GRID,
    Abilities,
    AbilityName,
    Aspect,
    aspect_of,
    health_ability,
    quality_of,
)
from services.haze.action import (
    ActionSpec,
    Attack,
    Weapon,
    arbitrary_success_rate,
    attack_difficulty,
    difficulty,
    target,
)
from services.haze.character import Character, Skill, skill_action, unskilled_action
from services.haze.complex import ComplexAction, exhaust, give_up, step
from services.haze.complex_round import Participant, RoundResult, play_round
from services.haze.effect import (
    MAX_EFFECT_DICE,
    EffectRoll,
    effect_dice,
    effect_dice_for,
    effect_distribution,
    roll_effect,
)
from services.haze.errors import HazeError
from services.haze.exhaustion import (
    AspectPool,
    Exhaustion,
    action_cost,
    end_round,
    max_actions_per_round,
    spend,
    start,
)
from services.haze.initiative import (
    InitiativeRoll,
    ambush_first_round,
    ambush_penalty,
    initiative_order,
    initiative_spec,
    reaction_penalty,
)
from services.haze.odds import ActionOdds, action_odds
from services.haze.outcome import ActionOutcome, arbitrary, resolve, roll_action
from services.haze.reaction import ReactionOutcome, hit_odds, resolve_reaction
from services.haze.rules import DEFAULT_RULES, HazeRules

__all__ = [
    "ASPECTS",
    "DEFAULT_RULES",
    "GRID",
    "MAX_EFFECT_DICE",
    "Abilities",
    "AbilityName",
    "ActionOdds",
    "ActionOutcome",
    "ActionSpec",
    "Aspect",
    "AspectPool",
    "Attack",
    "Character",
    "ComplexAction",
    "EffectRoll",
    "Exhaustion",
    "HazeError",
    "HazeRules",
    "InitiativeRoll",
    "Participant",
    "ReactionOutcome",
    "RoundResult",
    "Skill",
    "Weapon",
    "action_cost",
    "action_odds",
    "ambush_first_round",
    "ambush_penalty",
    "arbitrary",
    "arbitrary_success_rate",
    "aspect_of",
    "attack_difficulty",
    "difficulty",
    "effect_dice",
    "effect_dice_for",
    "effect_distribution",
    "end_round",
    "exhaust",
    "give_up",
    "health_ability",
    "hit_odds",
    "initiative_order",
    "initiative_spec",
    "max_actions_per_round",
    "play_round",
    "quality_of",
    "reaction_penalty",
    "resolve",
    "resolve_reaction",
    "roll_action",
    "roll_effect",
    "skill_action",
    "spend",
    "start",
    "step",
    "target",
    "unskilled_action",
]
