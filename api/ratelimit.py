"""Token buckets per caller, in this process's memory.

Each worker process keeps its own buckets, so N workers allow up to N times the rate;
a shared Redis-based limiter is the next step when the service runs more than one.
The clock is an argument (monotonic seconds), so tests need no sleeping.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

MAX_BUCKETS = 50_000


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


class TokenBuckets:
    """`rate` tokens a second up to `burst` per identity; a request takes one token."""

    def __init__(self, rate: float, burst: int, max_buckets: int = MAX_BUCKETS) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("rate must be > 0 and burst ≥ 1")
        self.rate = rate
        self.burst = burst
        self.max_buckets = max_buckets
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, identity: str, now: float) -> Decision:
        """Take a token for `identity` at time `now`, if there is one."""
        tokens, last = self._buckets.pop(identity, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + max(0.0, now - last) * self.rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[identity] = (tokens, now)  # most recently used last
        if len(self._buckets) > self.max_buckets:
            self._buckets.popitem(last=False)  # a forgotten caller starts with a full bucket
        return Decision(
            allowed=allowed,
            limit=self.burst,
            remaining=int(tokens),
            reset_seconds=math.ceil((self.burst - tokens) / self.rate),
            retry_after=0 if allowed else max(1, math.ceil((1.0 - tokens) / self.rate)),
        )
