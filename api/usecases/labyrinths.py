"""The labyrinth-definition use cases: the presets a session accepts, and checking one.

Checking a definition never raises: a definition `createSession` would refuse comes back
with its `problems` (pydantic's locations and error types, without the input echoed
back), and one it would accept but that cannot be won as written comes back valid with
`warnings`. A definition is a free-form document here (a content pack: its schema is
the engine's `MazeDefinition`), so it is the documented `JSON` exception in GraphQL.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationError

from api.bodies import validation_errors
from api.models import Frozen
from api.sessions.requests import PRESETS
from api.usecases.markers import FreeForm, FreeFormInput
from api.usecases.table import Call, Result, UseCase, publishable
from services.labyrinth import MazeDefinition
from services.labyrinth.cards import missed_rows, unwinnable

# The engine's own name for a preset another name also reaches.
ALIASES = {"standard26": "standard_deck"}


class ValidateLabyrinthDefinition(Frozen):
    """A labyrinth definition to check (the `definition` of `POST /v1/sessions`)."""

    definition: FreeFormInput = Field(
        description="A labyrinth definition: name, dc, variant, deck, pool, trap_table, "
        "monster_table, victory, settings."
    )


class LabyrinthPreset(Result):
    """A preset labyrinth `createSession(preset:)` accepts, with its full definition."""

    name: str
    alias_of: str | None
    title: str
    variant: str
    dc: int
    definition: FreeForm


class LabyrinthPresets(Result):
    """Every preset name `createSession` accepts."""

    presets: list[LabyrinthPreset]


class LabyrinthDefinitionIssue(Result):
    """One problem or warning of a definition: where (snake_case path), code, message."""

    field: str | None
    code: str
    message: str


class LabyrinthDefinitionReport(Result):
    """`problems` are what createSession would refuse, `warnings` flag a labyrinth nobody
    can win as written and a table whose die misses its rows; `definition` is the
    normalised definition when valid."""

    valid: bool
    problems: list[LabyrinthDefinitionIssue]
    warnings: list[LabyrinthDefinitionIssue]
    definition: FreeForm | None


def presets(request: None, call: Call) -> LabyrinthPresets:
    """Every preset name `createSession` accepts, with its full definition."""
    return LabyrinthPresets(
        presets=[
            LabyrinthPreset(
                name=name,
                alias_of=ALIASES.get(name),
                title=maze.name,
                variant=maze.variant,
                dc=maze.dc,
                definition=maze.model_dump(mode="json"),
            )
            for name, maze in PRESETS.items()
        ]
    )


def _issue(loc: list[Any], code: str, message: str) -> LabyrinthDefinitionIssue:
    field = ".".join(str(p) for p in loc) or None
    return LabyrinthDefinitionIssue(field=field, code=code, message=message)


def validate(request: ValidateLabyrinthDefinition, call: Call) -> LabyrinthDefinitionReport:
    """The definition's problems and warnings; normalised when valid."""
    try:
        maze = MazeDefinition.model_validate(request.definition)
    except ValidationError as exc:
        problems = [_issue(e["loc"], e["type"], e["msg"]) for e in validation_errors(exc)]
        return LabyrinthDefinitionReport(
            valid=False, problems=problems, warnings=[], definition=None
        )
    return LabyrinthDefinitionReport(
        valid=True,
        problems=[],
        warnings=[
            *(_issue(list(at), "victory_unreachable", why) for at, why in unwinnable(maze)),
            *(_issue(list(at), "table_rows_missed", why) for at, why in missed_rows(maze)),
        ],
        definition=maze.model_dump(mode="json"),
    )


ROWS: tuple[UseCase, ...] = publishable(
    UseCase("labyrinthPresets", "GET", "/labyrinths/presets", "query", "labyrinth_presets",
            None, LabyrinthPresets, presets, "The preset labyrinths", "labyrinths",
            errors=(401, 429), description="Every name `preset` accepts in "
            "`POST /v1/sessions`, with its full definition."),
    UseCase("validateLabyrinthDefinition", "POST", "/labyrinths/validate", "query",
            "validate_labyrinth_definition", ValidateLabyrinthDefinition,
            LabyrinthDefinitionReport, validate, "Check a custom labyrinth definition",
            "labyrinths", description="200 whether or not the definition is valid: "
            "`problems` are what `POST /v1/sessions` would refuse (field, code, message); "
            "`warnings` flag a definition nobody can win as written (`victory_unreachable`) "
            "and a trap or monster table whose die misses rows or rolls outside them "
            "(`table_rows_missed`); `definition` is the "
            "normalised definition when valid.", cpu=True),
)  # fmt: skip
