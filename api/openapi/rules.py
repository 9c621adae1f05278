"""The rules systems' REST operations (The Maze, Maze Rats), one table row each.

A row is (path under the system's prefix, operationId, summary, body model or None for a
GET, the response's main fields as `name[:type[?]]` words).
"""

from __future__ import annotations

from pydantic import BaseModel

from api.openapi.spec import Operation, obj
from api.rest import mazerats as mr
from api.rest.maze import CheckBody, DamageBody, GroupBody, LootBody, OpposedBody
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
    """The Maze and Maze Rats operations."""
    return [*_operations("maze", MAZE), *_operations("mazerats", MAZERATS)]
