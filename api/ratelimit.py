"""Per-caller rate limits shared by every API process: a token bucket per caller in Redis.

Each bucket is one Redis key holding its GCRA "theoretical arrival time" (the generic
cell rate algorithm: a token bucket kept as a single timestamp), updated by one Lua
script, so the check and the update are atomic and every replica on the same Redis
shares the caller's limit. The clock is Redis's own (`TIME`), so replicas need not agree
on theirs; tests pass the time instead. A key lives only until its bucket would be full
again (its TTL), so idle callers cost nothing.

The store is the service's own Redis (the runtime's connection), reached with an async
client on the event loop, without a thread hop; on a Redis Cluster (`redis+cluster://`)
an async cluster client (each bucket is one key, so the script runs on its slot's
master). When Redis cannot be reached the limiter fails open: the request is served
without RateLimit headers and a warning is logged (at most once per `WARN_EVERY`
seconds), and Redis is not tried again for `BACKOFF` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from services.store.client import cluster_nodes, is_cluster_url

log = logging.getLogger(__name__)

KEY_PREFIX = "daedalus:ratelimit:"
# An unreachable Redis must not hold requests up: short timeouts, no retries, a pause.
TIMEOUT = 0.25
BACKOFF = 1.0
WARN_EVERY = 10.0
_US = 1_000_000

# KEYS[1] the caller's bucket. ARGV[1] the emission interval (µs per token), ARGV[2] the
# burst, ARGV[3] the time in µs, or "" for the server's clock, ARGV[4] the tokens taken.
# Returns {allowed (0|1), tokens remaining, µs until the bucket is full, µs to wait}.
GCRA = """
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4]) or 1
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local tat = tonumber(redis.call('GET', KEYS[1])) or now
if tat < now then tat = now end
local next_tat = tat + interval * cost
local allow_at = next_tat - interval * burst
if now < allow_at then
  return {0, 0, tat - now, allow_at - now}
end
redis.call('SET', KEYS[1], string.format('%d', next_tat),
  'PX', math.max(1, math.ceil((next_tat - now) / 1000)))
return {1, math.floor((now - allow_at) / interval), next_tat - now, 0}
"""


@dataclass(frozen=True, slots=True)
class Decision:
    """One request's verdict and what the RateLimit headers say."""

    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int
    retry_after: int

    def headers(self) -> dict[str, str]:
        """The IETF draft RateLimit-* headers (and Retry-After when refused)."""
        out = {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
        }
        if not self.allowed:
            out["Retry-After"] = str(self.retry_after)
        return out


def decision_of(reply: Any, burst: int) -> Decision:
    """The script's reply as a Decision (whole seconds, rounded up)."""
    allowed, remaining, full_us, wait_us = (int(x) for x in reply)
    return Decision(
        allowed=bool(allowed),
        limit=burst,
        remaining=max(0, remaining),
        reset_seconds=math.ceil(full_us / _US),
        retry_after=0 if allowed else max(1, math.ceil(wait_us / _US)),
    )


class TokenBuckets:
    """`rate` tokens a second up to `burst` per identity, kept in Redis; a request takes one.

    `take` needs the Redis URL (the runtime's connection); the async client is made on
    first use, on the running event loop, and remade if the loop or the URL changes.
    """

    def __init__(self, rate: float, burst: int) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst ≥ 1")
        self.rate = rate
        self.burst = burst
        self.interval_us = max(1, round(_US / rate))
        self._client: aioredis.Redis | AsyncRedisCluster | None = None
        self._script: Any = None
        self._bound: tuple[str, asyncio.AbstractEventLoop] | None = None
        self._down_until = 0.0
        self._warned_at = -math.inf

    def _script_for(self, url: str) -> Any:
        loop = asyncio.get_running_loop()
        if self._bound != (url, loop):  # a client belongs to one loop (tests run several)
            options: dict[str, Any] = {
                "socket_timeout": TIMEOUT,
                "socket_connect_timeout": TIMEOUT,
                "retry": Retry(NoBackoff(), 0),
            }
            if is_cluster_url(url):
                nodes, tls = cluster_nodes(url)
                self._client = AsyncRedisCluster(
                    startup_nodes=[ClusterNode(n.host, n.port) for n in nodes],
                    ssl=tls,
                    **options,
                )
            else:
                self._client = aioredis.Redis.from_url(url, **options)
            self._script = self._client.register_script(GCRA)
            self._bound = (url, loop)
        return self._script

    async def take(
        self, identity: str, url: str | None, now: float | None = None, cost: int = 1
    ) -> Decision | None:
        """Take `cost` tokens for `identity` from the buckets on the Redis at `url`.

        `now` (seconds) replaces Redis's clock (for tests). None when the limit cannot
        be checked (no Redis yet, or Redis unreachable): the caller lets the request pass.
        """
        if url is None:
            self._fail_open("the service's Redis is not open yet")
            return None
        if time.monotonic() < self._down_until:
            return None
        stamp = "" if now is None else round(now * _US)
        args = [self.interval_us, self.burst, stamp, max(1, min(cost, self.burst))]
        try:
            reply = await self._script_for(url)(keys=[KEY_PREFIX + identity], args=args)
        except (RedisError, OSError, TimeoutError) as exc:
            self._down_until = time.monotonic() + BACKOFF
            self._fail_open(f"Redis is unreachable ({type(exc).__name__})")
            return None
        return decision_of(reply, self.burst)

    def _fail_open(self, why: str) -> None:
        at = time.monotonic()
        if at - self._warned_at >= WARN_EVERY:
            self._warned_at = at
            log.warning("rate limit not enforced: %s; requests pass unchecked", why)

    async def aclose(self) -> None:
        """Close the Redis client (at shutdown)."""
        client, self._client, self._bound = self._client, None, None
        if client is not None:
            # The server may have gone first (the embedded one stops with the app).
            with contextlib.suppress(RedisError, OSError):
                await client.aclose()
