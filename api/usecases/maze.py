"""The Maze use cases (/v1/maze/*, `mazeCheck`, ...): the rules are services/maze/usecases.py.

The API adds what the pure services may not take for themselves: a fresh seed when the
caller gives none, and the dice the rules rolled, rendered on request (`render`:
`dice_rolls`). A content pack is the documented free-form exception (`JSON` in GraphQL;
its schema is the OpenAPI `ContentPack`). Rolls run in the threadpool; exact odds pay
one token like any rules call (docs/OPERATIONS.md, "Price list").
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, create_model

from api.rolls import RENDER_NOTE, DiceRolls, Rendered, rolled
from api.usecases.markers import FREE_FORM
from api.usecases.table import Service, UseCase, publishable
from services.maze import requests as req
from services.maze import results as out
from services.maze import usecases as maze
from services.maze.catalog import ContentPack

Pack = Annotated[ContentPack | None, FREE_FORM]
SEEDED = "The answer carries the seed; sending it back replays the roll."
GET_ERRORS = (401, 429)


def request(name: str, model: type[BaseModel], rolls: bool = False) -> type[BaseModel]:
    """The API's request `name`: the service's `model`, its content pack free-form in
    GraphQL, and `render` when it rolls."""
    bases = (model, Rendered) if rolls else (model,)
    pack: dict[str, Any] = (
        {"content_pack": (Pack, None)} if "content_pack" in model.model_fields else {}
    )
    return create_model(name, __base__=bases, __doc__=model.__doc__, __module__=__name__, **pack)


def rolling(
    name: str, path: str, field: str, body: tuple[str, type[BaseModel]], service: Any,
    result: type[BaseModel], summary: str,
) -> UseCase:  # fmt: skip
    """The row of a use case that rolls: seeded, in the threadpool, `dice_rolls` on request."""
    answer = create_model(result.__name__, __base__=(DiceRolls, result), __doc__=result.__doc__,
                          __module__=__name__)  # fmt: skip
    run: Service = rolled(service, answer)
    return UseCase(name, "POST", path, "query", field, request(*body, rolls=True), answer, run,
                   summary, "maze", description=SEEDED + RENDER_NOTE, cpu=True)  # fmt: skip


ROWS: tuple[UseCase, ...] = publishable(
    rolling("mazeCheck", "/maze/checks", "maze_check", ("MazeCheckRequest", req.CheckRoll),
            maze.check, out.MazeCheck, "Roll a check"),
    UseCase("mazeCheckOdds", "POST", "/maze/checks/odds", "query", "maze_check_odds",
            request("MazeCheckOddsRequest", req.CheckRequest), out.MazeCheckOdds,
            maze.check_odds, "Exact odds of a check", "maze",
            description="Exact P(success), P(each band), taking half against rolling."),
    rolling("mazeDamage", "/maze/damage", "maze_damage_check",
            ("MazeDamageRequest", req.DamageRequest), maze.damage, out.MazeDamage,
            "Roll damage and its injury"),
    rolling("mazeLoot", "/maze/loot-checks", "maze_loot_check",
            ("MazeLootRequest", req.LootRoll), maze.loot, out.MazeLoot, "Roll a loot check"),
    UseCase("mazeLootOdds", "POST", "/maze/loot-checks/odds", "query", "maze_loot_odds",
            request("MazeLootOddsRequest", req.LootRequest), out.MazeLootOdds,
            maze.loot_class_odds, "Exact odds of each loot class", "maze"),
    rolling("mazeGroup", "/maze/group-checks", "maze_group_check",
            ("MazeGroupRequest", req.GroupRequest), maze.group, out.MazeGroup,
            "Roll a group check"),
    rolling("mazeOpposed", "/maze/opposed", "maze_opposed_check",
            ("MazeOpposedRequest", req.OpposedRequest), maze.opposed, out.MazeOpposed,
            "Roll an opposed check"),
    UseCase("mazeValidate", "POST", "/maze/characters/validate", "query",
            "maze_validate_character", request("MazeValidateRequest", req.ValidateRequest),
            out.MazeValidation, maze.validation, "Validate a character sheet", "maze"),
    UseCase("mazeSkills", "GET", "/maze/skills", "query", "maze_skills", None, out.MazeSkills,
            maze.skills, "The default skills", "maze", errors=GET_ERRORS),
    UseCase("mazeTraits", "GET", "/maze/traits", "query", "maze_traits", None, out.MazeTraits,
            maze.traits, "The default traits", "maze", errors=GET_ERRORS),
)  # fmt: skip
