"""Who is calling: the `X-API-Key` header picks the client app and its tenant.

Refused with 401 `missing_api_key` / `invalid_api_key` (problem+json) where keys are
required, and with 403 `origin_not_allowed` / `secret_key_required` when a publishable
key is used from a page off its origins or for an operation it may not call
(api/publishable.py). The key itself is never logged, echoed or kept past this lookup.
A write (any method but GET, HEAD and OPTIONS) from a page on an origin the service does
not allow is refused first, with 403 `origin_not_allowed`, key or no key (`_may_write`).
A WebSocket may instead show its key in the connection_init payload (`api_key`), since
browsers cannot set headers on one: the socket is admitted there
(api/graphql/websockets.py), with the same checks.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api import problems
from api.clients import (
    API_KEY_HEADER,
    ApiKeyError,
    KeyNotAllowed,
    KeyRing,
    OriginNotAllowed,
    SecretKeyRequired,
    admit,
    header,
    remember_client,
    same_origin,
)
from api.publishable import rest_allowed
from infra.origins import origin_allowed
from services.errors import DomainError

# Operations endpoints (probes and scrapers sit inside the network) and the public
# contract answer without a key and are not rate limited.
OPEN_PATHS = frozenset({"/healthz", "/readyz", "/metrics", "/openapi.yaml", "/openapi.json"})
# The table pages are static files: what they do, they do through the API with a key or
# a role token like any client.
TABLE_PAGES = "/table"


def is_open(path: str) -> bool:
    """Whether `path` answers without a key and outside the rate limit."""
    return path in OPEN_PATHS or path == TABLE_PAGES or path.startswith(TABLE_PAGES + "/")


GRAPHQL_PATH = "/graphql"  # its operations are scoped by api/publishable.PublishableScope
# Methods a browser sends to any origin without asking first only for reads.
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_HEADER = API_KEY_HEADER.encode()


def _publishable_may(scope: Scope) -> bool:
    if scope["type"] != "http" or scope["path"] == GRAPHQL_PATH:
        return True  # a socket's and GraphQL's operations are scoped where they run
    return rest_allowed(scope["method"], scope["path"])


class ApiKeys:
    """Resolve the caller's client app and tenant, or refuse the request."""

    def __init__(self, app: ASGIApp, keyring: KeyRing, origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.keyring = keyring
        self.origins = origins  # the browser origins that may call (CORS), `*` any

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope["method"] not in _SAFE_METHODS:
            origin = header(scope, b"origin")
            if origin is not None and not self._may_write(scope, origin):
                await self._refuse_page(scope, receive, send, origin)
                return
        key = header(scope, _HEADER)
        if scope["type"] == "websocket" and not key:
            await self.app(scope, receive, send)  # the key comes in connection_init
            return
        try:
            client = admit(self.keyring, scope, key)
            if client.publishable and not _publishable_may(scope):
                raise SecretKeyRequired(
                    f"a publishable key may not call {scope['method']} {scope['path']}: "
                    "use a secret key on a server"
                )
        except (ApiKeyError, KeyNotAllowed) as exc:
            await self._refuse(scope, receive, send, exc)
            return
        remember_client(scope, client)
        await self.app(scope, receive, send)

    def _may_write(self, scope: Scope, origin: str) -> bool:
        """Whether a page on `origin` may send this write: the service's own pages, or a
        page on an origin allowed to call. A browser posts a form, a `text/plain` body or
        one with no Content-Type to any origin without a CORS preflight, and the answer
        it may not read comes after the write is done: without this, any web page could
        write through a service that needs no key (or a key a browser sends by itself).
        Clients that are not browsers send no `Origin`. The service's own pages are known
        by their `Origin` naming the host the request was sent to (a proxy must pass the
        `Host` it was asked for), or by `Sec-Fetch-Site: same-origin`, which a browser
        sets and a page cannot (a page under `Referrer-Policy: no-referrer` sends
        `Origin: null`)."""
        return (
            same_origin(scope)
            or header(scope, b"sec-fetch-site") == "same-origin"
            or origin_allowed(origin, self.origins)
        )

    async def _refuse_page(self, scope: Scope, receive: Receive, send: Send, origin: str) -> None:
        response = problems.problem(
            403,
            OriginNotAllowed.code,
            f"a page on {origin[:200]!r} may not send {scope['method']} here: its origin "
            "is not one the service allows to call (DAEDALUS_CORS_ORIGINS, a publishable "
            "key's origins)",
            title="Origin not allowed",
        )
        await response(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, exc: DomainError) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": exc.code})
            return
        headers = {"WWW-Authenticate": 'ApiKey header="X-API-Key"'}
        response = problems.problem(
            exc.http_status,
            exc.code,
            exc.message,
            title="API key refused",
            headers=headers if exc.http_status == 401 else None,
        )
        await response(scope, receive, send)
