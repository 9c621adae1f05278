"""Maze Rats use cases shared by REST and GraphQL: one request model in, one outcome out.

Every rule a call applies lives here (whether morale is due, the slots a bearer has, the
attack check of a turn); the API only picks the seed and shapes the answer.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from services.chance import Chance
from services.dice import Rng
from services.mazerats.advancement import MazeRatsAdvancement, level_up
from services.mazerats.character import MazeRatsCharacter
from services.mazerats.combat import Attack, check_attack_allowed, roll_attack
from services.mazerats.encounters import (
    InitiativeOutcome,
    MazeRatsMoraleCheck,
    Reaction,
    morale_check_due,
    resolve_initiative,
    roll_morale,
    roll_reaction,
)
from services.mazerats.generator import generate_character
from services.mazerats.healing import Healing, heal
from services.mazerats.levels import sigil_slots
from services.mazerats.magic import MazeRatsSigil, generate_sigils
from services.mazerats.opposed import OpposedSave, roll_opposed
from services.mazerats.play_requests import (
    HealRequest,
    InitiativeRequest,
    InscribeRequest,
    LevelUpRequest,
    MoraleRequest,
    ReactionRequest,
    TurnRequest,
)
from services.mazerats.requests import (
    AttackRequest,
    CharacterRequest,
    OpposedSaveRequest,
    SaveRequest,
    SigilRequest,
)
from services.mazerats.saves import MazeRatsSaveRoll, roll_save, save_odds
from services.mazerats.sigils import Inscription, inscribe
from services.mazerats.turns import Action, check_turn

# What tells whether morale is due (the rest of a morale request is the check itself).
MORALE_SIGNS = {"leader_defeated", "group_size", "defeated", "max_hp", "hp", "unexpected_danger"}


class MoraleOutcome(BaseModel):
    """Whether a morale check was due and, if due or forced, the check."""

    model_config = ConfigDict(frozen=True)

    due: bool
    morale: MazeRatsMoraleCheck | None
    holds_odds: Chance  # the exact chance the NPC's WIL save succeeds


class ReactionOutcome(Reaction):
    """A reaction roll and the exact chance it is cooperative (the leader's WIL save)."""

    cooperative_odds: Chance


class MazeRatsInscription(Inscription):
    """The bearer's slots, the sigils kept, and those lost to overwriting."""

    slots: int


class MazeRatsTurn(BaseModel):
    """An allowed turn and how many of its two actions it spends."""

    model_config = ConfigDict(frozen=True)

    allowed: bool
    actions_spent: int


def create_character(request: CharacterRequest, rng: Rng, seed: str | None) -> MazeRatsCharacter:
    """A level-1 sheet: every step the request does not choose is rolled with `rng`."""
    return generate_character(
        rng,
        seed=seed,
        name=request.name,
        gear_package=request.gear_package,
        unique_items=request.unique_items,
        ability_row=request.ability_row,
        path=request.path,
        weapon=request.weapon,
        items=request.items,
    )


def initiative(request: InitiativeRequest, rng: Rng) -> InitiativeOutcome:
    """Who acts first and the surprised characters' WIL saves."""
    return resolve_initiative(rng, request.surprised, request.surprised_wills)


def save(request: SaveRequest, rng: Rng) -> MazeRatsSaveRoll:
    """A save (safe and absurd tasks without dice)."""
    return roll_save(rng, request.ability, request.path_covers, request.risk)


def attack(request: AttackRequest, rng: Rng) -> Attack:
    """An attack against the target's AC and its damage."""
    aim = (request.combat_bonus, request.armor_class, request.heavy_weapon)
    return roll_attack(rng, *aim, request.ranged, request.in_close_combat)


def opposed(request: OpposedSaveRequest, rng: Rng) -> OpposedSave:
    """An opposed save (ties rerolled or won by the defender, as the table rules)."""
    return roll_opposed(rng, request.attacker_bonus, request.defender_bonus, request.ties)


def reaction(request: ReactionRequest, rng: Rng) -> ReactionOutcome:
    """The leader's WIL save (success means cooperative), and its exact chance."""
    save = roll_reaction(rng, request.leader_will, request.path_covers)
    odds = Chance.of(save_odds(request.leader_will, request.path_covers))
    return ReactionOutcome(**dict(save), cooperative_odds=odds)


def morale(request: MoraleRequest, rng: Rng) -> MoraleOutcome:
    """Whether a morale check is due and, if due (or forced), the NPC's WIL save."""
    due = morale_check_due(**request.model_dump(include=MORALE_SIGNS))
    rolled = roll_morale(rng, request.will) if due or request.force else None
    return MoraleOutcome(due=due, morale=rolled, holds_odds=Chance.of(save_odds(request.will)))


def healing(request: HealRequest, rng: Rng) -> Healing:
    """Heal by ration (at rest) or bandage (WIL save), once a day each."""
    care = request.model_dump(include={"resting", "will", "path_covers"})
    used = frozenset(request.used_today)
    return heal(rng, request.method, request.hp, request.max_hp, used_today=used, **care)


def advance(request: LevelUpRequest) -> MazeRatsAdvancement:
    """The next level, its feature applied as the player chose."""
    return level_up(
        request.level,
        request.abilities,
        request.combat_bonus,
        choice=request.choice,
        ability=request.ability,
    )


def slots_of(request: InscribeRequest) -> int:
    """The bearer's sigil slots: those given, or its level's."""
    return request.slots if request.slots is not None else sigil_slots(request.level or 1)


def inscription(request: InscribeRequest) -> MazeRatsInscription:
    """Bear new sigils; past the slots the excess is overwritten and lost."""
    slots = slots_of(request)
    kept = inscribe(request.borne, request.new, slots, request.overwrite)
    return MazeRatsInscription(**dict(kept), slots=slots)


def turn(request: TurnRequest) -> MazeRatsTurn:
    """A legal turn and the actions it spends; a turn breaking the rules is refused."""
    if Action.ATTACK in request.actions:
        check_attack_allowed(request.ranged, request.in_close_combat)
    return MazeRatsTurn(allowed=True, actions_spent=check_turn(request.actions, request.armor))


def sigils(request: SigilRequest, rng: Rng) -> list[MazeRatsSigil]:
    """The sigils a shop offers."""
    return generate_sigils(rng, request.count, request.realm, request.part, request.mix_realms)
