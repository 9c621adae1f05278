"""Attacks: 2d6 + Combat Bonus must exceed AC; damage is the difference, +1 heavy weapon."""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from services.dice import Rng, roll
from services.mazerats.errors import MazeRatsError, RuleViolation
from services.mazerats.twodsix import pmf

HEAVY_WEAPON_DAMAGE = 1
# Combat Bonus starts at +1 and rises by at most three level features (levels 3, 6, 9).
MAX_COMBAT_BONUS = 10
MAX_AC = 20


class Attack(BaseModel):
    """One attack roll: the dice, the total against AC, hit and damage dealt."""

    model_config = ConfigDict(frozen=True)

    dice: tuple[int, ...]
    combat_bonus: int
    ac: int
    total: int
    hit: bool
    damage: int


class AttackOdds(BaseModel):
    """Exact chance to hit and the distribution of damage (0 is a miss)."""

    model_config = ConfigDict(frozen=True)

    hit: Fraction
    damage: dict[int, Fraction]
    mean_damage: Fraction


def _check_bounds(combat_bonus: int, ac: int) -> None:
    if not -MAX_COMBAT_BONUS <= combat_bonus <= MAX_COMBAT_BONUS:
        raise MazeRatsError(
            f"combat bonus must be within ±{MAX_COMBAT_BONUS}", code="combat_bonus_out_of_range"
        )
    if not 0 <= ac <= MAX_AC:
        raise MazeRatsError(f"AC must be within 0..{MAX_AC}", code="ac_out_of_range")


def check_attack_allowed(ranged: bool, in_close_combat: bool) -> None:
    """Refuse a ranged attack made in close combat."""
    if ranged and in_close_combat:
        raise RuleViolation(
            "ranged attacks are prohibited in close combat", code="ranged_in_close_combat"
        )


def attack_expression(combat_bonus: int, ac: int) -> str:
    """The dice notation of an attack: the total must exceed AC."""
    return f"2d6{combat_bonus:+d} > {ac}"


def damage_for(total: int, ac: int, heavy_weapon: bool) -> int:
    """The difference over AC, +1 with a heavy weapon; 0 when the attack misses."""
    if total <= ac:
        return 0
    return total - ac + (HEAVY_WEAPON_DAMAGE if heavy_weapon else 0)


def roll_attack(
    rng: Rng,
    combat_bonus: int = 1,
    ac: int = 6,
    heavy_weapon: bool = False,
    ranged: bool = False,
    in_close_combat: bool = False,
) -> Attack:
    """Roll an attack against AC and the damage it deals."""
    _check_bounds(combat_bonus, ac)
    check_attack_allowed(ranged, in_close_combat)
    result = roll(attack_expression(combat_bonus, ac), rng)
    assert result.check is not None
    return Attack(
        dice=tuple(d.face for d in result.dice),
        combat_bonus=combat_bonus,
        ac=ac,
        total=result.total,
        hit=result.check.success,
        damage=damage_for(result.total, ac, heavy_weapon),
    )


def attack_odds(combat_bonus: int = 1, ac: int = 6, heavy_weapon: bool = False) -> AttackOdds:
    """The exact probability to hit and of each amount of damage."""
    _check_bounds(combat_bonus, ac)
    damage: dict[int, Fraction] = {}
    for total, p in pmf(combat_bonus).items():
        dealt = damage_for(total, ac, heavy_weapon)
        damage[dealt] = damage.get(dealt, Fraction(0)) + p
    hit = 1 - damage.get(0, Fraction(0))
    mean = sum((d * p for d, p in damage.items()), Fraction(0))
    return AttackOdds(hit=hit, damage=dict(sorted(damage.items())), mean_damage=mean)


def apply_damage(hp: int, damage: int) -> tuple[int, bool]:
    """HP after damage (never below 0) and whether the character is dead: zero HP is death."""
    left = max(0, hp - damage)
    return left, left == 0
