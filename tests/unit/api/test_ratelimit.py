"""The rate limiter without Redis: its verdicts as headers, and failing open.

The buckets' arithmetic runs in Redis: tests/contracts/test_ratelimit_contract.py.
"""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from api.app import create_app
from api.ratelimit import TokenBuckets, decision_of
from infra.settings import Settings


def test_a_refusal_says_when_to_retry_in_whole_seconds() -> None:
    refused = decision_of([0, 0, 2_400_000, 1_200_000], burst=3)
    assert refused.headers() == {
        "RateLimit-Limit": "3",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": "3",
        "Retry-After": "2",
    }
    allowed = decision_of([1, 2, 500_000, 0], burst=3)
    assert allowed.allowed and "Retry-After" not in allowed.headers()
    assert allowed.headers()["RateLimit-Reset"] == "1"


def test_a_meaningless_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        TokenBuckets(rate=0.0, burst=1)
    with pytest.raises(ValueError):
        TokenBuckets(rate=1.0, burst=0)


def test_without_its_redis_the_app_serves_unlimited_and_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings = Settings.model_validate(
        {"environment": "test", "rate_limit_rps": 0.1, "rate_limit_burst": 1}
    )
    app = create_app(settings)  # its lifespan never runs: no runtime, no Redis

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return [await http.post("/v1/dice/roll", json={"expression": "1d6"}) for _ in range(3)]

    with caplog.at_level(logging.WARNING, logger="api.ratelimit"):
        answers = asyncio.run(run())
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert all("RateLimit-Limit" not in a.headers for a in answers)
    assert any("rate limit not enforced" in r.getMessage() for r in caplog.records)
