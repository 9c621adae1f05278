"""Per-session role tokens: GM, player (bound to one party member) or spectator.

A token is `v1.<payload>.<mac>`: the payload is base64url JSON (tenant, session id,
role, member, issued-at and expiry in seconds, the issue time in milliseconds and a
random token id), the mac an HMAC-SHA256 of it under a key derived from the service key
(so a token can never pass for a dice commitment or the other way round). A token has
one spelling: unpadded base64url whose unused low bits are zero; any other spelling of
the same bytes is refused. Tokens are bearer secrets: never log or echo one (the token
id may be shown: it is how a GM names a token to revoke).
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from services.errors import DomainError
from services.markers import LongInt
from services.slotted import quick_init

Role = Literal["gm", "player", "spectator"]
ROLES: tuple[Role, ...] = ("gm", "player", "spectator")
DEFAULT_TTL_SECONDS = 12 * 3600
MIN_TTL_SECONDS = 60
MAX_TTL_SECONDS = 30 * 24 * 3600  # a season of game nights (campaigns renew within it)
# A role token's lifetime in seconds, as a request asks for it.
TokenTtl = Annotated[LongInt, Field(ge=MIN_TTL_SECONDS, le=MAX_TTL_SECONDS)]
MAX_TOKEN_CHARS = 2048
VERIFIED_CACHE = 1024  # genuine tokens whose grant is remembered, per process
_PREFIX = "v1"
_CONTEXT = b"daedalus/session-role-token/v1"


class InvalidToken(DomainError):
    """Missing, malformed, forged or expired: the caller must get a new token."""

    code = "invalid_token"
    http_status = 401


class SessionNotFound(DomainError):
    """No such session for this caller's tenant (whether it exists elsewhere is not said)."""

    code = "session_not_found"
    http_status = 404


class Forbidden(DomainError):
    """A valid token that does not allow this: another session, role or member."""

    code = "forbidden"
    http_status = 403


class TokenRevoked(InvalidToken):
    """A genuine token the GM has revoked (or the member it was for was removed)."""

    code = "token_revoked"


@quick_init
@dataclass(frozen=True, slots=True)
class RoleToken:
    """What a verified token grants: one role in one session, until `expires`."""

    session_id: str
    role: Role
    member: str | None
    issued: int
    expires: int
    tenant: str
    token_id: str | None = None  # None for tokens issued before tokens had ids
    issued_ms: int = 0

    @property
    def issued_at_ms(self) -> int:
        """When it was issued, in ms (a token without `ims`: the end of its second)."""
        return self.issued_ms or self.issued * 1000 + 999


@functools.lru_cache(maxsize=8)
def _key(secret: bytes) -> bytes:
    return hmac.new(secret, _CONTEXT, hashlib.sha256).digest()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def issue_token(
    secret: bytes,
    session_id: str,
    role: Role,
    now: int,
    member: str | None = None,
    ttl_seconds: int = DEFAULT_TTL_SECONDS,
    *,
    tenant: str,
    now_ms: int | None = None,
) -> str:
    """A signed token granting `role` (as `member`, for a player) in a tenant's session.

    `now_ms` (default: `now` in ms) orders it against revocations made the same second.
    """
    if (role == "player") != (member is not None):
        raise ValueError("a player token names exactly one member; other roles none")
    claims: dict[str, Any] = {
        "ten": tenant,
        "sid": session_id,
        "role": role,
        "iat": now,
        "ims": now * 1000 if now_ms is None else now_ms,
        "exp": now + ttl_seconds,
        "jti": secrets.token_hex(8),
    }
    if member is not None:
        claims["mem"] = member
    payload = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    mac = hmac.new(_key(secret), f"{_PREFIX}.{payload}".encode(), hashlib.sha256).digest()
    return f"{_PREFIX}.{payload}.{_b64(mac)}"


def read_token(secret: bytes, token: str, now: int) -> RoleToken:
    """The grant of a genuine, unexpired token; InvalidToken otherwise (saying nothing more)."""
    if len(token) > MAX_TOKEN_CHARS:
        raise InvalidToken("the session token is malformed")
    grant = _verified(secret, token)
    if grant.expires <= now:
        raise InvalidToken("the session token has expired")
    return grant


# A table sends the same few tokens all evening: a genuine token's grant is remembered
# (its expiry is still checked on every use); a refused one is checked afresh each time.
@functools.lru_cache(maxsize=VERIFIED_CACHE)
def _verified(secret: bytes, token: str) -> RoleToken:
    """The grant of a genuine token (expired or not); InvalidToken if it is not genuine."""
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != _PREFIX or not all(map(_canonical, parts[1:])):
        raise InvalidToken("the session token is malformed")
    expected = hmac.new(_key(secret), f"{_PREFIX}.{parts[1]}".encode(), hashlib.sha256).digest()
    try:
        mac = _unb64(parts[2])
        claims = json.loads(_unb64(parts[1])) if hmac.compare_digest(mac, expected) else None
    except (binascii.Error, ValueError):
        claims = None
    if not isinstance(claims, dict):
        raise InvalidToken("the session token is not genuine")
    return _grant(claims)


def _canonical(part: str) -> bool:
    """Whether `part` is the one spelling of its bytes (no padding, zero unused bits)."""
    try:
        return _b64(_unb64(part)) == part
    except (binascii.Error, ValueError):
        return False


def _grant(claims: dict[str, Any]) -> RoleToken:
    role, member = claims.get("role"), claims.get("mem")
    sid, iat, exp = claims.get("sid"), claims.get("iat"), claims.get("exp")
    tenant, jti, ims = claims.get("ten"), claims.get("jti"), claims.get("ims", 0)
    if (
        role not in ROLES
        or not isinstance(tenant, str)
        or not isinstance(sid, str)
        or not isinstance(iat, int)
        or not isinstance(exp, int)
        or not isinstance(ims, int)
        or not (jti is None or isinstance(jti, str))
        or (role == "player") != isinstance(member, str)
    ):
        raise InvalidToken("the session token is not genuine")
    member = member if isinstance(member, str) else None
    return RoleToken(sid, role, member, iat, exp, tenant, jti, ims)


def authenticate(
    secret: bytes, token: str | None, session_id: str, now: int, tenant: str
) -> RoleToken:
    """The grant of `token` for `session_id` in `tenant`.

    401 without a good token, 404 for a token of another tenant (as if the session did
    not exist: a key never learns of another tenant's sessions), 403 for another session.
    """
    if not token:
        raise InvalidToken("a session token is required (Authorization: Bearer <token>)")
    grant = read_token(secret, token, now)
    if not hmac.compare_digest(grant.tenant.encode(), tenant.encode()):
        raise SessionNotFound("no such session")
    if not hmac.compare_digest(grant.session_id.encode(), session_id.encode()):
        raise Forbidden("this token is for another session")
    return grant


def rfc3339(seconds: float) -> str:
    """A POSIX time as an RFC 3339 UTC timestamp (what `expires_at` fields carry)."""
    stamp = datetime.fromtimestamp(seconds, UTC)
    return stamp.isoformat(timespec="milliseconds" if seconds % 1 else "seconds").replace(
        "+00:00", "Z"
    )


def token_facts(token: str) -> dict[str, str]:
    """What the holder of a token just issued may know of it: its id and its expiry."""
    claims = json.loads(_unb64(token.split(".")[1]))
    return {"token_id": str(claims["jti"]), "expires_at": rfc3339(int(claims["exp"]))}


def first_tokens(gm_token: str, spectator_token: str) -> dict[str, str]:
    """A new table's GM and spectator tokens with their ids and (shared) expiry."""
    gm, spectator = token_facts(gm_token), token_facts(spectator_token)
    return {
        "gm_token": gm_token,
        "gm_token_id": gm["token_id"],
        "spectator_token": spectator_token,
        "spectator_token_id": spectator["token_id"],
        "expires_at": gm["expires_at"],
    }
