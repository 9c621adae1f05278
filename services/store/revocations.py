"""Revoked role tokens, per stream (a session or a campaign), kept in Redis.

A revocation is a scope and a cutoff in milliseconds: every token of that scope issued
at or before the cutoff is refused. Scopes are `token:<id>` (one token), `member:<id>`
(a player's seat or a runner), `role:<role>` and `all`. The hash shares its stream's
hash tag (one slot on a cluster) and expires once every token it could name has expired.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from services.store.client import AnyRedis
from services.store.keys import Keys

# Past any token's lifetime (api/sessions/tokens.MAX_TTL_SECONDS), with a margin.
KEEP_SECONDS = 31 * 24 * 3600

# Atomic: a later cutoff wins, an earlier one never shortens a revocation.
_REVOKE = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current or tonumber(current) < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""


def covered(issued_ms: int, cutoffs: Sequence[int | None]) -> bool:
    """Whether a token issued at `issued_ms` falls under any of its scopes' cutoffs."""
    return any(cutoff is not None and issued_ms <= cutoff for cutoff in cutoffs)


@dataclass(slots=True)
class Guard:
    """A role token's revocation check, made by the append script in the same step as the
    append (no read of its own): its issue time and the scopes that would cover it.
    `checked` records that the script made it, so a caller whose command never reached
    the script (refused first, nothing to record) knows to check on its own."""

    issued_ms: int
    scopes: tuple[str, ...]
    checked: bool = False


class Revocations:
    """The revocations of one tenant's streams."""

    def __init__(self, client: AnyRedis, keys: Keys) -> None:
        self.client = client
        self.keys = keys
        self._revoke = client.register_script(_REVOKE)

    def revoke(self, stream: str, scope: str, cutoff_ms: int) -> None:
        """Refuse every token of `scope` issued at or before `cutoff_ms` (kept if later)."""
        self._revoke(keys=[self.keys.revocations(stream)], args=[scope, cutoff_ms, KEEP_SECONDS])

    def cutoffs(self, stream: str, scopes: Sequence[str]) -> list[int | None]:
        """The cutoff of each scope (None: never revoked)."""
        if not scopes:
            return []
        return cutoffs_of(self.client.hmget(self.keys.revocations(stream), list(scopes)))

    def table(self, stream: str) -> dict[str, int]:
        """Every revocation of a stream: scope → cutoff (ms)."""
        return table_of(self.client.hgetall(self.keys.revocations(stream)))


def cutoffs_of(found: Sequence[Any]) -> list[int | None]:
    """The cutoffs an HMGET of a stream's revocations answered (None: never revoked)."""
    return [None if v is None else int(v) for v in found]


def table_of(found: Mapping[Any, Any]) -> dict[str, int]:
    """Every revocation an HGETALL of a stream's revocations answered: scope → cutoff."""
    return {k.decode() if isinstance(k, bytes) else str(k): int(v) for k, v in found.items()}
