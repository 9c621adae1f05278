"""The OpenAPI 3.1 document of the REST API, built from the declared operations.

`python -m api.openapi > openapi/openapi.yaml` regenerates the committed contract; the app
serves the same document at `GET /openapi.yaml` and `GET /openapi.json`.
"""

from __future__ import annotations

import json
from functools import cache
from http import HTTPStatus
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, cast

import yaml
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.openapi.components import COMPONENT_SCHEMAS, ERROR_DESCRIPTIONS, SECURITY_SCHEMES
from api.openapi.spec import Operation, Schema
from api.problems import PROBLEM_MEDIA_TYPE

REF_TEMPLATE = "#/components/schemas/{model}"
YAML_MEDIA_TYPE = "application/yaml"
ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.yaml"
REGENERATE = "make contracts"  # writes openapi.yaml and schema.graphql (api/contracts.py)
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


Refs = dict[tuple[type[BaseModel], JsonSchemaMode], Schema]


def _models(operations: list[Operation]) -> tuple[Refs, Schema]:
    """Each body (validation) and result (serialization) model's reference, and every
    JSON Schema they need, hoisted to named components."""
    keys: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        *((op.body, "validation") for op in operations if op.body is not None),
        *((op.result, "serialization") for op in operations if op.result is not None),
    ]
    refs, top = models_json_schema(list(dict.fromkeys(keys)), ref_template=REF_TEMPLATE)
    return {(cast(type[BaseModel], m), mode): ref for (m, mode), ref in refs.items()}, top.get(
        "$defs", {}
    )


def _responses(op: Operation, refs: Refs) -> Schema:
    schema = op.response if op.result is None else refs[(op.result, "serialization")]
    out: Schema = {
        str(op.status): {
            "description": HTTPStatus(op.status).phrase,
            "content": {op.media_type: {"schema": schema}},
        }
    }
    for status in sorted(op.errors):
        out[str(status)] = {"$ref": f"#/components/responses/Problem{status}"}
    return out


def _operation(op: Operation, refs: Refs) -> Schema:
    out: Schema = {"operationId": op.operation_id, "summary": op.summary, "tags": [op.tag]}
    if op.description:
        out["description"] = op.description
    if op.params:
        out["parameters"] = [p.to_dict() for p in op.params]
    if op.body is not None:
        # A body whose every field has a default may be left out: it stands for `{}`.
        out["requestBody"] = {
            "required": any(f.is_required() for f in op.body.model_fields.values()),
            "content": {"application/json": {"schema": refs[(op.body, "validation")]}},
        }
    out["responses"] = _responses(op, refs)
    if op.session_token:
        out["security"] = [{"ApiKey": [], "SessionToken": []}]
    return out


def build(operations: list[Operation] | None = None) -> Schema:
    """The OpenAPI document (a fresh dict, in a stable order)."""
    from api.openapi.operations import all_operations  # the rows import api.openapi's parts

    ops = all_operations() if operations is None else operations
    refs, defs = _models(ops)
    paths: Schema = {}
    for op in sorted(ops, key=lambda o: (o.path, o.method)):
        paths.setdefault(op.path, {})[op.method] = _operation(op, refs)
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
        "tags": [{"name": t} for t in dict.fromkeys(op.tag for op in ops)],
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
