"""Provably fair rolls by commit and reveal, with no server-side state.

1. The service issues a commitment: an id (random bytes, an expiry and a MAC tag) and
   `hash = sha256(server_seed)`, where `server_seed = hex(HMAC-SHA256(key, id))`.
2. Until the expiry, rolls use `HmacRng(server_seed, client_seed, nonce)`; the client
   picks the client seed and nonce, so neither side alone controls the outcome.
3. After the expiry the service reveals the server seed (never before: once revealed,
   a client could choose seeds to get the rolls it wants). Anyone can then check the
   hash and replay every roll with the documented algorithm (docs/DICE.md) or `verify`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import struct
from dataclasses import dataclass
from typing import Any

from services.dice.errors import DiceError, DiceValueError
from services.dice.limits import DEFAULT_LIMITS, Limits
from services.dice.results import RollResult
from services.dice.rng import HmacRng
from services.dice.roller import roll

MAX_CLIENT_SEED = 256
MAX_NONCE = 2**63 - 1
# How many nonces one commitment may roll (each at most once, recorded by the API).
ROLL_BUDGET = 1000


class CommitmentError(DiceError):
    """A commitment is unknown, expired for rolling, or not yet revealable."""

    code = "invalid_commitment"
    http_status = 409


@dataclass(frozen=True, slots=True)
class Commitment:
    """What the service publishes before any roll."""

    id: str
    hash: str
    expires_at: int

    def to_dict(self) -> dict[str, Any]:
        """JSON of the commitment."""
        return {
            "commitment_id": self.id,
            "hash": self.hash,
            "algorithm": "hmac-sha256",
            "expires_at": self.expires_at,
        }


@dataclass(frozen=True, slots=True)
class Verification:
    """A roll replayed from revealed seeds, and whether the seed matches the hash."""

    roll: RollResult
    hash_matches: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON: the replayed roll and the hash check."""
        return {"roll": self.roll.to_dict(), "hash_matches": self.hash_matches}


def _tag(key: bytes, body: bytes, tenant: str) -> bytes:
    # The tenant is under the tag: another tenant's id does not open (invalid_commitment).
    bound = tenant.encode() + b"\0" + body
    return hmac.digest(key, b"daedalus-commitment-id:" + bound, "sha256")[:8]


def _server_seed(key: bytes, commitment_id: str) -> str:
    return hmac.digest(key, b"daedalus-server-seed:" + commitment_id.encode(), "sha256").hex()


def seed_hash(server_seed: str) -> str:
    """The published commitment to a server seed."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def issue_commitment(
    secret_key: bytes, now: int, ttl_seconds: int, entropy: bytes | None = None, tenant: str = ""
) -> Commitment:
    """A new commitment of `tenant`, valid for rolling until now + ttl_seconds."""
    body = (entropy or secrets.token_bytes(16))[:16].ljust(16, b"\0") + struct.pack(
        ">Q", now + ttl_seconds
    )
    cid = base64.urlsafe_b64encode(body + _tag(secret_key, body, tenant)).decode().rstrip("=")
    return Commitment(cid, seed_hash(_server_seed(secret_key, cid)), now + ttl_seconds)


def expiry(secret_key: bytes, commitment_id: str, tenant: str = "") -> int:
    """The expiry of a commitment this service issued to `tenant`, or CommitmentError."""
    try:
        raw = base64.urlsafe_b64decode(commitment_id + "=" * (-len(commitment_id) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    # Only the canonical spelling: the server seed derives from the id's text.
    canonical = base64.urlsafe_b64encode(raw).decode().rstrip("=") == commitment_id
    if (
        len(raw) != 32
        or not canonical
        or not hmac.compare_digest(raw[24:], _tag(secret_key, raw[:24], tenant))
    ):
        raise CommitmentError("unknown commitment id", code="invalid_commitment")
    expires_at: int = struct.unpack(">Q", raw[16:24])[0]
    return expires_at


def _check_inputs(client_seed: str, nonce: int) -> None:
    if len(client_seed) > MAX_CLIENT_SEED:
        raise DiceValueError(
            f"the client seed may have at most {MAX_CLIENT_SEED} characters",
            code="invalid_client_seed",
        )
    if not 0 <= nonce <= MAX_NONCE:
        raise DiceValueError(f"the nonce must be in 0..{MAX_NONCE}", code="invalid_nonce")


def fair_roll(
    secret_key: bytes,
    commitment_id: str,
    client_seed: str,
    nonce: int,
    expression: str,
    now: int,
    limits: Limits = DEFAULT_LIMITS,
    tenant: str = "",
) -> RollResult:
    """A roll bound to an unexpired commitment of `tenant`; the server seed stays secret.

    Pure: the caller records the (commitment, nonce) before it shows the result, so each
    nonce rolls once (services/store/fairrolls.py)."""
    expires_at = expiry(secret_key, commitment_id, tenant)
    if now >= expires_at:
        raise CommitmentError(
            "this commitment has expired: reveal it and create a new one",
            code="commitment_expired",
        )
    _check_inputs(client_seed, nonce)
    seed = _server_seed(secret_key, commitment_id)
    result = roll(expression, HmacRng(seed, client_seed, nonce), limits)
    result.rng = {
        "algorithm": "hmac-sha256",
        "commitment_id": commitment_id,
        "hash": seed_hash(seed),
        "client_seed": client_seed,
        "nonce": nonce,
    }
    return result


def reveal(secret_key: bytes, commitment_id: str, now: int, tenant: str = "") -> str:
    """The server seed of an expired commitment of `tenant`."""
    expires_at = expiry(secret_key, commitment_id, tenant)
    if now < expires_at:
        raise CommitmentError(
            f"this commitment accepts rolls until {expires_at}; it is revealed after that",
            code="commitment_active",
        )
    return _server_seed(secret_key, commitment_id)


def verify(
    expression: str,
    server_seed: str,
    client_seed: str,
    nonce: int,
    hash: str,
    limits: Limits = DEFAULT_LIMITS,
) -> Verification:
    """Replay a fair roll from its seeds; check the server seed against its hash."""
    _check_inputs(client_seed, nonce)
    result = roll(expression, HmacRng(server_seed, client_seed, nonce), limits)
    result.rng = {
        "algorithm": "hmac-sha256",
        "server_seed": server_seed,
        "client_seed": client_seed,
        "nonce": nonce,
    }
    # As bytes: compare_digest refuses str with non-ASCII characters (any input compares).
    matches = hmac.compare_digest(seed_hash(server_seed).encode(), hash.lower().encode())
    return Verification(result, matches)
