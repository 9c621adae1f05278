"""OpenAPI rows of the maze-definition endpoints (/v1/mazes)."""

from __future__ import annotations

from api.mazes import ValidateDefinition
from api.openapi.rules import BODY_ERRORS, GET_ERRORS
from api.openapi.spec import Operation, array_of, obj

PRESET = obj(
    "name:string", "alias_of:string?", "title:string", "variant:string", "dc:integer",
    "definition:object",
)  # fmt: skip
ISSUE = obj("field:string?", "code:string", "message:string")
REPORT = {
    **obj("valid:boolean", "definition:object?"),
    "required": ["valid", "problems", "warnings", "definition"],
}
REPORT["properties"] |= {"problems": array_of(ISSUE), "warnings": array_of(ISSUE)}


def maze_operations() -> list[Operation]:
    """The presets a session accepts, and checking a custom definition."""
    return [
        Operation("get", "/v1/mazes/presets", "mazePresets", "The preset mazes", "mazes",
                  None, {**obj(), "properties": {"presets": array_of(PRESET)}},
                  errors=GET_ERRORS, description="Every name `preset` accepts in "
                  "`POST /v1/sessions`, with its full definition."),
        Operation("post", "/v1/mazes/validate", "validateMazeDefinition",
                  "Check a custom maze definition", "mazes", ValidateDefinition, REPORT,
                  errors=BODY_ERRORS, description="200 whether or not the definition is "
                  "valid: `problems` are what `POST /v1/sessions` would refuse (field, "
                  "code, message); `warnings` flag a definition nobody can win as "
                  "written; `definition` is the normalised definition when valid."),
    ]  # fmt: skip
