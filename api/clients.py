"""Client apps and their API keys: which app is calling, and for which tenant.

Only SHA-256 digests of keys are configured (`DAEDALUS_API_KEYS`), so the config leaks
no key; a presented key is hashed and compared against every digest in constant time.
Without configured keys, outside production, callers without a key act for the default
tenant (so `make run` needs no key); in production a key is always required.

A key is `secret` (a server or a trusted tool: every operation) or `publishable` (made
to ship inside a browser page or a VTT module, so public to every player): bound to a
list of origins, limited to what is safe in a player's hands (api/publishable.py), and
rate limited per client address rather than per key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from starlette.requests import HTTPConnection
from starlette.types import Scope
from strawberry.http.websocket_origin import is_same_origin

from infra.origins import InvalidOrigin, normalize_origin, origin_allowed
from infra.settings import Settings
from services.errors import DomainError
from services.slotted import quick_init

TENANT_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_DIGEST = re.compile(r"[0-9a-f]{64}")
MAX_KEY_CHARS = 256
API_KEY_HEADER = "x-api-key"
_STATE = "daedalus_client"


class ApiKeyError(DomainError):
    """The request's API key is missing or unknown."""

    http_status = 401


class MissingApiKey(ApiKeyError):
    """This service requires an API key and the request has none."""

    code = "missing_api_key"


class InvalidApiKey(ApiKeyError):
    """The request's API key is not one this service knows."""

    code = "invalid_api_key"


class KeyNotAllowed(DomainError):
    """The key is valid but may not do this (a publishable key off its origins or scope)."""

    http_status = 403


class OriginNotAllowed(KeyNotAllowed):
    """A publishable key used from a page on an origin it is not bound to."""

    code = "origin_not_allowed"


class SecretKeyRequired(KeyNotAllowed):
    """An operation a publishable key may not call (it creates or runs something)."""

    code = "secret_key_required"


KeyKind = Literal["secret", "publishable"]


class KeyConfigError(RuntimeError):
    """DAEDALUS_API_KEYS cannot be read (says where, never echoes the contents)."""


@quick_init
@dataclass(frozen=True, slots=True)
class Client:
    """Who is calling: the client app, its tenant, and the identity rate limits count."""

    app: str
    tenant: str
    identity: str
    kind: KeyKind = "secret"
    origins: tuple[str, ...] = ()

    @property
    def publishable(self) -> bool:
        """Whether the key is a publishable (browser) key."""
        return self.kind == "publishable"

    def at_address(self, host: str) -> Client:
        """This publishable key's client as seen from one address (its own rate limit)."""
        return Client(self.app, self.tenant, f"{self.identity}@ip:{host}", self.kind, self.origins)

    def check_origin(self, origin: str | None) -> None:
        """OriginNotAllowed unless a publishable key is used from one of its origins."""
        if self.publishable and not origin_allowed(origin, self.origins):
            shown = "no Origin header" if not origin else f"origin {origin[:200]!r}"
            raise OriginNotAllowed(f"this publishable key may not be used from {shown}")


def key_digest(key: str) -> str:
    """The SHA-256 hex digest under which a key is configured."""
    return hashlib.sha256(key.encode()).hexdigest()


class KeyRing:
    """The configured keys, and the default tenant when keys are optional."""

    def __init__(self, entries: dict[str, Client], *, required: bool, default_tenant: str) -> None:
        self._entries = [(bytes.fromhex(d), c) for d, c in entries.items()]
        self.required = required or bool(entries)
        self.default_tenant = default_tenant

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def origins(self) -> tuple[str, ...]:
        """Every origin a publishable key is bound to (browsers from these pass CORS)."""
        found: dict[str, None] = {}
        for _, client in self._entries:
            found.update(dict.fromkeys(client.origins))
        return tuple(found)

    def lookup(self, key: str | None) -> Client | None:
        """The client of `key`; None for a keyless caller where keys are optional.

        Raises MissingApiKey or InvalidApiKey otherwise.
        """
        if not key:
            if self.required:
                raise MissingApiKey("an API key is required (X-API-Key header)")
            return None
        digest = hashlib.sha256(key.encode()).digest() if len(key) <= MAX_KEY_CHARS else b""
        found: Client | None = None
        for candidate, client in self._entries:  # no early exit: constant time in the match
            if hmac.compare_digest(candidate, digest):
                found = client
        if found is None:
            raise InvalidApiKey("the API key is not valid")
        return found


def _entries(raw: Any) -> dict[str, Client]:
    if not isinstance(raw, dict):
        raise KeyConfigError("DAEDALUS_API_KEYS must be a JSON object of key digests")
    entries: dict[str, Client] = {}
    for digest, spec in raw.items():
        if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
            raise KeyConfigError("each DAEDALUS_API_KEYS entry is a SHA-256 hex digest")
        app = spec.get("app") if isinstance(spec, dict) else None
        tenant = spec.get("tenant") if isinstance(spec, dict) else None
        if not isinstance(app, str) or not app or len(app) > 64:
            raise KeyConfigError(f"key {digest[:8]}…: 'app' must be a short name")
        if not isinstance(tenant, str) or not TENANT_PATTERN.fullmatch(tenant):
            raise KeyConfigError(f"key {digest[:8]}…: 'tenant' must match {TENANT_PATTERN.pattern}")
        kind, origins = _kind_and_origins(digest, spec)
        entries[digest] = Client(app, tenant, "key:" + digest[:16], kind, origins)
    return entries


def _kind_and_origins(digest: str, spec: dict[str, Any]) -> tuple[KeyKind, tuple[str, ...]]:
    kind = spec.get("kind", "secret")
    raw = spec.get("origins", [])
    if kind == "secret":
        if raw:
            raise KeyConfigError(f"key {digest[:8]}…: only a publishable key has 'origins'")
        return "secret", ()
    if kind != "publishable":
        raise KeyConfigError(f"key {digest[:8]}…: 'kind' is 'secret' or 'publishable'")
    if not isinstance(raw, list) or not raw or not all(isinstance(o, str) for o in raw):
        raise KeyConfigError(f"key {digest[:8]}…: a publishable key lists its 'origins'")
    try:
        origins = tuple(dict.fromkeys(normalize_origin(o) for o in raw))
    except InvalidOrigin as exc:
        raise KeyConfigError(f"key {digest[:8]}…: {exc}") from None
    if "*" in origins:
        raise KeyConfigError(f"key {digest[:8]}…: a publishable key names its origins, not '*'")
    return "publishable", origins


def load_keyring(settings: Settings) -> KeyRing:
    """The key ring of `settings`: inline JSON, or a JSON file (relative to the data folder)."""
    raw = (settings.api_keys or "").strip()
    if not raw:
        entries: dict[str, Client] = {}
    else:
        if not raw.startswith("{"):
            path = Path(raw) if Path(raw).is_absolute() else settings.data_dir / raw
            try:
                raw = path.read_text()
            except OSError as exc:
                raise KeyConfigError(f"cannot read DAEDALUS_API_KEYS file {path}: {exc}") from None
        try:
            parsed = json.loads(raw)
        except ValueError:
            raise KeyConfigError("DAEDALUS_API_KEYS is not valid JSON") from None
        entries = _entries(parsed)
    return KeyRing(entries, required=settings.production, default_tenant=settings.tenant)


def remember_client(conn_scope: Scope, client: Client) -> None:
    """Record who is calling on the connection's scope (read back by client_of)."""
    conn_scope.setdefault("state", {})[_STATE] = client


def client_state(conn_scope: Scope) -> Client | None:
    """The caller recorded on the scope, if any."""
    found = conn_scope.get("state", {}).get(_STATE)
    return found if isinstance(found, Client) else None


def _peer(conn_scope: Scope) -> str:
    peer = conn_scope.get("client")
    return str(peer[0]) if peer else "unknown"


def anonymous(keyring: KeyRing, conn_scope: Scope) -> Client:
    """A keyless caller where keys are optional: the default tenant, counted by its IP."""
    return Client("anonymous", keyring.default_tenant, "ip:" + _peer(conn_scope))


def header(conn_scope: Scope, name: bytes) -> str | None:
    """A request header's value (the first), decoded as latin-1."""
    return next((v.decode("latin-1") for n, v in conn_scope["headers"] if n == name), None)


def admit(keyring: KeyRing, conn_scope: Scope, key: str | None) -> Client:
    """The caller showing `key` on this request or socket.

    Raises MissingApiKey / InvalidApiKey, or OriginNotAllowed for a publishable key used
    from a page that is not on one of its origins. A publishable key is counted per
    client address: every player holds it, so one player cannot spend another's budget.
    """
    client = keyring.lookup(key)
    if client is None:
        return anonymous(keyring, conn_scope)
    if client.publishable:
        if not same_origin(conn_scope):  # the service's own pages (/table/) may use it
            client.check_origin(header(conn_scope, b"origin"))
        client = client.at_address(_peer(conn_scope))
    return client


def same_origin(conn_scope: Scope) -> bool:
    """Whether a browser says this request comes from a page of this service's origin:
    its `Origin` names the host it was sent to, or, on a same-origin GET (which carries
    no `Origin`), `Sec-Fetch-Site: same-origin`. Browsers set both; a page of another
    site cannot."""
    origin = header(conn_scope, b"origin")
    if origin is None:
        return header(conn_scope, b"sec-fetch-site") == "same-origin"
    return is_same_origin(origin, header(conn_scope, b"host"))


def client_of(conn: HTTPConnection) -> Client:
    """Who is calling; MissingApiKey when the connection has not shown a key yet."""
    found = client_state(conn.scope)
    if found is not None:
        return found
    keyring: KeyRing | None = getattr(conn.app.state, "keyring", None)
    if keyring is None:
        settings: Settings = conn.app.state.settings
        return Client("anonymous", settings.tenant, "ip:unknown")
    if keyring.required:
        raise MissingApiKey("an API key is required (X-API-Key header)")
    return anonymous(keyring, conn.scope)


def authenticate_connection(conn: HTTPConnection, key: str | None) -> Client:
    """Check a key shown after the handshake (a WebSocket's connection_init payload)."""
    if client_state(conn.scope) is not None or not key:
        return client_of(conn)
    keyring: KeyRing = conn.app.state.keyring
    client = admit(keyring, conn.scope, key)
    remember_client(conn.scope, client)
    return client
