"""The access log in-process: a session request's lines name the session, never its token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

from api.app import create_app
from infra.logs import DropRelogged, JsonFormatter, JsonLines, direct
from infra.settings import Settings

PARTY = [{"id": "p1", "name": "Ash", "profile": {"system": "5e", "modifiers": {"STR": 4}}}]
SESSION_QUERY = "query($id: ID!, $t: String!) { session(id: $id, token: $t) { __typename } }"


class Lines:
    """The JSON lines the app logs, as the service writes them (infra/logs.py)."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    def text(self) -> str:
        return self.stream.getvalue()

    def all(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.text().splitlines()]

    def access(self, route: str) -> list[dict[str, Any]]:
        return [
            ln
            for ln in self.all()
            if ln["logger"] == "daedalus.access" and ln.get("route") == route
        ]


@pytest.fixture(params=["records", "direct"])
def lines(request: pytest.FixtureRequest) -> Iterator[Lines]:
    """The lines, written either way the access log writes them: as records through a
    handler next to pytest's, or (the service's own setup: infra.logs.JsonLines the only
    handler) straight to the stream without a record."""
    captured = Lines()
    root, access = logging.getLogger(), logging.getLogger("daedalus.access")
    level, handlers = access.level, root.handlers[:]
    if request.param == "direct":
        handler: logging.Handler = JsonLines(captured.stream)
        root.handlers[:] = [handler]
    else:
        handler = logging.StreamHandler(captured.stream)
        handler.setFormatter(JsonFormatter())
        handler.addFilter(DropRelogged())
        root.addHandler(handler)
    access.setLevel(logging.INFO)
    assert (direct(access, logging.INFO) is handler) == (request.param == "direct")
    yield captured
    root.handlers[:] = handlers
    access.setLevel(level)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings.model_validate({"environment": "test", "DAEDALUS_DATA_DIR": str(tmp_path)})
    )

    async def boom(request: Request) -> Response:
        raise RuntimeError("a bug")

    app.router.routes.insert(0, Route("/boom/{session_id}", boom))
    with TestClient(app, raise_server_exceptions=False) as http:
        yield http


def test_rest_and_graphql_session_requests_log_the_session_id_and_never_the_token(
    client: TestClient, lines: Lines
) -> None:
    created = client.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
    sid, gm = created.json()["session_id"], created.json()["gm_token"]
    assert client.get(f"/v1/sessions/{sid}", headers={"authorization": f"Bearer {gm}"}).is_success
    refused = client.get(f"/v1/sessions/{sid}", headers={"authorization": "Bearer v1.forged.x"})
    assert refused.status_code == 401
    variables = {"id": sid, "t": gm}
    assert client.post("/graphql", json={"query": SESSION_QUERY, "variables": variables}).is_success
    (made,) = lines.access("/v1/sessions")
    assert "session_id" not in made  # no session yet when the request came
    viewed, forged = lines.access("/v1/sessions/{session_id}")
    assert viewed["session_id"] == sid and viewed["status"] == 200 and viewed["request_id"]
    assert forged["session_id"] == sid and forged["status"] == 401
    (graphql,) = lines.access("/graphql")
    assert graphql["session_id"] == sid  # annotated where the token was checked
    assert gm not in lines.text() and "forged" not in lines.text()


def test_an_unhandled_error_is_logged_once_with_the_request_and_session_ids(
    client: TestClient, lines: Lines
) -> None:
    response = client.get("/boom/s-42")
    assert response.status_code == 500
    errors = [ln for ln in lines.all() if ln["level"] == "error"]
    (error,) = errors  # the server's own traceback line for it is dropped
    assert error["session_id"] == "s-42" and error["request_id"]
    assert "RuntimeError: a bug" in error["error"]
    (access,) = lines.access("/boom/{session_id}")
    assert access["status"] == 500 and access["request_id"] == error["request_id"]


def test_the_access_line_carries_the_request_id_the_response_echoes(
    client: TestClient, lines: Lines
) -> None:
    given = client.get("/healthz", headers={"X-Request-ID": "trace-7"})
    fresh = client.get("/healthz")
    assert given.headers["X-Request-ID"] == "trace-7"
    first, second = lines.access("/healthz")
    assert first["request_id"] == "trace-7"
    assert second["request_id"] == fresh.headers["X-Request-ID"] != "trace-7"
    assert first["method"] == "GET" and first["status"] == 200 and "duration_ms" in first
