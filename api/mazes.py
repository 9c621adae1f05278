"""Maze definitions over the API: the presets a session accepts, and checking a custom one.

REST (`GET /v1/mazes/presets`, `POST /v1/mazes/validate`) and GraphQL (`mazePresets`,
`validateMazeDefinition`) share these functions. Checking a definition never raises: a
definition `createSession` would refuse comes back with its `problems` (pydantic's
locations and error types, without the input echoed back), and a definition it would
accept but that cannot be won as written comes back valid with `warnings`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from api.bodies import validation_errors
from api.sessions.requests import PRESETS
from services.labyrinth import MazeDefinition
from services.labyrinth.cards import build_cards
from services.labyrinth.vocab import CardKind

# The engine's own name for a preset another name also reaches.
ALIASES = {"standard26": "standard_deck"}


class ValidateDefinition(BaseModel):
    """A maze definition to check (the `definition` of `POST /v1/sessions`)."""

    model_config = ConfigDict(extra="forbid")

    definition: Any = Field(
        description="A MazeDefinition: name, dc, variant, deck, pool, trap_table, "
        "monster_table, victory, settings."
    )


def presets() -> list[dict[str, Any]]:
    """Every preset name `createSession` accepts, with its full definition."""
    return [
        {
            "name": name,
            "alias_of": ALIASES.get(name),
            "title": maze.name,
            "variant": maze.variant,
            "dc": maze.dc,
            "definition": maze.model_dump(mode="json"),
        }
        for name, maze in PRESETS.items()
    ]


def _issue(loc: list[Any], code: str, message: str) -> dict[str, Any]:
    return {"field": ".".join(str(p) for p in loc) or None, "code": code, "message": message}


def _warnings(maze: MazeDefinition) -> list[dict[str, Any]]:
    """Definitions the engine plays but nobody can win as written."""
    deck, _pool = build_cards(maze)
    kinds = [card.kind for card in deck]
    out: list[dict[str, Any]] = []
    paths = kinds.count(CardKind.RIGHT_PATH)
    needed = maze.victory.right_paths
    if needed is not None and paths < needed and not maze.victory.kill_monster:
        out.append(
            _issue(
                ["victory", "right_paths"],
                "victory_unreachable",
                f"the deck holds {paths} Right Path cards, fewer than the {needed} needed",
            )
        )
    if maze.victory.kill_monster and needed is None and CardKind.MONSTER not in kinds:
        out.append(
            _issue(
                ["victory", "kill_monster"],
                "victory_unreachable",
                "the only way out is killing the monster, and the deck holds no Monster card",
            )
        )
    return out


def validate(definition: Any) -> dict[str, Any]:
    """`{valid, problems, warnings, definition}`: the definition normalised when valid."""
    try:
        maze = MazeDefinition.model_validate(definition)
    except ValidationError as exc:
        problems = [_issue(e["loc"], e["type"], e["msg"]) for e in validation_errors(exc)]
        return {"valid": False, "problems": problems, "warnings": [], "definition": None}
    return {
        "valid": True,
        "problems": [],
        "warnings": _warnings(maze),
        "definition": maze.model_dump(mode="json"),
    }
