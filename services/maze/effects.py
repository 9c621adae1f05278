"""Effects: what each does to a check's die, modifier and outcome, and immunities."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from services.maze.abilities import EFFECT_DIE, Ability
from services.maze.bands import BandName


class MazeEffect(StrEnum):
    """The effects of the text's table."""

    HUNGER = "hunger"
    THIRST = "thirst"
    POISON = "poison"
    FEAR = "fear"
    EXHAUSTION = "exhaustion"
    TUNNEL_VISION = "tunnel_vision"
    CONTENTMENT = "contentment"


Effect = MazeEffect  # the name the rules use; GraphQL and OpenAPI see MazeEffect


CONTENTMENT_IMMUNITIES = frozenset({Effect.HUNGER, Effect.THIRST, Effect.FEAR, Effect.EXHAUSTION})
# Effects that call for damage rolls while they last (poison until treated).
DAMAGING = (Effect.HUNGER, Effect.THIRST, Effect.POISON)


def active_effects(effects: Iterable[Effect], immunities: Iterable[Effect] = ()) -> set[Effect]:
    """The effects that apply: Contentment's and the traits' immunities removed."""
    held = set(effects)
    immune = set(immunities)
    if Effect.CONTENTMENT in held:
        immune |= CONTENTMENT_IMMUNITIES
    return held - immune


def effect_die(effects: set[Effect], ability: Ability, die: int) -> int:
    """The die to roll: d4 under Exhaustion (every check) or Fear (Surroundings)."""
    if Effect.EXHAUSTION in effects:
        return EFFECT_DIE
    if Effect.FEAR in effects and ability is Ability.SURROUNDINGS:
        return EFFECT_DIE
    return die


def effect_modifier(effects: set[Effect], ability: Ability, modifier: int) -> int:
    """Fear turns the skill modifier of a Ready check negative (a +2 becomes −2)."""
    if Effect.FEAR in effects and ability is Ability.READY:
        return -abs(modifier)
    return modifier


def automatic_band(
    effects: set[Effect],
    ability: Ability,
    checked_this_run: Iterable[Ability],
    claim_tunnel_vision: bool,
) -> BandName | None:
    """A band the effects impose without a roll, or None when the check is rolled.

    Contentment's automatic Failure comes first: it says the check "automatically
    becomes" a Failure, while Tunnel-vision's success is one the character "may" take.
    """
    first = ability not in set(checked_this_run)
    if Effect.CONTENTMENT in effects and first and ability in (Ability.READY, Ability.SURROUNDINGS):
        return BandName.FAILURE
    if Effect.TUNNEL_VISION in effects and ability is Ability.READY and claim_tunnel_vision:
        return BandName.MAJOR_SUCCESS
    return None


def damage_rolls_due(effects: Iterable[Effect], immunities: Iterable[Effect] = ()) -> list[Effect]:
    """The effects that call for a (repeat) damage roll now: Hunger, Thirst, Poison."""
    active = active_effects(effects, immunities)
    return [e for e in DAMAGING if e in active]


def gain_effect(
    effects: frozenset[Effect], effect: Effect, immunities: Iterable[Effect] = ()
) -> frozenset[Effect]:
    """Add an effect unless the character is immune to it."""
    if effect not in active_effects({effect} | effects, immunities):
        return effects
    return effects | {effect}
