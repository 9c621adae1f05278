"""The rules systems' REST operations (The Maze, Maze Rats, Haze), one table row each.

A row is (path under the system's prefix, operationId, summary, body model or None for a
GET, the response's main fields as `name[:type[?]]` words).
"""

from __future__ import annotations

from pydantic import BaseModel

from api.openapi.spec import Operation, obj
from api.rest.haze import HazeActionRequest, HazeOddsRequest
from api.rest.maze import CheckBody, DamageBody, GroupBody, LootBody, OpposedBody
from services.haze import checks, spells
from services.haze import requests as haze
from services.maze.requests import CheckRequest, LootRequest, ValidateRequest
from services.mazerats import play_requests as play
from services.mazerats import requests as rats
from services.mazerats.spells import SpellRequest

Row = tuple[str, str, str, type[BaseModel] | None, str]

# Bad API key, body too large, body invalid (or refused by the rules), rate limited.
BODY_ERRORS = (401, 413, 422, 429)
GET_ERRORS = (401, 429)

MAZE: list[Row] = [
    ("checks", "mazeCheck", "Roll a check", CheckBody, "band success tokens_awarded reach"),
    (
        "checks/odds",
        "mazeCheckOdds",
        "Exact odds of a check",
        CheckRequest,
        "spec:object success:chance bands:object half:object?",
    ),
    (
        "damage",
        "mazeDamage",
        "Roll damage and its injury",
        DamageBody,
        "injury tokens_awarded odds:object half:object",
    ),
    ("loot-checks", "mazeLoot", "Roll a loot check", LootBody, "total loot_class"),
    (
        "loot-checks/odds",
        "mazeLootOdds",
        "Exact odds of each loot class",
        LootRequest,
        "classes:object",
    ),
    (
        "group-checks",
        "mazeGroup",
        "Roll a group check",
        GroupBody,
        "success tokens_awarded:array odds:object",
    ),
    ("opposed", "mazeOpposed", "Roll an opposed check", OpposedBody, "odds:object"),
    (
        "characters/validate",
        "mazeValidate",
        "Validate a character sheet",
        ValidateRequest,
        "valid:boolean issues:array",
    ),
]

MAZERATS: list[Row] = [
    ("saves", "ratsSave", "Roll a save", rats.SaveRequest, "total:integer? success:boolean"),
    (
        "saves/odds",
        "ratsSaveOdds",
        "Exact chance a save succeeds",
        rats.SaveOddsRequest,
        "success:chance",
    ),
    (
        "opposed-saves",
        "ratsOpposed",
        "Roll an opposed save",
        rats.OpposedSaveRequest,
        "rounds winner",
    ),
    (
        "opposed-saves/odds",
        "ratsOpposedOdds",
        "Each side's exact chance to win",
        rats.OpposedOddsRequest,
        "attacker:chance defender:chance tie:chance",
    ),
    (
        "attacks",
        "ratsAttack",
        "Roll an attack and its damage",
        rats.AttackRequest,
        "hit:boolean damage",
    ),
    (
        "attacks/odds",
        "ratsAttackOdds",
        "Chance to hit and damage distribution",
        rats.AttackOddsRequest,
        "ac:integer hit:chance mean_damage:chance damage:array",
    ),
    (
        "reactions",
        "ratsReaction",
        "Roll a reaction",
        play.ReactionRequest,
        "cooperative:boolean cooperative_odds:chance",
    ),
    (
        "morale",
        "ratsMorale",
        "Roll morale when due",
        play.MoraleRequest,
        "due:boolean morale:object? holds_odds:chance",
    ),
    (
        "initiative",
        "ratsInitiative",
        "Roll initiative",
        play.InitiativeRequest,
        "first surprised:array",
    ),
    (
        "healing",
        "ratsHealing",
        "Heal by ration or bandage",
        play.HealRequest,
        "hp:integer used_today:array",
    ),
    (
        "levels",
        "ratsLevel",
        "Level and features for some XP",
        play.StandingRequest,
        "level:integer max_hp:integer sigil_slots:integer",
    ),
    (
        "level-ups",
        "ratsLevelUp",
        "Gain the next level",
        play.LevelUpRequest,
        "level:integer abilities:object",
    ),
    (
        "sigil-slots",
        "ratsInscribe",
        "Bear new sigils",
        play.InscribeRequest,
        "kept:array lost:array slots:integer",
    ),
    (
        "turns",
        "ratsTurn",
        "Check a turn",
        play.TurnRequest,
        "allowed:boolean actions_spent:integer",
    ),
    ("characters", "ratsCharacter", "Generate a character", rats.CharacterRequest, "seed:string"),
    ("sigils", "ratsSigils", "Generate sigils", rats.SigilRequest, "sigils:array"),
    ("spell-costs", "ratsSpellCost", "HP cost of a spell", SpellRequest, "cost tier"),
    (
        "spell-casts",
        "ratsSpellCast",
        "Cast a spell: HP lost, corruption save",
        play.CastRequest,
        "price:object actions:integer hp:integer dead:boolean corrupted:boolean "
        "corruption_save:object? resist_odds:chance?",
    ),
    ("market", "ratsMarket", "The market's wares", None, "wares:array"),
    ("hirelings", "ratsHirelings", "Hirelings for hire", None, "hirelings:array"),
]

ODDS = "success:chance fumble:chance failure:chance success_rate:array"
HAZE_CHECKS: list[Row] = [
    ("ability-checks", "hazeAbilityChecks", "The ability-check catalogue", None, "checks:array"),
    (
        "ability-checks",
        "hazeAbilityCheck",
        "Roll an ability check",
        checks.HazeCheckRollRequest,
        "check:string difficulty:integer outcome:object success_chance:chance",
    ),
    (
        "ability-checks/odds",
        "hazeAbilityCheckOdds",
        "Exact odds of an ability check",
        checks.HazeCheckRequest,
        f"check:string {ODDS}",
    ),
    (
        "spells/learn",
        "hazeLearnSpell",
        "May a spell or prayer be learned",
        spells.HazeLearnRequest,
        "spell:object school_score:integer level:integer",
    ),
    (
        "spells/cast",
        "hazeCastSpell",
        "Cast a spell or prayer",
        spells.HazeCastRollRequest,
        "success:boolean effect_dice:integer",
    ),
    (
        "spells/cast/odds",
        "hazeCastSpellOdds",
        "Exact odds of casting a spell or prayer",
        spells.HazeCastRequest,
        ODDS,
    ),
    (
        "complex-actions/odds",
        "hazeComplexActionOdds",
        "Exact odds of a complex action",
        haze.HazeComplexOddsRequest,
        "done:chance fumbled:chance exhausted:chance given_up:chance mean_rounds:chance "
        "rounds:array",
    ),
]

HAZE: list[Row] = [
    ("actions", "hazeAction", "Roll an action", HazeActionRequest, "success:boolean effect_dice"),
    (
        "actions/odds",
        "hazeActionOdds",
        "Exact odds of an action",
        HazeOddsRequest,
        ODDS,
    ),
    ("effects", "hazeEffect", "Roll effect dice", haze.EffectRequest, ""),
    (
        "effects/odds",
        "hazeEffectOdds",
        "Exact report of the effect dice",
        haze.EffectOddsRequest,
        "",
    ),
    (
        "reactions",
        "hazeReaction",
        "Roll an attack and its re-action",
        haze.ReactionRollRequest,
        "hit_odds:chance",
    ),
    (
        "reactions/odds",
        "hazeReactionOdds",
        "Exact chance an attack lands",
        haze.ReactionRequest,
        "penalty:integer hit:chance",
    ),
    ("initiative", "hazeInitiative", "Roll initiative", haze.InitiativeRequest, "order:array"),
    *HAZE_CHECKS,
]

SEEDED = "The response carries the seed; sending it back replays the roll."


def _operations(tag: str, rows: list[Row]) -> list[Operation]:
    out: list[Operation] = []
    for path, operation_id, summary, body, fields in rows:
        words = fields.split()
        seeded = body is not None and "seed" in body.model_fields
        if seeded and "seed:string" not in words:
            words.append("seed:string")
        out.append(
            Operation(
                "post" if body is not None else "get",
                f"/v1/{tag}/{path}",
                operation_id,
                summary,
                tag,
                body,
                obj(*words),
                errors=BODY_ERRORS if body is not None else GET_ERRORS,
                description=SEEDED if seeded else "",
            )
        )
    return out


def rules_operations() -> list[Operation]:
    """The Maze, Maze Rats and Haze operations."""
    return [
        *_operations("maze", MAZE),
        *_operations("mazerats", MAZERATS),
        *_operations("haze", HAZE),
    ]
