"""The Maze's hand-written REST operations, one table row each.

A row is (path under the system's prefix, operationId, summary, body model or None for a
GET, the response's main fields as `name[:type[?]]` words).
"""

from __future__ import annotations

from pydantic import BaseModel

from api.openapi.spec import Operation, obj
from api.rest.maze import CheckBody, DamageBody, GroupBody, LootBody, OpposedBody
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
    return _operations("maze", MAZE)
