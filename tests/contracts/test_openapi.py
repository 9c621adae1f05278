"""The REST contract: the committed openapi/openapi.yaml is what the app serves, and it
describes every REST route the app has, no more and no less."""

from __future__ import annotations

import re

import pytest
import schemathesis
import yaml
from schemathesis.core.result import Ok
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route
from starlette.testclient import TestClient

from api.app import create_app
from api.contracts import REGENERATE
from api.openapi import COMMITTED, build, to_yaml

HTTP_METHODS = {"get", "put", "post", "delete", "patch", "options", "head", "trace"}


@pytest.fixture(scope="module")
def app() -> Starlette:
    return create_app()


@pytest.fixture(scope="module")
def http(app: Starlette) -> TestClient:
    # No `with`: the lifespan (the event store) is not needed to serve the document.
    return TestClient(app)


def _walk(routes: list[BaseRoute], prefix: str = "") -> set[tuple[str, str]]:
    """(method, OpenAPI path) of every HTTP route, Mounts included; `{x:str}` → `{x}`."""
    found: set[tuple[str, str]] = set()
    for route in routes:
        if isinstance(route, Mount):
            found |= _walk(list(route.routes), prefix + route.path)
        elif isinstance(route, Route):
            path = re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", prefix + route.path)
            found |= {(m.lower(), path) for m in route.methods or () if m != "HEAD"}
    return found


def test_committed_spec_is_what_the_app_serves(http: TestClient) -> None:
    served = http.get("/openapi.yaml")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("application/yaml")
    committed = COMMITTED.read_text(encoding="utf-8") if COMMITTED.exists() else ""
    assert served.text == committed, (
        f"{COMMITTED.relative_to(COMMITTED.parents[1])} is out of date with the served spec; "
        f"regenerate it with `{REGENERATE}` and commit the result"
    )


def test_json_and_yaml_are_the_same_document(http: TestClient) -> None:
    served = http.get("/openapi.json")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("application/json")
    assert served.json() == yaml.safe_load(http.get("/openapi.yaml").text)


def test_generation_is_deterministic() -> None:
    assert to_yaml(build()) == to_yaml(build())


def test_every_rest_route_is_in_the_spec_and_nothing_else(app: Starlette) -> None:
    served = {(m, p) for m, p in _walk(list(app.routes)) if p.startswith("/v1/")}
    spec = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    declared = {
        (method, path)
        for path, item in spec["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }
    assert served, "no REST route found under /v1"
    assert not served - declared, f"REST routes missing from the spec: {sorted(served - declared)}"
    assert not declared - served, f"spec lists routes the app lacks: {sorted(declared - served)}"


def test_spec_shape() -> None:
    spec = build()
    assert spec["openapi"].startswith("3.1")
    assert spec["info"]["title"] == "Daedalus"
    assert set(spec["components"]["securitySchemes"]) == {"ApiKey", "SessionToken"}
    ids = [op["operationId"] for item in spec["paths"].values() for op in item.values()]
    assert len(ids) == len(set(ids)), "operationIds must be unique"
    for item in spec["paths"].values():
        for op in item.values():
            problems = [s for s in op["responses"] if s.startswith(("4", "5"))]
            assert problems, f"{op['operationId']} declares no problem+json error"
            assert "422" in op["responses"] or "requestBody" not in op


def test_schemathesis_loads_every_operation() -> None:
    schema = schemathesis.openapi.from_path(str(COMMITTED))
    results = list(schema.get_all_operations())
    failed = [r for r in results if not isinstance(r, Ok)]
    assert not failed, f"schemathesis cannot load: {failed}"
    assert len(results) == sum(len(item) for item in build()["paths"].values())
