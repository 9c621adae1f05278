"""GraphQL over WebSocket: messages checked for shape before strawberry's handlers see them.

Strawberry's handlers index a message as the protocol says it is shaped; a message that
is JSON but not so shaped (a number, a list, an `id` that is a list, a `payload` that is
not an object, a `query` that is not a string) raised out of them, so the socket dropped
without a close frame and the error was logged as unhandled. Here such a message is
refused as the protocol refuses any invalid one: graphql-transport-ws closes the socket
with 4400, the legacy graphql-ws ignores it (as it ignores what is not JSON).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.subscriptions.protocols.graphql_ws.types import OperationMessage

from api.graphql.context import Context

INVALID_MESSAGE = "Invalid message"

# Per protocol: the message types that name an operation, and the one that starts it.
_TRANSPORT_WS = ({"subscribe", "complete"}, "subscribe")
_LEGACY_WS = ({"start", "stop"}, "start")


def _optional(value: object, kind: type) -> bool:
    return value is None or isinstance(value, kind)


def well_formed(message: object, protocol: tuple[set[str], str]) -> bool:
    """True when `message` is an object with a string `type` and, for a message about an
    operation, a string `id` (and, to start one, a payload with a string `query`)."""
    if not isinstance(message, Mapping) or not isinstance(message.get("type"), str):
        return False
    with_id, starting = protocol
    if message["type"] not in with_id:
        return True
    if not isinstance(message.get("id"), str):
        return False
    if message["type"] != starting:
        return True
    payload = message.get("payload")
    return (
        isinstance(payload, Mapping)
        and isinstance(payload.get("query"), str)
        and _optional(payload.get("operationName"), str)
        and _optional(payload.get("variables"), Mapping)
        and _optional(payload.get("extensions"), Mapping)
    )


class TransportWSHandler(BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws: a message of the wrong shape closes the socket with 4400."""

    async def handle_message(self, message: Message) -> None:
        """Refuse a malformed message as the protocol says, else handle it."""
        if not well_formed(cast(Any, message), _TRANSPORT_WS):
            await self.handle_invalid_message(INVALID_MESSAGE)
            return
        await super().handle_message(message)


class LegacyWSHandler(BaseGraphQLWSHandler[Context, None]):
    """graphql-ws (legacy): a message of the wrong shape is ignored."""

    async def handle_message(self, message: OperationMessage) -> None:
        """Ignore a malformed message, else handle it."""
        if well_formed(cast(Any, message), _LEGACY_WS):
            await super().handle_message(message)
