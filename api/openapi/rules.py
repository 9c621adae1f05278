"""The rules systems' REST operations (Maze Rats, Haze), one table row each.

A row is (path under the system's prefix, operationId, summary, body model or None for a
GET, the response's main fields as `name[:type[?]]` words).
"""

from __future__ import annotations

from pydantic import BaseModel

from api.openapi.spec import Operation, obj
from api.rest import haze_checks as hz
from api.rest import mazerats as mr
from api.rest.haze import (
    EffectBody,
    HazeActionRequest,
    HazeOddsRequest,
    InitiativeBody,
    ReactionBody,
)
from services.haze import checks, spells
from services.haze import requests as haze
from services.mazerats import play_requests as play
from services.mazerats import requests as rats
from services.mazerats.spells import SpellRequest

Row = tuple[str, str, str, type[BaseModel] | None, str]

# Bad API key, body too large, body invalid (or refused by the rules), rate limited.
BODY_ERRORS = (401, 413, 422, 429)
GET_ERRORS = (401, 429)

MAZERATS: list[Row] = [
    ("saves", "ratsSave", "Roll a save", mr.SaveBody, "total:integer? success:boolean"),
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
        mr.OpposedSaveBody,
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
        mr.AttackBody,
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
        mr.ReactionBody,
        "cooperative:boolean cooperative_odds:chance",
    ),
    (
        "morale",
        "ratsMorale",
        "Roll morale when due",
        mr.MoraleBody,
        "due:boolean morale:object? holds_odds:chance",
    ),
    (
        "initiative",
        "ratsInitiative",
        "Roll initiative",
        mr.InitiativeBody,
        "first surprised:array",
    ),
    (
        "healing",
        "ratsHealing",
        "Heal by ration or bandage",
        mr.HealBody,
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
        mr.CastBody,
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
        hz.CheckRollBody,
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
        hz.CastRollBody,
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
    ("effects", "hazeEffect", "Roll effect dice", EffectBody, ""),
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
        ReactionBody,
        "hit_odds:chance",
    ),
    (
        "reactions/odds",
        "hazeReactionOdds",
        "Exact chance an attack lands",
        haze.ReactionRequest,
        "penalty:integer hit:chance",
    ),
    ("initiative", "hazeInitiative", "Roll initiative", InitiativeBody, "order:array"),
    *HAZE_CHECKS,
]

SEEDED = "The response carries the seed; sending it back replays the roll."
RENDERED = (
    " With `render` (`[]`, or renderings such as `foundry`), `dice_rolls` lists every roll the "
    "rules made, each with its dice, like `/v1/dice/roll`."
)


def _operations(tag: str, rows: list[Row]) -> list[Operation]:
    out: list[Operation] = []
    for path, operation_id, summary, body, fields in rows:
        words = fields.split()
        seeded = body is not None and "seed" in body.model_fields
        if seeded and "seed:string" not in words:
            words.append("seed:string")
        rendered = body is not None and "render" in body.model_fields
        if rendered:
            words.append("dice_rolls:dice_rolls")
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
                description=(SEEDED if seeded else "") + (RENDERED if rendered else ""),
            )
        )
    return out


def rules_operations() -> list[Operation]:
    """The Maze Rats and Haze operations (The Maze's are use-case rows)."""
    return [
        *_operations("mazerats", MAZERATS),
        *_operations("haze", HAZE),
    ]
