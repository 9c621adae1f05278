"""The middleware in-process: request ids, body limits, keys, rate limits, metrics, schema."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import re
from pathlib import Path
from typing import Any

import httpx

from api.app import create_app
from api.keys import config_entry, new_key
from api.middleware.request_id import request_id_from
from infra.settings import Settings
from tests.running_app import serving

SECRET = "s" * 40
ROLL = {"expression": "1d6"}


def call(settings: Settings, method: str, path: str, **kwargs: Any) -> list[httpx.Response]:
    """Send the request `repeat` times (default once) to a fresh app."""
    repeat = kwargs.pop("repeat", 1)
    transport = httpx.ASGITransport(app=create_app(settings), raise_app_exceptions=False)

    async def send() -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return [await http.request(method, path, **kwargs) for _ in range(repeat)]

    return asyncio.run(send())


def dev(**fields: object) -> Settings:
    return Settings.model_validate({"environment": "test", **fields})


def test_a_sane_request_id_is_echoed_and_an_odd_one_replaced() -> None:
    (kept,) = call(dev(), "GET", "/healthz", headers={"X-Request-ID": "abc-123"})
    (fresh,) = call(dev(), "GET", "/healthz", headers={"X-Request-ID": "x" * 500})
    assert kept.headers["X-Request-ID"] == "abc-123"
    assert len(fresh.headers["X-Request-ID"]) == 32


def test_fresh_request_ids_never_repeat_even_across_processes() -> None:
    ours = {request_id_from({"headers": []}) for _ in range(1000)}
    theirs = []
    for _ in range(2):  # two forked processes, one after the other
        with multiprocessing.get_context("fork").Pool(1) as pool:
            theirs.append(pool.apply(_fresh_ids, (100,)))
    every = [*ours, *theirs[0], *theirs[1]]
    assert len(set(every)) == len(every) == 1200
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in every)
    prefixes = {i[:16] for i in every}
    assert len(prefixes) == 3  # one per process


def _fresh_ids(n: int) -> list[str]:
    return [request_id_from({"headers": []}) for _ in range(n)]


def test_graphql_bodies_are_bounded_too() -> None:
    body = json.dumps({"query": "{ __typename }", "pad": "x" * 5000})
    (answer,) = call(dev(max_body_bytes=2048), "POST", "/graphql", content=body)
    assert answer.status_code == 413 and answer.json()["code"] == "payload_too_large"


def test_a_streamed_body_past_the_limit_is_413() -> None:
    async def chunks() -> Any:
        for _ in range(4):
            yield b"x" * 1024

    (answer,) = call(dev(max_body_bytes=2048), "POST", "/v1/dice/roll", content=chunks())
    assert answer.status_code == 413 and answer.json()["code"] == "payload_too_large"


def started(settings: Settings, method: str, path: str, **kwargs: Any) -> list[httpx.Response]:
    """As `call`, on an app whose lifespan has run (the rate limits live in its Redis)."""
    repeat = kwargs.pop("repeat", 1)

    async def send() -> list[httpx.Response]:
        async with serving(create_app(settings)) as http:
            return [await http.request(method, path, **kwargs) for _ in range(repeat)]

    return asyncio.run(send())


def test_production_refuses_requests_without_a_key_and_serves_them_with_one(
    tmp_path: Path,
) -> None:
    key = new_key()
    prod = Settings.model_validate(
        {
            "environment": "production",
            "secret_key": SECRET,
            "api_keys": json.dumps(config_entry(key, "app", "acme")),
            "data_dir": tmp_path,
        }
    )
    (refused,) = call(prod, "POST", "/v1/dice/roll", json=ROLL)
    (served,) = started(prod, "POST", "/v1/dice/roll", json=ROLL, headers={"X-API-Key": key})
    assert (refused.status_code, refused.json()["code"]) == (401, "missing_api_key")
    assert served.status_code == 200 and "RateLimit-Limit" in served.headers


def test_the_rate_limit_answers_429_past_the_burst(tmp_path: Path) -> None:
    settings = dev(rate_limit_rps=0.1, rate_limit_burst=2, data_dir=tmp_path)
    answers = started(settings, "POST", "/v1/dice/roll", json=ROLL, repeat=3)
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [a.headers["RateLimit-Remaining"] for a in answers] == ["1", "0", "0"]
    assert answers[2].json()["code"] == "rate_limited" and answers[2].headers["Retry-After"] == "10"


def test_development_has_no_rate_limit_by_default() -> None:
    (answer,) = call(dev(), "POST", "/v1/dice/roll", json=ROLL)
    assert "RateLimit-Limit" not in answer.headers


def test_introspection_is_off_in_production_unless_asked_for() -> None:
    query = {"query": "{ __schema { queryType { name } } }"}
    (off,) = call(dev(environment="production", secret_key=SECRET), "POST", "/graphql", json=query)
    assert off.status_code == 401  # production without keys answers nothing at all
    (on,) = call(dev(), "POST", "/graphql", json=query)
    (switched,) = call(dev(introspection=False), "POST", "/graphql", json=query)
    assert on.json()["data"]["__schema"]["queryType"]["name"] == "Query"
    assert "introspection" in switched.text.lower() and switched.json().get("data") is None


def test_graphiql_and_introspection_default_off_in_production_only() -> None:
    prod = Settings(environment="production", secret_key=SECRET)  # type: ignore[arg-type]
    assert not prod.graphiql_on and not prod.introspection_on
    assert dev().graphiql_on and dev().introspection_on
    assert prod.rate_limit == (50.0, 100) and dev().rate_limit is None


def test_metrics_count_requests_by_route_template_and_rolls() -> None:
    transport = httpx.ASGITransport(app=create_app(dev()))

    async def run() -> str:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            await http.post("/v1/dice/roll", json=ROLL)
            await http.post(
                "/graphql", json={"query": '{ roll(expression: "1d4") { __typename } }'}
            )
            await http.get("/nowhere/at/all")
            return (await http.get("/metrics")).text

    text = asyncio.run(run())
    assert (
        'daedalus_http_requests_total{method="POST",route="/v1/dice/roll",status="200"} 1.0' in text
    )
    assert 'daedalus_dice_rolls_total{api="rest"} 1.0' in text
    assert 'daedalus_dice_rolls_total{api="graphql"} 1.0' in text
    assert 'route="<unmatched>",status="404"' in text and "/nowhere" not in text
