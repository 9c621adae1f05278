"""The rate limiter's buckets on every real Redis at hand: the GCRA script's arithmetic,
one limit shared by every process (and app) on a Redis, keys that expire, and failing
open when Redis is gone."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api import ratelimit
from api.app import create_app
from api.clients import key_digest
from api.keys import config_entry, new_key
from api.ratelimit import KEY_PREFIX, Decision, TokenBuckets
from infra.settings import Settings
from services.store.client import connect, is_cluster_url
from services.store.pipelined import PipelinedClient
from tests.running_app import serving

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True


@pytest.fixture(autouse=True)
def patient_limiter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limiter fails open past its 0.25 s Redis timeout (a test of its own covers
    that: a refused connection is at once). Here it must answer: on a loaded machine, or
    a cluster's first connection, a take can stall longer than that."""
    monkeypatch.setattr(ratelimit, "TIMEOUT", 5.0)


@pytest.fixture
def who() -> str:
    """A fresh caller identity per test (runs on a shared Redis never meet)."""
    return "test:" + uuid.uuid4().hex


@pytest.fixture
def cleanup(redis_url: str) -> Iterator[list[str]]:
    """Identities whose buckets are deleted after the test."""
    identities: list[str] = []
    yield identities
    client = connect(redis_url)
    for identity in identities:
        client.delete(KEY_PREFIX + identity)
    client.close()


def takes(buckets: TokenBuckets, url: str, who: str, times: list[float]) -> list[Decision]:
    async def run() -> list[Decision]:
        out = []
        for at in times:
            decision = await buckets.take(who, url, now=at)
            assert decision is not None
            out.append(decision)
        await buckets.aclose()
        return out

    return asyncio.run(run())


def test_a_caller_gets_its_burst_then_waits_for_the_rate(
    redis_url: str, who: str, cleanup: list[str]
) -> None:
    cleanup.append(who)
    decisions = takes(TokenBuckets(rate=2.0, burst=3), redis_url, who, [10.0] * 4 + [10.5])
    assert [d.allowed for d in decisions] == [True, True, True, False, True]
    assert [d.remaining for d in decisions[:4]] == [2, 1, 0, 0]
    refused = decisions[3]
    assert refused.headers()["Retry-After"] == "1" and refused.headers()["RateLimit-Limit"] == "3"
    # Half a second refills one token at 2/s: the fifth is allowed, and empties it again.
    assert decisions[4].remaining == 0


def test_reset_is_the_time_to_a_full_bucket(redis_url: str, who: str, cleanup: list[str]) -> None:
    cleanup.append(who)
    *_, last = takes(TokenBuckets(rate=0.5, burst=4), redis_url, who, [100.0] * 4)
    assert last.reset_seconds == 8 and "Retry-After" not in last.headers()


def test_callers_have_their_own_buckets(redis_url: str, who: str, cleanup: list[str]) -> None:
    cleanup += [who + "a", who + "b"]
    buckets = TokenBuckets(rate=1.0, burst=1)
    a = takes(buckets, redis_url, who + "a", [5.0, 5.0])
    (b,) = takes(buckets, redis_url, who + "b", [5.0])
    assert [d.allowed for d in a] == [True, False] and b.allowed


def test_processes_on_one_redis_share_a_callers_bucket(
    redis_url: str, who: str, cleanup: list[str]
) -> None:
    cleanup.append(who)
    replicas = [TokenBuckets(rate=1.0, burst=4) for _ in range(3)]  # one per API process

    async def run() -> list[bool]:
        out = []
        for i in range(8):
            decision = await replicas[i % 3].take(who, redis_url, now=50.0)
            assert decision is not None
            out.append(decision.allowed)
        for r in replicas:
            await r.aclose()
        return out

    assert asyncio.run(run()) == [True] * 4 + [False] * 4


def test_takes_in_flight_at_once_each_get_their_own_bucket_s_answer(
    redis_url: str, cleanup: list[str]
) -> None:
    # 300 takes in flight over 100 callers, three each, each caller's cost its own: each
    # caller's answers must be its own bucket's (a reply handed to another caller's take
    # would show that caller's remaining tokens). On one Redis the
    # takes of a turn of the loop go out in order on one connection (the pipelined
    # client) and are answered in that order; on a cluster each take has a connection of
    # its own, and a caller's three may reach Redis in any order.
    # On a cluster 200 of these takes queue for a turn: `patient_limiter` keeps that wait
    # from making this test about the machine, not about whose answer is whose.
    callers = ["test:" + uuid.uuid4().hex for _ in range(100)]
    cleanup.extend(callers)
    cost = {who: 1 + i for i, who in enumerate(callers)}
    buckets = TokenBuckets(rate=0.001, burst=300)

    async def run() -> list[Decision | None]:
        try:
            return await asyncio.gather(
                *(
                    buckets.take(who, redis_url, now=10.0, cost=cost[who])
                    for _ in range(3)
                    for who in callers
                )
            )
        finally:
            await buckets.aclose()

    answers = asyncio.run(run())
    in_order = not is_cluster_url(redis_url)
    for i, who in enumerate(callers):
        mine = [answers[i + k * len(callers)] for k in range(3)]
        left = [a.remaining for a in mine if a is not None and a.allowed]
        expected = [300 - cost[who], 300 - 2 * cost[who], 300 - 3 * cost[who]]
        assert (left if in_order else sorted(left, reverse=True)) == expected


def test_one_redis_is_reached_on_the_pipelined_client_unless_traced(redis_url: str) -> None:
    # Which client: one Redis, the store's pipelined one (a take costs a fraction of a
    # pooled redis-py connection's CPU); a cluster, or a traced API (OpenTelemetry
    # records redis-py's calls), redis-py's. Both kinds answer the same.
    async def client_of(buckets: TokenBuckets) -> object:
        try:
            decision = await buckets.take("test:" + uuid.uuid4().hex, redis_url, now=1.0)
            assert decision is not None and decision.allowed
            return buckets._client
        finally:
            await buckets.aclose()

    plain = asyncio.run(client_of(TokenBuckets(rate=1.0, burst=2)))
    traced = asyncio.run(client_of(TokenBuckets(rate=1.0, burst=2, pipelined=False)))
    assert isinstance(plain, PipelinedClient) == (not is_cluster_url(redis_url))
    assert not isinstance(traced, PipelinedClient)


def test_a_script_redis_forgot_is_sent_again(redis_url: str, who: str, cleanup: list[str]) -> None:
    cleanup.append(who)
    buckets = TokenBuckets(rate=0.001, burst=3)

    async def run() -> list[bool]:
        try:
            first = await buckets.take(who, redis_url, now=5.0)
            blocking = connect(redis_url)
            blocking.script_flush()  # a restarted Redis, or SCRIPT FLUSH by an operator
            blocking.close()
            rest = [await buckets.take(who, redis_url, now=5.0) for _ in range(3)]
        finally:
            await buckets.aclose()
        return [d.allowed for d in [first, *rest] if d is not None]

    assert asyncio.run(run()) == [True, True, True, False]


def test_a_bucket_expires_once_it_would_be_full_again(
    redis_url: str, who: str, cleanup: list[str]
) -> None:
    cleanup.append(who)

    async def run() -> Decision | None:
        buckets = TokenBuckets(rate=1.0, burst=5)  # slow enough: the takes span < 1 s
        for _ in range(3):
            last = await buckets.take(who, redis_url)  # Redis's own clock
        await buckets.aclose()
        return last

    last = asyncio.run(run())
    assert last is not None and last.allowed and last.remaining == 2
    ttl_ms = connect(redis_url).pttl(KEY_PREFIX + who)
    assert 0 < ttl_ms <= 3000  # three tokens at 1/s come back within 3 s


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_an_unreachable_redis_fails_open_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    buckets = TokenBuckets(rate=1.0, burst=1)
    url = f"redis://127.0.0.1:{_closed_port()}/0"

    async def run() -> list[Decision | None]:
        return [await buckets.take("anyone", url) for _ in range(3)]

    with caplog.at_level(logging.WARNING, logger="api.ratelimit"):
        assert asyncio.run(run()) == [None, None, None]
        assert asyncio.run(buckets.take("anyone", None)) is None  # no Redis open yet
    warnings = [r for r in caplog.records if "rate limit not enforced" in r.getMessage()]
    assert len(warnings) == 1  # once, not per request


def _app_settings(data: Path, redis_url: str, key: str) -> Settings:
    return Settings.model_validate(
        {
            "environment": "test",
            "data_dir": data,
            "redis_url": redis_url,
            # On a cluster, Celery's broker is one Redis of its own (never used here).
            "broker_url": "redis://127.0.0.1:1/0" if redis_url.startswith("redis+") else None,
            "redis_allow_unsafe": True,  # CI's Redis may keep nothing on disk
            "api_keys": json.dumps(config_entry(key, "app", "acme")),
            "rate_limit_rps": 0.1,
            "rate_limit_burst": 3,
        }
    )


def test_two_app_instances_on_one_redis_share_the_limit(
    redis_url: str, tmp_path: Path, cleanup: list[str]
) -> None:
    key = new_key()
    cleanup.append("key:" + key_digest(key)[:16])  # the identity a key is counted by
    apps = [create_app(_app_settings(tmp_path / f"d{i}", redis_url, key)) for i in range(2)]
    roll = {"expression": "1d6"}

    async def run() -> list[httpx.Response]:
        async with serving(apps[0]) as one, serving(apps[1]) as two:
            return [
                await (one if i % 2 == 0 else two).post(
                    "/v1/dice/roll", json=roll, headers={"X-API-Key": key}
                )
                for i in range(5)
            ]

    answers = asyncio.run(run())
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["2", "1", "0", "0", "0"]
    refused = answers[3]
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 9


def test_a_priced_operation_takes_its_price_in_tokens(
    redis_url: str, who: str, cleanup: list[str]
) -> None:
    cleanup.append(who)
    buckets = TokenBuckets(rate=1.0, burst=10)

    async def run() -> list[Decision | None]:
        out = [
            await buckets.take(who, redis_url, now=50.0, cost=6),  # 10 → 4
            await buckets.take(who, redis_url, now=50.0, cost=6),  # 4 < 6: refused, kept
            await buckets.take(who, redis_url, now=50.0, cost=4),  # 4 → 0
            await buckets.take(who, redis_url, now=53.0, cost=3),  # 3 s refill 3 → 0
        ]
        await buckets.aclose()
        return out

    first, refused, rest, refilled = asyncio.run(run())
    assert first is not None and (first.allowed, first.remaining) == (True, 4)
    assert refused is not None and not refused.allowed
    assert int(refused.headers()["Retry-After"]) == 2  # two more tokens, at 1/s
    assert rest is not None and (rest.allowed, rest.remaining) == (True, 0)
    assert refilled is not None and refilled.allowed
