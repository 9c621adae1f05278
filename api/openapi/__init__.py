"""The OpenAPI 3.1 document of the REST API, built from the use-case rows.

`make contracts` regenerates the committed contract (api/contracts.py); the app serves
the same document at `GET /openapi.yaml` and `GET /openapi.json`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, cast

import yaml
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.openapi.components import (
    COMPONENT_SCHEMAS,
    ERROR_DESCRIPTIONS,
    SECURITY_SCHEMES,
    Schema,
)
from api.openapi.usecases import Refs, body, operation, param, responses
from api.problems import PROBLEM_MEDIA_TYPE
from api.usecases.table import UseCase

REF_TEMPLATE = "#/components/schemas/{model}"
YAML_MEDIA_TYPE = "application/yaml"
ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.yaml"
PROBLEM_REF: Schema = {"$ref": "#/components/schemas/Problem"}
RETRY_AFTER: Schema = {
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer", "minimum": 1},
    }
}


def _version() -> str:
    try:
        return version("daedalus")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        import tomllib

        project: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text())
        return str(project["project"]["version"])


# The chart is an SVG document, not a row's JSON (api/rest/simulations.py).
CHART_PATH = "/v1/simulations/{id}/chart.svg"
CHART: Schema = {
    "operationId": "getSimulationChart",
    "summary": "Escape rate against DC, as SVG",
    "tags": ["simulations"],
    "description": "409 `chart_not_ready` until the DC sweep has succeeded; 404 "
    "`chart_not_requested` for a simulation started without one.",
    "parameters": [
        param("id", "path", {"type": "string", "maxLength": 64}, "The simulation's id.", True)
    ],
    "responses": responses(
        200, "image/svg+xml", {"type": "string", "description": "An SVG document."},
        (401, 404, 409, 429, 503),
    ),
}  # fmt: skip


def _models(rows: list[UseCase]) -> tuple[Refs, Schema]:
    """Each body (validation) and result (serialization) model's reference, and every
    JSON Schema they need, hoisted to named components."""
    keys: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        *((model, "validation") for model in map(body, rows) if model is not None),
        *((row.result, "serialization") for row in rows),
    ]
    refs, top = models_json_schema(list(dict.fromkeys(keys)), ref_template=REF_TEMPLATE)
    return {(cast(type[BaseModel], m), mode): ref for (m, mode), ref in refs.items()}, top.get(
        "$defs", {}
    )


def build() -> Schema:
    """The OpenAPI document (a fresh dict, in a stable order)."""
    from api.usecases.rows import ROWS  # the rows import api.openapi's parts

    rows = [row for row in ROWS if row.method is not None]
    refs, defs = _models(rows)
    ops = [("/v1" + row.path, str(row.method).lower(), operation(row, refs)) for row in rows]
    paths: Schema = {}
    for path, method, op in sorted([*ops, (CHART_PATH, "get", CHART)], key=lambda o: o[:2]):
        paths.setdefault(path, {})[method] = op
    schemas = {**defs, **COMPONENT_SCHEMAS}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Daedalus",
            "version": _version(),
            "summary": "Dice, rules and labyrinth sessions for maze-crawling tabletop RPGs.",
            "description": "REST under /v1. Errors are RFC 9457 problem+json with a stable "
            "`code`. GraphQL lives at /graphql and is not described here.",
        },
        "servers": [{"url": "/", "description": "The server that serves this document."}],
        "security": [{"ApiKey": []}],
        "tags": [{"name": t} for t in dict.fromkeys(row.tag for row in rows)],
        "paths": paths,
        "components": {
            "schemas": {name: schemas[name] for name in sorted(schemas)},
            "responses": {
                f"Problem{status}": {
                    "description": description,
                    "content": {PROBLEM_MEDIA_TYPE: {"schema": PROBLEM_REF}},
                    **({"headers": RETRY_AFTER} if status == 503 else {}),
                }
                for status, description in sorted(ERROR_DESCRIPTIONS.items())
            },
            "securitySchemes": SECURITY_SCHEMES,
        },
    }


def to_yaml(document: Schema) -> str:
    """The document as YAML, byte-for-byte stable for the same input."""
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


@cache
def rendered() -> tuple[str, str]:
    """The served document as (YAML, JSON), built once per process."""
    document = build()
    return to_yaml(document), json.dumps(document, ensure_ascii=False)


async def openapi_yaml(request: Request) -> Response:
    """GET /openapi.yaml: the REST contract."""
    return Response(rendered()[0], media_type=YAML_MEDIA_TYPE)


async def openapi_json(request: Request) -> Response:
    """GET /openapi.json: the REST contract, as JSON."""
    return Response(rendered()[1], media_type="application/json")


routes: list[BaseRoute] = [
    Route("/openapi.yaml", openapi_yaml, methods=["GET"]),
    Route("/openapi.json", openapi_json, methods=["GET"]),
]
