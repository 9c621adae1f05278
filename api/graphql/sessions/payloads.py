"""GraphQL: the session payload unions — each success type or the Problem that refused it.

Views, events and command results are generated from services/labyrinth/shown.py: an
event is the interface `SessionEvent` (`version`, `type`), one `<Type>Event` per event
type; a view is `LabyrinthView`, the table's (`LabyrinthTableView`) or the GM's.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import strawberry

from api.graphql.generate import convert, output_type, union_of
from api.graphql.problem import Problem
from api.sessions.requests import IssueToken
from api.sessions.tokens import first_tokens, token_facts
from api.sessions.usecases import Created
from services.labyrinth.commands import RiverDestination, Visibility
from services.labyrinth.shown import (
    EVENT_MODELS,
    CommandResult,
    SessionEvent,
    SessionEventPage,
    SessionView,
    TableRole,
)
from services.labyrinth.vocab import Action

SessionEventType: Any = output_type(SessionEvent)
# Enum arguments (values as the REST bodies spell them).
TableRoleEnum: Any = convert(TableRole, [], "TableRole", True)
RiverDestinationEnum: Any = convert(RiverDestination, [], "RiverDestination", True)
ActionEnum: Any = convert(Action, [], "LabyrinthAction", True)
VisibilityEnum: Any = convert(Visibility, [], "RollVisibility", True)
_EVENTS: Any = tuple(output_type(m) for m in EVENT_MODELS.values())


@strawberry.type(description="A new session: its id, version and first role tokens (secrets).")
class CreatedSession:
    session_id: strawberry.ID
    gm_token: str
    gm_token_id: str
    spectator_token: str
    spectator_token_id: str
    expires_at: str = strawberry.field(description="When both tokens expire (RFC 3339, UTC).")
    version: int

    @classmethod
    def from_domain(cls, created: Created) -> CreatedSession:
        """From the use case's result."""
        return cls(
            session_id=strawberry.ID(created.session_id),
            **first_tokens(created.gm_token, created.spectator_token),
            version=created.version,
        )


@strawberry.type(
    description="A player's, a spectator's or a renewed GM token for one session (a secret)."
)
class SessionToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")
    role: TableRoleEnum
    member: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueToken) -> SessionToken:
        """The token, its id and expiry, and what it grants."""
        return cls(token=token, **token_facts(token), role=request.role, member=request.member)


@strawberry.type(description="A role token just issued (a secret), its id and its expiry.")
class IssuedToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")


@strawberry.type(
    description="The scope revoked (`token:<id>`, `member:<id>`, `role:<role>` or `all`); "
    "when it covers the GM's own tokens, a fresh GM token."
)
class TokenRevocation:
    revoked: str
    gm_token: IssuedToken | None

    @classmethod
    def from_domain(cls, result: dict[str, Any]) -> TokenRevocation:
        """From the use case's answer."""
        fresh = result.get("gm_token")
        return cls(
            revoked=result["revoked"],
            gm_token=None if fresh is None else IssuedToken(**fresh),
        )


CreateSessionPayload: TypeAlias = Annotated[
    CreatedSession | Problem, strawberry.union("CreateSessionPayload")
]
SessionTokenPayload: TypeAlias = Annotated[
    SessionToken | Problem, strawberry.union("SessionTokenPayload")
]
RevocationPayload: TypeAlias = Annotated[
    TokenRevocation | Problem, strawberry.union("RevocationPayload")
]
CommandPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(CommandResult) | Problem, strawberry.union("CommandPayload")
]
SessionViewPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(SessionView) | Problem, strawberry.union("SessionViewPayload")
]
SessionEventsPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(SessionEventPage) | Problem, strawberry.union("SessionEventsPayload")
]
# One event live, or the Problem that ended the feed: every event type and Problem (a
# union lists object types; select `... on SessionEvent { version type }` in it).
SessionEventPayload: Any = union_of("SessionEventPayload", (*_EVENTS, Problem))
