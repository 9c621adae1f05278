"""Per-caller rate limits shared by every API process: a token bucket per caller in Redis.

Each bucket is one Redis key holding its GCRA "theoretical arrival time" (the generic
cell rate algorithm: a token bucket kept as a single timestamp), updated by one Lua
script, so the check and the update are atomic and every replica on the same Redis
shares the caller's limit. The clock is Redis's own (`TIME`), so replicas need not agree
on theirs; tests pass the time instead. A key lives only until its bucket would be full
again (its TTL), so idle callers cost nothing.

The store is the service's own Redis (the runtime's connection), reached with an async
client on the event loop, without a thread hop. On one Redis (TCP or a Unix socket) that
client is the store's pipelined one (services/store/pipelined.py): one connection per
process, the takes of a turn of the loop written at once (`async_event_store_client`,
with the limiter's own short timeouts). redis-py's asyncio client took a pooled
connection per take: with the limit on (production's default), a REST flip cost
0.11-0.28 ms more API CPU than without it, a quarter to a half again; now 0-0.10
(`bench/api.py` prints `rest_flip_server_cpu_rate_limited`). On a Redis Cluster
(`redis+cluster://`), with TLS or other URL options, and in a traced API (OpenTelemetry's
Redis spans are redis-py's), redis-py's asyncio clients, as the store's: a cluster client
runs the script on its bucket's slot's master (each bucket is one key).

When Redis cannot be reached the limiter fails open: the request is served without
RateLimit headers and a warning is logged (at most once per `WARN_EVERY` seconds), and
Redis is not tried again for `BACKOFF` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from redis.exceptions import NoScriptError, RedisError

from services.store.aio import AsyncRedis, async_event_store_client
from services.store.client import Outage, Timeouts
from services.store.errors import StoreUnavailable

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
_GCRA_SHA = hashlib.sha1(GCRA.encode()).hexdigest()


class _Unlogged(Outage):
    """The pipelined client's outage log, left to the limiter (`_fail_open`): an
    unreachable Redis fails it open, it is not the store's `store_unavailable`."""

    def failed(self, error: BaseException) -> None:
        """Nothing: the limiter warns on its own, at most once per WARN_EVERY."""

    def succeeded(self) -> None:
        """Nothing, as `failed`."""


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
    `pipelined`: one Redis gets the store's pipelined client (module doc); false, redis-py's
    (a traced API).
    """

    def __init__(self, rate: float, burst: int, pipelined: bool = True) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst ≥ 1")
        self.rate = rate
        self.burst = burst
        self.pipelined = pipelined
        self.interval_us = max(1, round(_US / rate))
        self._client: AsyncRedis | None = None
        self._bound: tuple[str, asyncio.AbstractEventLoop] | None = None
        self._down_until = 0.0
        self._warned_at = -math.inf

    async def _client_for(self, url: str) -> AsyncRedis:
        loop = asyncio.get_running_loop()
        client = self._client
        if client is None or self._bound != (url, loop):
            # A client belongs to one loop (tests run several) and one URL. The event
            # store's kind of asyncio client, with the limiter's short timeouts; its
            # failures are the limiter's to log (it fails open).
            old, bound = client, self._bound
            timeouts = Timeouts(connect=TIMEOUT, socket=TIMEOUT)
            outage = _Unlogged("the rate limit's Redis")
            client = async_event_store_client(url, timeouts, outage, self.pipelined)
            self._client, self._bound = client, (url, loop)
            # One of another URL on this loop is closed (after the swap: takes meanwhile
            # use the new one); one of a loop that has ended went with that loop.
            if old is not None and bound is not None and bound[1] is loop:
                with contextlib.suppress(RedisError, OSError):
                    await old.aclose()
        return client

    async def _run(self, url: str, key: str, args: list[Any]) -> Any:
        """The script's reply for `key`; sent whole once when Redis has forgotten it."""
        client = await self._client_for(url)
        try:
            return await client.evalsha(_GCRA_SHA, 1, key, *args)
        except NoScriptError:
            return await client.eval(GCRA, 1, key, *args)

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
            reply = await self._run(url, KEY_PREFIX + identity, args)
        except (RedisError, OSError, TimeoutError) as exc:
            self._down_until = time.monotonic() + BACKOFF
            cause = exc.__cause__ if isinstance(exc, StoreUnavailable) and exc.__cause__ else exc
            self._fail_open(f"Redis is unreachable ({type(cause).__name__})")
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
