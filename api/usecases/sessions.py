"""Use cases of the labyrinth sessions: create, role tokens, revocations, commands (and the
GM's overrides, one typed GraphQL mutation each), the viewer's view and events.

Every row but creation acts with a session role token (`Table` SESSION): REST takes it as
the bearer token of `/sessions/{session_id}/...`, GraphQL as the `id` and `token`
arguments. Views and events are rendered once for the token's viewer (api/sessions/
usecases.py): REST sends them as rendered, GraphQL types them (services/labyrinth/shown.py).
"""

from __future__ import annotations

import typing
from typing import Any, Literal

from pydantic import BaseModel, Field
from strawberry.scalars import JSON
from strawberry.types.unset import UNSET
from strawberry.utils.str_converters import to_camel_case, to_snake_case

from api.graphql.generate import FREE_FORM_FIELDS, member, one_of_input
from api.graphql.inputs import PartyMemberInput, member_body, member_field
from api.graphql.scalars import Long
from api.models import Frozen
from api.openapi.tables import CreatedSession, Revocation, SessionToken
from api.sessions import usecases
from api.sessions.commands import CommandBody, GmOverride, SessionCommand
from api.sessions.requests import CreateSession, IssueToken, RevokeTokens
from api.sessions.usecases import SESSIONS
from api.tables.access import now
from api.tables.tokens import Forbidden, RoleToken
from api.usecases.table import BODY_ERRORS, Call, Redacted, UseCase, no_store
from api.usecases.tables import (
    REVOKE_NOTE,
    SESSION,
    TABLE_ERRORS,
    CommandId,
    EventsAfter,
    SeenVersion,
    aissuing,
    alooking,
    apaging,
    issuing,
    looking,
    page_price,
    paging,
    revoking,
)
from services.labyrinth.shown import (
    CommandResult,
    SessionEventPage,
    SessionView,
    shown_look,
    shown_page,
    shown_result,
)

TAG = "sessions"


def _sessions(call: Call) -> Any:
    return call.store().sessions_for(call.tenant)


def create_session(request: CreateSession, call: Call) -> CreatedSession:
    """Start a maze for a party; the GM and spectator tokens come back once."""
    settings = call.settings
    created = usecases.create(_sessions(call), request, settings.secret_key_bytes, now(),
                              settings.seeded_sessions_on)  # fmt: skip
    return CreatedSession.model_validate(created)


def send_command(request: Any, call: Call) -> Redacted:
    """One command as the token allows; its events and the view, for the sender."""
    command = request.root if isinstance(request, CommandBody) else request
    grant, events = call.granted(), call.shows("events")
    return _shown(grant, usecases.send(_sessions(call), grant, command, call.guard, events))


async def asend_command(request: Any, call: Call) -> Redacted:
    """`send_command` in the event loop, on the tenant's asyncio store."""
    command = request.root if isinstance(request, CommandBody) else request
    grant, store = call.granted(), call.async_store()
    sessions, events = _sessions(call), call.shows("events")
    done = await usecases.asend(sessions, store, grant, command, call.guard, events)
    return _shown(grant, done)


def _shown(grant: RoleToken, result: dict[str, Any]) -> Redacted:
    gm = grant.role == "gm"
    return Redacted(result, lambda data: shown_result(data, gm=gm))


class LookSession(Frozen):
    """`view=gm`: the GM's view (the GM's token only)."""

    view: Literal["gm"] | None = Field(default=None, description="`gm`: the GM's view.")


_look, _alook = looking(SESSIONS, shown_look), alooking(SESSIONS, shown_look)


def _may_look(request: LookSession, call: Call) -> None:
    if request.view == "gm" and call.granted().role != "gm":
        raise Forbidden("only the GM may read the GM view")


def look(request: LookSession, call: Call) -> BaseModel | Redacted:
    """The session as the token's viewer sees it (`view=gm`: the GM's token only)."""
    _may_look(request, call)
    return _look(request, call)


async def alook(request: LookSession, call: Call) -> BaseModel | Redacted:
    """`look` in the event loop, on the tenant's asyncio store."""
    _may_look(request, call)
    return await _alook(request, call)


# --- sendCommand in GraphQL: a `@oneOf` command ----------------------------------------


def _type_of(model: type[BaseModel]) -> str:
    tag: str = typing.get_args(model.model_fields["type"].annotation)[0]
    return tag


_COMMANDS: dict[str, type[BaseModel]] = {
    to_snake_case(_type_of(model)): model
    for model in typing.get_args(typing.get_args(SessionCommand)[0])
}
_TAGS = {key: _type_of(model) for key, model in _COMMANDS.items()}
SessionCommandInput: Any = one_of_input(
    "SessionCommandInput", _COMMANDS, frozenset({"type", "seen_version", "command_id"})
)


def _command_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    key, fields = member(given["command"], "command")
    body = {**(fields if isinstance(fields, dict) else {}), "type": _TAGS[key]}
    body.update({k: given[k] for k in ("seen_version", "command_id") if given.get(k) is not None})
    return body


def _command_field(given: dict[str, Any], field: str) -> str:
    """A refused command field as the caller spelled it: `command.flipCard.player`."""
    tag, _, rest = field.partition(".")
    if tag != given.get("type") or not rest:
        return field
    if rest.partition(".")[0] in ("seenVersion", "commandId"):
        return rest
    return f"command.{to_camel_case(to_snake_case(tag))}.{rest}"


_SEND_ARGS = (
    ("command", SessionCommandInput, UNSET),
    ("seen_version", SeenVersion, None),
    ("command_id", CommandId, None),
)


# --- createSession in GraphQL: the party's profiles as a `@oneOf` input -----------------

# A maze definition is a content pack: the documented free-form argument (docs/API.md).
FREE_FORM_FIELDS.add("Mutation.createSession(definition)")
_CREATE_ARGS = (
    ("party", list[PartyMemberInput], UNSET),
    ("preset", str | None, None),
    ("definition", JSON | None, None),
    ("seed", str | None, None),
    ("roll_initiative", bool, True),
    ("token_ttl_seconds", Long | None, None),
)


def _create_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in given.items() if v is not None and k != "party"}
    out["party"] = [member_body(m) for m in given["party"]]
    return out


def _look_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    return {"view": "gm"} if given.get("as_gm") else {}


def _override(model: type[BaseModel]) -> UseCase:
    """A GM override: the REST command of the same type, as its own GraphQL mutation."""
    tag = _type_of(model)
    return UseCase(
        f"send{tag}", None, "", "mutation", to_snake_case(tag), model, CommandResult, send_command,
        str(model.__doc__).split("\n")[0].rstrip("."), TAG, table=SESSION, cpu=True,
        fixed=(("type", tag),), guarded=True, aservice=asend_command,
    )  # fmt: skip


_ONE = "/sessions/{session_id}"
ROWS: tuple[UseCase, ...] = (
    UseCase("createSession", "POST", "/sessions", "mutation", "create_session", CreateSession,
            CreatedSession, create_session, "Start a labyrinth session", TAG, status=201,
            errors=(*BODY_ERRORS, 503), cpu=True, headers=no_store,
            description="The GM and spectator tokens are shown once.",
            graphql_args=_CREATE_ARGS, from_graphql=_create_from_graphql,
            problem_field=lambda _given, field: member_field(field)),
    UseCase("getSession", "GET", _ONE, "query", "session", LookSession, SessionView, look,
            "This viewer's view of a session", TAG, table=SESSION, errors=TABLE_ERRORS, cpu=True,
            graphql_args=(("as_gm", bool, False),), from_graphql=_look_from_graphql,
            aservice=alook),
    UseCase("issueToken", "POST", f"{_ONE}/tokens", "mutation", "issue_session_token",
            IssueToken, SessionToken, issuing(SESSIONS, SessionToken),
            "Issue a player or spectator token, or renew the GM's", TAG, table=SESSION,
            status=201, errors=TABLE_ERRORS, cpu=True, headers=no_store,
            aservice=aissuing(SESSIONS, SessionToken)),
    UseCase("revokeSessionTokens", "POST", f"{_ONE}/revocations", "mutation",
            "revoke_session_tokens", RevokeTokens, Revocation, revoking(SESSIONS),
            "Revoke a token, a member's, a role's or every token", TAG, table=SESSION,
            errors=TABLE_ERRORS, cpu=True, headers=no_store, description=REVOKE_NOTE),
    UseCase("sendCommand", "POST", f"{_ONE}/commands", "mutation", "send_command",
            CommandBody, CommandResult, send_command, "Send one command", TAG, table=SESSION,
            errors=TABLE_ERRORS, cpu=True, graphql_args=_SEND_ARGS,
            from_graphql=_command_from_graphql, problem_field=_command_field, guarded=True,
            aservice=asend_command),
    UseCase("getEvents", "GET", f"{_ONE}/events", "query", "session_events", EventsAfter,
            SessionEventPage, paging(SESSIONS, shown_page), "This viewer's redacted events",
            TAG, table=SESSION, errors=TABLE_ERRORS, cpu=True, price=page_price,
            aservice=apaging(SESSIONS, shown_page)),
    *(_override(m) for m in typing.get_args(GmOverride)),
)  # fmt: skip
