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
from api.graphql.sessions.created_session import CreatedSession
from api.graphql.sessions.revocation import TokenRevocation
from api.graphql.sessions.session_token import SessionToken
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
