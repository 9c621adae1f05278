"""Who is calling: the `X-API-Key` header picks the client app and its tenant.

Refused with 401 `missing_api_key` / `invalid_api_key` (problem+json) where keys are
required. The key itself is never logged, echoed or kept past this lookup. A WebSocket
may instead show its key in the connection_init payload (`api_key`), since browsers
cannot set headers on one: the GraphQL subscription checks it there.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api import problems
from api.clients import API_KEY_HEADER, ApiKeyError, KeyRing, anonymous, remember_client

# Operations endpoints (probes and scrapers sit inside the network) and the public
# contract answer without a key and are not rate limited.
OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics", "/openapi.yaml", "/openapi.json"})
_HEADER = API_KEY_HEADER.encode()


class ApiKeys:
    """Resolve the caller's client app and tenant, or refuse the request."""

    def __init__(self, app: ASGIApp, keyring: KeyRing) -> None:
        self.app = app
        self.keyring = keyring

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"] in OPEN_PATHS:
            await self.app(scope, receive, send)
            return
        key = next((v.decode("latin-1") for n, v in scope["headers"] if n == _HEADER), None)
        if scope["type"] == "websocket" and not key and self.keyring.required:
            await self.app(scope, receive, send)  # the key may come in connection_init
            return
        try:
            client = self.keyring.lookup(key)
        except ApiKeyError as exc:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": exc.code})
                return
            response = problems.problem(
                401,
                exc.code,
                exc.message,
                title="API key refused",
                headers={"WWW-Authenticate": 'ApiKey header="X-API-Key"'},
            )
            await response(scope, receive, send)
            return
        remember_client(scope, client or anonymous(self.keyring, scope))
        await self.app(scope, receive, send)
