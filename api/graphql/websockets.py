"""GraphQL over WebSocket: messages checked for shape before strawberry's handlers see them.

Strawberry's handlers index a message as the protocol says it is shaped; a message that
is JSON but not so shaped (a number, a list, an `id` that is a list, a `payload` that is
not an object, a `query` that is not a string) raised out of them, so the socket dropped
without a close frame and the error was logged as unhandled. Here such a message is
refused as the protocol refuses any invalid one: graphql-transport-ws closes the socket
with 4400, the legacy graphql-ws ignores it (as it ignores what is not JSON).

A socket passes the same key checks as an HTTP request (api/middleware/api_keys.py): a
key in the handshake's `X-API-Key` header is checked there; otherwise the
`connection_init` payload's `api_key` is checked here, before the acknowledgement. Where
keys are required, a socket without a valid key is closed with 4401 and the refusal's
code as the reason (`missing_api_key`, `invalid_api_key`); a publishable key off its
origins with 4403 (`origin_not_allowed`). Each operation started on a socket spends a
token of the caller's rate limit, as each HTTP request does.

A socket carries at most `DAEDALUS_WS_MAX_OPERATIONS` operations at once (another is
answered with an error coded `too_many_operations`), and a caller (its key, or its
address) holds at most `DAEDALUS_WS_MAX_SOCKETS` open sockets per API process (another
is closed with 4429, `too_many_sockets`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, cast

from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import (
    BaseGraphQLTransportWSHandler,
)
from strawberry.subscriptions.protocols.graphql_transport_ws.types import Message
from strawberry.subscriptions.protocols.graphql_ws.handlers import BaseGraphQLWSHandler
from strawberry.subscriptions.protocols.graphql_ws.types import OperationMessage

from api.clients import (
    ApiKeyError,
    KeyNotAllowed,
    admit,
    client_state,
    remember_client,
)
from api.graphql.context import Context
from api.middleware.rate_limit import redis_url_of
from services.errors import DomainError

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


def admission_refusal(context: Context, params: object) -> DomainError | None:
    """Admit the socket's caller (remembered on its scope), or the refusal.

    A caller already admitted by its handshake header stays admitted; otherwise the
    key is the connection_init payload's `api_key` (none: keyless, where allowed).
    """
    conn = context["request"]
    if client_state(conn.scope) is not None:
        return None
    key = params.get("api_key") if isinstance(params, Mapping) else None
    try:
        client = admit(conn.app.state.keyring, conn.scope, key if isinstance(key, str) else None)
    except (ApiKeyError, KeyNotAllowed) as exc:
        return exc
    remember_client(conn.scope, client)
    return None


def close_code(refusal: DomainError) -> int:
    """graphql-transport-ws's close code for a refused caller."""
    return 4401 if refusal.http_status == 401 else 4403


async def rate_refusal(context: Context) -> dict[str, Any] | None:
    """Spend a token of the caller's limit for one operation; the error if none is left."""
    conn = context["request"]
    buckets = getattr(conn.app.state, "rate_buckets", None)
    client = client_state(conn.scope)
    if buckets is None or client is None:
        return None
    decision = await buckets.take(client.identity, redis_url_of(conn.scope))
    if decision is None or decision.allowed:
        return None
    return {
        "message": f"too many requests: retry in {decision.retry_after} s",
        "extensions": {"code": "rate_limited", "retryAfter": decision.retry_after},
    }


class SocketCounts:
    """Open sockets per caller identity, in this process, bounded."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def take(self, identity: str) -> bool:
        """Count one more socket of `identity`, unless it holds its limit already."""
        if self.open[identity] >= self.limit:
            return False
        self.open[identity] += 1
        return True

    def give_back(self, identity: str) -> None:
        """A socket of `identity` closed."""
        self.open[identity] -= 1
        if self.open[identity] <= 0:
            del self.open[identity]


TOO_MANY_SOCKETS = 4429


def take_socket(context: Context) -> str | None:
    """Count the admitted caller's socket: its identity, or None when it holds too many."""
    scope = context["request"].scope
    counts: SocketCounts | None = scope.get("daedalus.sockets")
    client = client_state(scope)
    if counts is None or client is None:
        return ""
    return client.identity if counts.take(client.identity) else None


def give_socket_back(context: Context, identity: str) -> None:
    """Uncount a socket counted by take_socket."""
    counts: SocketCounts | None = context["request"].scope.get("daedalus.sockets")
    if counts is not None and identity:
        counts.give_back(identity)


def too_many_operations(limit: int | None) -> dict[str, Any]:
    """The error answering an operation past the socket's limit."""
    return {
        "message": f"at most {limit} operations at once on one socket",
        "extensions": {"code": "too_many_operations"},
    }


class CountedSocket:
    """A socket handler whose caller's socket count is given back however it ends."""

    counted: str | None = None
    context: Context

    async def handle(self) -> None:
        """Serve the socket (the strawberry handler after this class in the MRO)."""
        try:
            await super().handle()  # type: ignore[misc]
        finally:
            if self.counted is not None:
                give_socket_back(self.context, self.counted)


class TransportWSHandler(CountedSocket, BaseGraphQLTransportWSHandler[Context, None]):
    """graphql-transport-ws: a message of the wrong shape closes the socket with 4400."""

    async def handle_message(self, message: Message) -> None:
        """Refuse a malformed message as the protocol says, else handle it."""
        if not well_formed(cast(Any, message), _TRANSPORT_WS):
            await self.handle_invalid_message(INVALID_MESSAGE)
            return
        if message["type"] == "subscribe" and self.connection_acknowledged:
            limit = self.max_subscriptions_per_connection
            if limit is not None and len(self.operations) >= limit:
                await self.send_message(
                    cast(
                        Any,
                        {
                            "id": message["id"],
                            "type": "error",
                            "payload": [too_many_operations(limit)],
                        },
                    )
                )
                return
            error = await rate_refusal(self.context)
            if error is not None:
                await self.send_message(
                    cast(Any, {"id": message["id"], "type": "error", "payload": [error]})
                )
                return
        await super().handle_message(message)

    async def handle_connection_init(self, message: Any) -> None:
        """Check the caller's key before the acknowledgement."""
        payload = message.get("payload")
        refusal = admission_refusal(self.context, payload)
        if refusal is not None:
            await self.websocket.close(code=close_code(refusal), reason=refusal.code)
            return
        if self.counted is None:
            self.counted = take_socket(self.context)
            if self.counted is None:
                await self.websocket.close(code=TOO_MANY_SOCKETS, reason="too_many_sockets")
                return
        await super().handle_connection_init(message)


class LegacyWSHandler(CountedSocket, BaseGraphQLWSHandler[Context, None]):
    """graphql-ws (legacy): a message of the wrong shape is ignored."""

    async def handle_message(self, message: OperationMessage) -> None:
        """Ignore a malformed message; admit the caller before any operation."""
        if not well_formed(cast(Any, message), _LEGACY_WS):
            return
        if message["type"] in ("connection_init", "start"):
            params = message.get("payload") if message["type"] == "connection_init" else None
            refusal = admission_refusal(self.context, params)
            if refusal is not None:
                payload = {"code": refusal.code, "message": refusal.message}
                await self.send_message(cast(Any, {"type": "connection_error", "payload": payload}))
                await self.websocket.close(code=close_code(refusal), reason=refusal.code)
                return
            if self.counted is None:
                self.counted = take_socket(self.context)
                if self.counted is None:
                    await self.websocket.close(code=TOO_MANY_SOCKETS, reason="too_many_sockets")
                    return
        if message["type"] == "start":
            error = await rate_refusal(self.context)
            if error is not None:
                await self.send_message(
                    cast(Any, {"id": message.get("id"), "type": "error", "payload": error})
                )
                return
        await super().handle_message(message)
