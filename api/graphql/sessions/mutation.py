"""GraphQL: session mutations — create a session, issue role tokens, send commands.

The GM's typed override mutations come from `GmOverrideMutation` (overrides.py).
"""

from __future__ import annotations

from typing import Any

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON
from strawberry.utils.str_converters import to_camel_case

from api.graphql.context import Info
from api.graphql.generate import FREE_FORM_FIELDS, plain
from api.graphql.problem import EXPECTED, as_problem
from api.graphql.scalars import Long
from api.graphql.sessions.inputs import PartyMemberInput
from api.graphql.sessions.overrides import GmOverrideMutation, SeenVersion
from api.graphql.sessions.payloads import (
    CommandPayload,
    CreatedSession,
    CreateSessionPayload,
    RevocationPayload,
    SessionToken,
    SessionTokenPayload,
    TableRoleEnum,
    TokenRevocation,
)
from api.graphql.sessions.sending import SessionCommandInput, command_fields, send_fields
from api.sessions import usecases
from api.sessions.access import grant_of, now, secret_of, sessions_of
from api.sessions.requests import CreateSession, IssueToken, RevokeTokens

# A maze definition is a content pack: the documented free-form argument (docs/API.md).
FREE_FORM_FIELDS.add("Mutation.createSession(definition)")


@strawberry.type
class SessionMutation(GmOverrideMutation):
    @strawberry.mutation(description="Start a maze (preset or definition) for a party.")
    async def create_session(
        self,
        info: Info,
        party: list[PartyMemberInput],
        preset: str | None = None,
        definition: JSON | None = None,
        seed: str | None = None,
        roll_initiative: bool = True,
        token_ttl_seconds: Long | None = None,
    ) -> CreateSessionPayload:
        conn = info.context["request"]
        body: dict[str, Any] = {
            "party": [m.to_dict() for m in party],
            "roll_initiative": roll_initiative,
        }
        if token_ttl_seconds is not None:
            body["token_ttl_seconds"] = token_ttl_seconds
        body.update(
            {k: v for k, v in (("preset", preset), ("definition", definition), ("seed", seed)) if v}
        )
        try:
            request = CreateSession.model_validate(body)
            created = await run_in_threadpool(
                usecases.create,
                sessions_of(conn),
                request,
                secret_of(conn),
                now(),
                conn.app.state.settings.seeded_sessions_on,
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return CreatedSession.from_domain(created)

    @strawberry.mutation(
        description="GM: a token for a player (bound to `member`), a spectator, or the GM "
        "(renewal), lasting `ttlSeconds`."
    )
    async def issue_session_token(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        role: TableRoleEnum,
        member: str | None = None,
        ttl_seconds: Long | None = None,
    ) -> SessionTokenPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token)
            fields: dict[str, Any] = {"role": plain(role), "member": member}
            if ttl_seconds is not None:
                fields["ttl_seconds"] = ttl_seconds
            request = IssueToken.model_validate(fields)
            issued = await run_in_threadpool(
                usecases.issue, sessions_of(conn), grant, request, secret_of(conn), now()
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return SessionToken.from_domain(issued, request)

    @strawberry.mutation(
        description="GM: revoke one token (`tokenId`), a member's, a role's, or (none named) "
        "every token of the session issued until now."
    )
    async def revoke_session_tokens(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        token_id: str | None = None,
        member: str | None = None,
        role: TableRoleEnum | None = None,
    ) -> RevocationPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token)
            request = RevokeTokens.model_validate(
                {"token_id": token_id, "member": member, "role": plain(role)}
            )
            result = await run_in_threadpool(
                usecases.revoke_in_session, sessions_of(conn), grant, request, secret_of(conn)
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return TokenRevocation.from_domain(result)

    @strawberry.mutation(
        description="Send one command as the token allows: `command` gives exactly one "
        "field, named for the command's type (`{flipCard: {player, card}}`)."
    )
    async def send_command(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        command: SessionCommandInput,
        seen_version: SeenVersion = None,
        command_id: str | None = None,
    ) -> CommandPayload:
        fields = command_fields(command)
        within = "command." + to_camel_case(next(iter(plain(command))))
        return await send_fields(info, str(id), token, fields, seen_version, command_id, within)
