"""Key layout: a tenant prefix, and one hash tag per stream for Redis Cluster.

Every key of one stream shares the tag `{<tenant>:<stream>}`, so a stream's append,
reads and snapshot live in one slot. The tenant's global log and its position counter
share the tag `{<tenant>:$all}`. On a single Redis server (the supported deployment
today) the append script writes both atomically; on Cluster they fall in different
slots, and the global log would have to be filled by a relay (see docs/STORE.md).
"""

from __future__ import annotations

from dataclasses import dataclass

PREFIX = "daedalus"


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one tenant."""

    tenant: str

    def __post_init__(self) -> None:
        if not self.tenant or any(c in self.tenant for c in "{}:"):
            raise ValueError("a tenant name is non-empty and has no '{', '}' or ':'")

    def _tag(self, stream: str) -> str:
        return f"{PREFIX}:{{{self.tenant}:{stream}}}"

    def events(self, stream: str) -> str:
        """The Redis stream holding a stream's events (entry ids 0-<version>)."""
        return self._tag(stream) + ":events"

    def ids(self, stream: str) -> str:
        """The hash of a stream's event ids → "version:position"."""
        return self._tag(stream) + ":ids"

    def intents(self, stream: str) -> str:
        """The hash of a stream's claimed command ids → what the first attempt set out to do."""
        return self._tag(stream) + ":intents"

    def snapshot(self, stream: str) -> str:
        """The hash holding a stream's latest snapshot."""
        return self._tag(stream) + ":snapshot"

    def revocations(self, stream: str) -> str:
        """The hash of a stream's revoked role tokens: scope → cutoff (ms)."""
        return self._tag(stream) + ":revoked"

    def fair_rolls(self, commitment_id: str) -> str:
        """The nonces rolled under one provably fair commitment (a hash: nonce → 1)."""
        return f"{PREFIX}:{{{self.tenant}:$fair:{commitment_id}}}:nonces"

    def join_code(self, code: str) -> str:
        """A join code's grant (single use, expiring)."""
        return f"{PREFIX}:{{{self.tenant}:$join}}:{code}"

    def index(self, kind: str) -> str:
        """The sorted set of a tenant's tables of one kind (sessions, campaigns) by creation."""
        return f"{PREFIX}:{{{self.tenant}:$index}}:{kind}"

    @property
    def all(self) -> str:
        """The tenant's global log (entry ids 0-<position>)."""
        return f"{PREFIX}:{{{self.tenant}:$all}}:log"

    @property
    def position(self) -> str:
        """The tenant's global position counter."""
        return f"{PREFIX}:{{{self.tenant}:$all}}:position"

    @property
    def pattern(self) -> str:
        """A SCAN pattern matching every key of the tenant."""
        return f"{PREFIX}:{{{self.tenant}:*"
