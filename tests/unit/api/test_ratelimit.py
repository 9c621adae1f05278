"""Token buckets: a burst, then the rate; the RateLimit headers say how much is left."""

from __future__ import annotations

import pytest

from api.ratelimit import TokenBuckets


def test_a_caller_gets_its_burst_then_waits_for_the_rate() -> None:
    buckets = TokenBuckets(rate=2.0, burst=3)
    decisions = [buckets.take("k", now=10.0) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert [d.remaining for d in decisions] == [2, 1, 0, 0]
    refused = decisions[-1]
    assert refused.headers()["Retry-After"] == "1" and refused.headers()["RateLimit-Limit"] == "3"
    assert buckets.take("k", now=10.5).allowed  # half a second refills one token at 2/s


def test_callers_have_their_own_buckets() -> None:
    buckets = TokenBuckets(rate=1.0, burst=1)
    assert buckets.take("a", 0.0).allowed and not buckets.take("a", 0.0).allowed
    assert buckets.take("b", 0.0).allowed


def test_reset_is_the_time_to_a_full_bucket() -> None:
    buckets = TokenBuckets(rate=0.5, burst=4)
    for _ in range(4):
        last = buckets.take("k", 0.0)
    assert last.reset_seconds == 8 and "Retry-After" not in last.headers()


def test_the_number_of_buckets_is_bounded() -> None:
    buckets = TokenBuckets(rate=1.0, burst=1, max_buckets=2)
    for name in "abc":
        buckets.take(name, 0.0)
    assert buckets.take("a", 0.0).allowed  # forgotten: a full bucket again


def test_a_meaningless_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        TokenBuckets(rate=0.0, burst=1)
