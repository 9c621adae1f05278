"""Key layout: a tenant prefix, and hash tags that keep what one script touches in one slot.

One Redis (`shards=1`, the layout since the first release): every key of one stream
shares the tag `{<tenant>:<stream>}`; the tenant's global log and its position counter
share `{<tenant>:$all}`. One server runs the append script over both atomically.

Redis Cluster (`shards=LOG_SHARDS`): a tenant's log is split into LOG_SHARDS shards, and
a stream belongs to shard `crc32(stream) % LOG_SHARDS`. Every key of a stream *and* its
shard's log and counter share the tag `{<tenant>:$s<shard>}`, so one slot holds them and
the append script writes the stream and its log shard atomically, as on one Redis. The
shards' slots spread over the cluster's masters (see docs/STORE.md).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

PREFIX = "daedalus"

LOG_SHARDS = 16
"""Log shards per tenant on a Redis Cluster. Part of the stored layout: changing it moves
streams to other shards, so it is a constant, not a setting."""


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one tenant."""

    tenant: str
    # 1: one Redis (one global log). LOG_SHARDS: a Redis Cluster (a log per shard).
    shards: int = 1

    def __post_init__(self) -> None:
        if not self.tenant or any(c in self.tenant for c in "{}:"):
            raise ValueError("a tenant name is non-empty and has no '{', '}' or ':'")
        if self.shards < 1:
            raise ValueError("a tenant's log has at least one shard")

    def shard(self, stream: str) -> int:
        """The log shard a stream's events go to (0 on one Redis)."""
        if self.shards == 1:
            return 0
        return zlib.crc32(stream.encode()) % self.shards

    def _tag(self, stream: str) -> str:
        if self.shards == 1:
            return f"{PREFIX}:{{{self.tenant}:{stream}}}"
        return f"{self._shard_tag(self.shard(stream))}:{stream}"

    def _shard_tag(self, shard: int) -> str:
        return f"{PREFIX}:{{{self.tenant}:$s{shard}}}"

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

    def log(self, shard: int = 0) -> str:
        """A log shard (entry ids 0-<sequence>); on one Redis, the tenant's global log."""
        if self.shards == 1:
            return f"{PREFIX}:{{{self.tenant}:$all}}:log"
        return self._shard_tag(shard) + ":log"

    def sequence(self, shard: int = 0) -> str:
        """A log shard's counter; on one Redis, the tenant's global position counter."""
        if self.shards == 1:
            return f"{PREFIX}:{{{self.tenant}:$all}}:position"
        return self._shard_tag(shard) + ":position"

    @property
    def all(self) -> str:
        """The tenant's global log on one Redis (entry ids 0-<position>)."""
        return self.log(0)

    @property
    def position(self) -> str:
        """The tenant's global position counter on one Redis."""
        return self.sequence(0)

    @property
    def pattern(self) -> str:
        """A SCAN pattern matching every key of the tenant."""
        return f"{PREFIX}:{{{self.tenant}:*"
