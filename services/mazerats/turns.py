"""A turn: two actions, one attack a round, spells take two, no maneuvers in heavy armor."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from services.mazerats.errors import RuleViolation
from services.mazerats.gear import Armor

ACTIONS_PER_TURN = 2


class Action(StrEnum):
    """What a character can do with an action (the text's list is open: 'other')."""

    ATTACK = "attack"
    MOVE = "move"
    DRINK_POTION = "drink_potion"
    MANEUVER = "maneuver"
    CAST_SPELL = "cast_spell"
    OTHER = "other"


# "Casting a spell takes two actions."
COST = {Action.CAST_SPELL: 2}


def check_maneuver_allowed(armor: Armor) -> None:
    """Refuse a combat maneuver by a character in heavy armor."""
    if armor is Armor.HEAVY:
        raise RuleViolation(
            "combat maneuvers are not allowed in heavy armor", code="maneuver_in_heavy_armor"
        )


def check_turn(actions: Sequence[Action], armor: Armor = Armor.NONE) -> int:
    """Refuse a turn the rules forbid; return the actions it spends."""
    spent = sum(COST.get(a, 1) for a in actions)
    if spent > ACTIONS_PER_TURN:
        raise RuleViolation(
            f"a turn has {ACTIONS_PER_TURN} actions; these take {spent}", code="too_many_actions"
        )
    # One turn per side per round, so "only once per round" is once per turn.
    if sum(a is Action.ATTACK for a in actions) > 1:
        raise RuleViolation("a character attacks only once per round", code="attack_once")
    if Action.MANEUVER in actions:
        check_maneuver_allowed(armor)
    return spent
