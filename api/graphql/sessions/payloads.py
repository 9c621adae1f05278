"""GraphQL: the session payload unions — each success type or the Problem that refused it."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.problem import Problem
from api.graphql.sessions.command_result import CommandResult
from api.graphql.sessions.created_session import CreatedSession
from api.graphql.sessions.event_page import SessionEventPage
from api.graphql.sessions.revocation import TokenRevocation
from api.graphql.sessions.session_event import SessionEvent
from api.graphql.sessions.session_token import SessionToken
from api.graphql.sessions.session_view import SessionView

CreateSessionPayload: TypeAlias = Annotated[
    CreatedSession | Problem, strawberry.union("CreateSessionPayload")
]
SessionTokenPayload: TypeAlias = Annotated[
    SessionToken | Problem, strawberry.union("SessionTokenPayload")
]
RevocationPayload: TypeAlias = Annotated[
    TokenRevocation | Problem, strawberry.union("RevocationPayload")
]
CommandPayload: TypeAlias = Annotated[CommandResult | Problem, strawberry.union("CommandPayload")]
SessionViewPayload: TypeAlias = Annotated[
    SessionView | Problem, strawberry.union("SessionViewPayload")
]
SessionEventsPayload: TypeAlias = Annotated[
    SessionEventPage | Problem, strawberry.union("SessionEventsPayload")
]
SessionEventPayload: TypeAlias = Annotated[
    SessionEvent | Problem, strawberry.union("SessionEventPayload")
]
