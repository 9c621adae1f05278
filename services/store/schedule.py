"""When each campaign's next downtime falls due: one Redis sorted set for every tenant.

Member `<tenant>\\x1f<campaign id>`, score = the POSIX time its next tick is due. A
scheduler claims due members atomically and leases them (re-scores them a little into
the future), so two schedulers scanning at once never both take one, and a campaign
whose tick task was lost is claimed again when its lease runs out. Writers that know the
campaign's stream version pass it: an older version never overwrites a newer one's due
time (a slow worker cannot push a campaign back after its cadence changed).

On a Redis Cluster the set and its versions hash must share a slot (SET_DUE touches
both): a key without a hash tag is used wrapped in one, `{daedalus:campaigns:due}`, and
the versions hash is `<key>:versions` in the same slot. The whole schedule is one slot
(one master): a claim is one atomic script over every tenant's campaigns.
"""

from __future__ import annotations

from typing import Any

from redis.cluster import RedisCluster

from services.store.client import AnyRedis

SEP = "\x1f"
DEFAULT_KEY = "daedalus:campaigns:due"

# KEYS: 1 the schedule. ARGV: now, limit, the lease's end (exact decimal text).
CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], member)
end
return due
"""

# KEYS: 1 the schedule, 2 the versions hash. ARGV: member, version ('' = unguarded),
# due time ('' = remove). Returns 1 if written, 0 if a newer version was already there.
SET_DUE = """
if ARGV[2] ~= '' then
  local known = redis.call('HGET', KEYS[2], ARGV[1])
  if known and tonumber(known) > tonumber(ARGV[2]) then return 0 end
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""


def member(tenant: str, campaign_id: str) -> str:
    """The schedule member of a campaign."""
    if not tenant or not campaign_id or SEP in tenant or SEP in campaign_id:
        raise ValueError("tenant and campaign id are non-empty and contain no \\x1f")
    return f"{tenant}{SEP}{campaign_id}"


def _split(raw: bytes | str) -> tuple[str, str]:
    text = raw.decode() if isinstance(raw, bytes) else raw
    tenant, _, campaign_id = text.partition(SEP)
    return tenant, campaign_id


def _score(value: float) -> str:
    # repr is the shortest exact text of a float: the score Redis stores is the same one.
    return repr(float(value))


class TickSchedule:
    """The due times of every scheduled campaign, in one Redis sorted set."""

    def __init__(self, client: AnyRedis, key: str = DEFAULT_KEY) -> None:
        self.client = client
        if isinstance(client, RedisCluster) and "{" not in key:
            key = "{" + key + "}"  # the set and its versions hash in one slot
        self.key = key
        self.versions_key = key + ":versions"
        self._claim = client.register_script(CLAIM)
        self._set_due = client.register_script(SET_DUE)

    def set_due(
        self, tenant: str, campaign_id: str, due_at: float | None, *, version: int | None = None
    ) -> bool:
        """Schedule the campaign's next tick at `due_at` (None: unschedule it).

        With `version` (the stream version `due_at` was computed from), the write is
        skipped, and False returned, when a newer version already set the entry.
        """
        args = [
            member(tenant, campaign_id),
            "" if version is None else str(version),
            "" if due_at is None else _score(due_at),
        ]
        written: Any = self._set_due(keys=[self.key, self.versions_key], args=args)
        return bool(written)

    def forget(self, tenant: str, campaign_id: str) -> None:
        """Drop the campaign's entry and its version record (a deleted campaign)."""
        name = member(tenant, campaign_id)
        pipe = self.client.pipeline()
        pipe.zrem(self.key, name)
        pipe.hdel(self.versions_key, name)
        pipe.execute()

    def claim_due(self, now: float, limit: int, lease_seconds: float) -> list[tuple[str, str]]:
        """Take up to `limit` campaigns due at `now`, leasing them until now + lease_seconds.

        Atomic: a campaign is claimed by one caller per lease; one whose tick never ran
        falls due again when the lease ends.
        """
        if limit <= 0:
            return []
        if lease_seconds <= 0:
            raise ValueError("a lease lasts more than 0 seconds")
        claimed: Any = self._claim(
            keys=[self.key], args=[_score(now), limit, _score(now + lease_seconds)]
        )
        return [_split(raw) for raw in claimed]

    def due(self, tenant: str, campaign_id: str) -> float | None:
        """When the campaign's next tick is due (or leased until), None if unscheduled."""
        score: Any = self.client.zscore(self.key, member(tenant, campaign_id))
        return None if score is None else float(score)

    def oldest_due(self, now: float) -> float | None:
        """The earliest due time not yet claimed at `now` (how far behind the clock is)."""
        first: Any = self.client.zrangebyscore(self.key, "-inf", _score(now), 0, 1, withscores=True)
        return float(first[0][1]) if first else None

    def __len__(self) -> int:
        count: Any = self.client.zcard(self.key)
        return int(count)
