"""The rules systems' REST operations (The Maze, Haze), one table row each.

A row is (path under the system's prefix, operationId, summary, body model or None for a
GET, the response's main fields as `name[:type[?]]` words).
"""

from __future__ import annotations

from pydantic import BaseModel

from api.openapi.spec import Operation, obj
from api.rest import haze_checks as hz
from api.rest.haze import (
    EffectBody,
    HazeActionRequest,
    HazeOddsRequest,
    InitiativeBody,
    ReactionBody,
)
from api.rest.maze import CheckBody, DamageBody, GroupBody, LootBody, OpposedBody
from services.haze import checks, spells
from services.haze import requests as haze
from services.maze.requests import CheckRequest, LootRequest, ValidateRequest

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
    """The Maze and Haze operations."""
    return [
        *_operations("maze", MAZE),
        *_operations("haze", HAZE),
    ]
