"""The app: health, GraphiQL switch, and the error boundary as problem+json."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import httpx
import pytest
import redis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from api.app import create_app
from api.problems import PROBLEM_MEDIA_TYPE
from infra.settings import Settings
from services.dice.errors import DiceLimitError, DiceSyntaxError
from services.store.errors import StoreUnavailable
from services.store.sessions import SessionBusy


@pytest.fixture
def app() -> Starlette:
    return create_app(Settings(environment="test"))


class Client:
    """A synchronous face over httpx's in-process ASGI transport."""

    def __init__(self, app: Starlette) -> None:
        self.transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=self.transport, base_url="http://test") as http:
                return await http.request(method, path, **kwargs)

        return asyncio.run(send())

    def get(self, path: str) -> httpx.Response:
        return self.request("GET", path)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)


@pytest.fixture
def client(app: Starlette) -> Client:
    return Client(app)


def add_route(app: Starlette, path: str, error: Exception) -> None:
    async def endpoint(request: Request) -> Response:
        raise error

    app.router.routes.insert(0, Route(path, endpoint))


def test_a_syntax_error_keeps_its_position_and_expectations(app: Starlette, client: Client) -> None:
    add_route(app, "/boom", DiceSyntaxError("unexpected ')'", position=4, expected=["number"]))
    response = client.get("/boom")
    assert response.status_code == 400
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    assert response.json() == {
        "type": "urn:daedalus:problem:syntax_error",
        "title": "Dice expression has a syntax error",
        "status": 400,
        "detail": "unexpected ')'",
        "code": "syntax_error",
        "position": 4,
        "expected": ["number"],
    }


def test_a_limit_error_uses_its_own_status_and_code(app: Starlette, client: Client) -> None:
    add_route(app, "/limit", DiceLimitError("too many dice"))
    response = client.get("/limit")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "limit_exceeded"
    assert "position" not in body and "expected" not in body


def test_a_specific_code_takes_the_title_of_its_family(app: Starlette, client: Client) -> None:
    add_route(app, "/long", DiceLimitError("too long", code="expression_too_long"))
    body = client.get("/long").json()
    assert body["code"] == "expression_too_long"
    assert body["title"] == "Dice expression exceeds the limits"
    assert body["type"] == "urn:daedalus:problem:expression_too_long"


def test_an_unexpected_exception_leaks_nothing(app: Starlette, client: Client) -> None:
    add_route(app, "/bug", RuntimeError("secret internals at 0xdeadbeef"))
    response = client.get("/bug")
    assert response.status_code == 500
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    assert response.json()["code"] == "internal_error"
    assert "deadbeef" not in response.text
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (SessionBusy("session 's' is too busy: retry the command"), "session_busy"),
        (StoreUnavailable("the event store's Redis is unreachable"), "store_unavailable"),
        (redis.TimeoutError("Timeout reading from /tmp/redis.sock"), "store_unavailable"),
    ],
)
def test_a_busy_or_unreachable_store_is_a_503_that_says_when_to_retry(
    app: Starlette, client: Client, caplog: pytest.LogCaptureFixture, error: Exception, code: str
) -> None:
    add_route(app, "/later", error)
    response = client.get("/later")
    assert response.status_code == 503
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    assert response.headers["Retry-After"] == "1"
    assert response.json()["code"] == code
    assert "/tmp/redis.sock" not in response.text  # no internals
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # no traceback


def test_an_unknown_route_is_not_found(client: Client) -> None:
    response = client.get("/nowhere")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_wrong_method_is_method_not_allowed(client: Client) -> None:
    response = client.get("/v1/dice/probability")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"
    assert "POST" in response.headers["allow"]


def test_an_oversized_body_is_refused_before_parsing(client: Client) -> None:
    response = client.post("/v1/dice/roll", content=b"x" * (2 << 20))
    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"


def test_health_is_ok(client: Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}


def test_graphiql_is_served_when_enabled(client: Client) -> None:
    response = client.request("GET", "/graphql", headers={"accept": "text/html"})
    assert response.status_code == 200
    assert "graphiql" in response.text.lower()


def test_graphiql_can_be_switched_off() -> None:
    client = Client(create_app(Settings(environment="test", graphiql=False)))
    response = client.request("GET", "/graphql", headers={"accept": "text/html"})
    assert "graphiql" not in response.text.lower()


def test_a_graphql_query_runs_in_process(client: Client) -> None:
    response = client.post("/graphql", json={"query": "{ __typename }"})
    assert response.json() == {"data": {"__typename": "Query"}}


def test_readiness_waits_for_the_event_store(client: Client) -> None:
    # This in-process app never ran its startup, so it has no event store yet.
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["code"] == "not_ready"
