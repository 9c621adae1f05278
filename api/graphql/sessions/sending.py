"""GraphQL: sending one session command, given as the REST body's fields."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from starlette.concurrency import run_in_threadpool

from api.graphql.context import Info
from api.graphql.sessions.errors import EXPECTED, as_problem
from api.graphql.sessions.payloads import CommandPayload
from api.sessions import usecases
from api.sessions.access import grant_of, sessions_of
from api.sessions.commands import CommandBody
from services.labyrinth.shown import shown_result

_COMMAND: TypeAdapter[CommandBody] = TypeAdapter(CommandBody)


async def send_fields(
    info: Info,
    session_id: str,
    token: str,
    fields: dict[str, Any],
    seen_version: int | None = None,
    command_id: str | None = None,
) -> CommandPayload:
    """Validate `fields` as the REST body would and send it with the token's rights."""
    conn = info.context["request"]
    try:
        grant = await grant_of(conn, session_id, token)
        if seen_version is not None:
            fields["seen_version"] = seen_version
        if command_id is not None:
            fields["command_id"] = command_id
        body = _COMMAND.validate_python(fields)
        result = await run_in_threadpool(usecases.send, sessions_of(conn), grant, body.root)
    except EXPECTED as exc:
        return as_problem(exc)
    return shown_result(result, gm=grant.role == "gm")
