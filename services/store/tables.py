"""A tenant's tables: the index of its sessions and campaigns, and single-use join codes.

The index is a sorted set per kind (score: creation time in ms), read newest first in
pages; a page's cursor is the last entry's `<ms>:<id>`, so pages stay stable while new
tables are created. A join code is a key holding its grant as JSON, taken with GETDEL:
exactly one exchange succeeds, however many race for it, and Redis expires it unused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from services.store.client import AnyRedis
from services.store.keys import Keys


@dataclass(frozen=True, slots=True)
class IndexPage:
    """Table ids, newest first, and the cursor of the next page (None: the last page)."""

    ids: list[tuple[str, int]]
    cursor: str | None


class Tables:
    """The index and join codes of one tenant."""

    def __init__(self, client: AnyRedis, keys: Keys) -> None:
        self.client = client
        self.keys = keys

    def add(self, kind: str, table_id: str, created_ms: int) -> None:
        """Index a new table."""
        self.client.zadd(self.keys.index(kind), {table_id: created_ms})

    def page(self, kind: str, limit: int, cursor: str | None = None) -> IndexPage:
        """At most `limit` tables created before `cursor` (newest first)."""
        key = self.keys.index(kind)
        top: str | float = "+inf"
        after: tuple[int, str] | None = None
        if cursor is not None:
            at, _, last = cursor.partition(":")
            after = (int(at), last)
            top = int(at)
        # Entries of the cursor's own millisecond come back too: skip those already shown
        # (same score: Redis orders them by id, reversed here).
        found: list[tuple[str, int]] = []
        offset = 0
        while len(found) <= limit:  # one more than asked: is there a next page?
            batch: list[tuple[bytes, float]] = self.client.zrevrangebyscore(
                key, top, "-inf", start=offset, num=limit + 1, withscores=True
            )  # type: ignore[assignment]  # redis-py's sync return type is a union
            if not batch:
                break
            offset += len(batch)
            for raw, score in batch:
                table_id = raw.decode() if isinstance(raw, bytes) else str(raw)
                created = int(score)
                if after is not None and created == after[0] and table_id >= after[1]:
                    continue
                found.append((table_id, created))
        more = len(found) > limit
        found = found[:limit]
        nxt = f"{found[-1][1]}:{found[-1][0]}" if more and found else None
        return IndexPage(found, nxt)

    def put_code(self, code: str, grant: dict[str, Any], ttl_seconds: int) -> bool:
        """Store a join code's grant for `ttl_seconds`; False if the code is taken."""
        stored = self.client.set(
            self.keys.join_code(code), json.dumps(grant), nx=True, ex=ttl_seconds
        )
        return bool(stored)

    def take_code(self, code: str) -> dict[str, Any] | None:
        """The grant of a live join code, which is used up (None: unknown, used or expired)."""
        raw = self.client.getdel(self.keys.join_code(code))
        if raw is None:
            return None
        grant: dict[str, Any] = json.loads(raw)
        return grant
