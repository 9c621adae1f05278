"""GraphQL: sending one session command, given as the REST body's fields.

`sendCommand(command:)` takes `SessionCommandInput`, a `@oneOf` input with one field per
command type (`flipCard: {player card}`, `takeAction: {player action cards target}`,
…): the field given names the REST body's `type`, its fields are the body's others.
"""

from __future__ import annotations

import re
import typing
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool

from api.graphql.context import Info
from api.graphql.generate import one_of_input, plain
from api.graphql.problem import EXPECTED, as_problem
from api.graphql.sessions.payloads import CommandPayload
from api.sessions import usecases
from api.sessions.access import grant_of, sessions_of
from api.sessions.commands import CommandBody, SessionCommand
from services.labyrinth.shown import shown_result

_COMMAND: TypeAdapter[CommandBody] = TypeAdapter(CommandBody)


def _type_of(model: type[BaseModel]) -> str:
    tag: str = typing.get_args(model.model_fields["type"].annotation)[0]
    return tag


_MODELS: dict[str, type[BaseModel]] = {
    re.sub(r"(?<!^)(?=[A-Z])", "_", _type_of(model)).lower(): model
    for model in typing.get_args(typing.get_args(SessionCommand)[0])
}
SessionCommandInput: Any = one_of_input(
    "SessionCommandInput", _MODELS, frozenset({"type", "seen_version", "command_id"})
)


def command_fields(command: Any) -> dict[str, Any]:
    """The REST body's fields of a `SessionCommandInput` (its one field given)."""
    ((key, fields),) = plain(command).items()
    return {**(fields if isinstance(fields, dict) else {}), "type": _type_of(_MODELS[key])}


async def send_fields(
    info: Info,
    session_id: str,
    token: str,
    fields: dict[str, Any],
    seen_version: int | None = None,
    command_id: str | None = None,
    within: str = "",
) -> CommandPayload:
    """Validate `fields` as the REST body would and send it with the token's rights. A
    refused field is named as the caller spelled it: `within` (`command.flipCard`) and
    the camelCase field, never the body's `type` tag."""
    conn = info.context["request"]
    try:
        grant = await grant_of(conn, session_id, token)
        if seen_version is not None:
            fields["seen_version"] = seen_version
        if command_id is not None:
            fields["command_id"] = command_id
        body = _COMMAND.validate_python(fields)
        result = await run_in_threadpool(usecases.send, sessions_of(conn), grant, body.root)
    except ValidationError as exc:
        problem = as_problem(exc)
        tag, _, rest = (problem.field or "").partition(".")
        if tag == fields.get("type") and rest:
            top = rest.partition(".")[0] in ("seenVersion", "commandId")
            problem.field = rest if top or not within else f"{within}.{rest}"
        return problem
    except EXPECTED as exc:
        return as_problem(exc)
    return shown_result(result, gm=grant.role == "gm")
