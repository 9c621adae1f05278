"""The typed contract, counted on the app as it serves it: 2xx responses without a named
schema in OpenAPI, and `JSON` fields or arguments in GraphQL outside the documented
free-form exceptions. Areas on the use-case table must have none; the global counts are
printed while the remaining areas migrate (issue 13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient
from strawberry.utils.str_converters import to_camel_case

from api.app import create_app
from api.graphql.generate import FREE_FORM_FIELDS
from api.usecases.rows import ROWS

INTROSPECTION = """{ __schema {
  queryType { name } mutationType { name }
  types { name kind
    fields { name type { ...T } args { name type { ...T } } }
    inputFields { name type { ...T } } possibleTypes { name } } } }
fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }"""
MIGRATED_PATHS = {"/v1" + row.path for row in ROWS if row.method is not None}
# The campaigns are typed answers too (not yet table rows).
TABLE_PREFIXES = ("/v1/sessions", "/v1/campaigns", "/v1/join")
# Their GraphQL root fields: answers and arguments typed (but the documented exceptions).
TABLE_FIELDS = ("session", "sessions", "campaign", "campaigns", "join", "command")
MIGRATED_FIELDS = {(row.graphql, row.field) for row in ROWS if row.graphql is not None}


@pytest.fixture(scope="module")
def http() -> TestClient:
    return TestClient(create_app())


def _unnamed_responses(spec: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(path, method, status) of each 2xx JSON response whose schema is not a named one
    with required fields."""
    schemas = spec["components"]["schemas"]
    for path, item in spec["paths"].items():
        for method, op in item.items():
            for status, response in op["responses"].items():
                content = response.get("content", {}).get("application/json")
                if not status.startswith("2") or content is None:
                    continue
                ref = content["schema"].get("$ref", "")
                named = schemas.get(ref.rpartition("/")[2]) if ref else None
                if named is None or not named.get("required"):
                    yield path, method, status


def _named(type_ref: dict[str, Any]) -> str:
    while type_ref.get("ofType") is not None:
        type_ref = type_ref["ofType"]
    return str(type_ref["name"])


def _json_coordinates(types: list[dict[str, Any]]) -> Iterator[tuple[str, str]]:
    """(type name, schema coordinate) of every field, argument or input field of type JSON."""
    for kind in types:
        if kind["name"].startswith("__"):
            continue
        for field in kind["fields"] or ():
            if _named(field["type"]) == "JSON":
                yield kind["name"], f"{kind['name']}.{field['name']}"
            for arg in field["args"]:
                if _named(arg["type"]) == "JSON":
                    yield kind["name"], f"{kind['name']}.{field['name']}({arg['name']})"
        for field in kind["inputFields"] or ():
            if _named(field["type"]) == "JSON":
                yield kind["name"], f"{kind['name']}.{field['name']}"


def _reachable(types: list[dict[str, Any]], roots: dict[str, str]) -> set[str]:
    """Type names reachable from the migrated root fields (their payloads and arguments)."""
    by_name = {t["name"]: t for t in types}
    todo = [
        _named(ref)
        for kind, root in roots.items()
        for field in by_name[root]["fields"]
        if f"{root}.{field['name']}" in _table_roots(roots)
        for ref in [field["type"], *(a["type"] for a in field["args"])]
    ]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        kind = by_name[name]
        for field in [*(kind["fields"] or ()), *(kind["inputFields"] or ())]:
            todo.append(_named(field["type"]))
        todo.extend(_named(m) for m in kind.get("possibleTypes") or ())
    return seen


def _table_roots(roots: dict[str, str]) -> set[str]:
    """`Query.roll`, ...: the root fields the use-case table declares."""
    return {f"{roots[kind]}.{to_camel_case(field)}" for kind, field in MIGRATED_FIELDS}


def test_every_success_response_of_the_table_names_a_schema(http: TestClient) -> None:
    unnamed = list(_unnamed_responses(http.get("/openapi.json").json()))
    print(f"\n2xx responses without a named schema, whole API: {len(unnamed)}")
    assert [u for u in unnamed if u[0] in MIGRATED_PATHS or u[0].startswith(TABLE_PREFIXES)] == []
    assert set(http.get("/openapi.json").json()["paths"]) >= MIGRATED_PATHS


def test_no_json_scalar_leaks_into_the_table_s_graphql_types(http: TestClient) -> None:
    body = http.post("/graphql", json={"query": INTROSPECTION}).json()
    schema = body["data"]["__schema"]
    types = schema["types"]
    roots = {"query": schema["queryType"]["name"], "mutation": schema["mutationType"]["name"]}
    found = list(_json_coordinates(types))
    undocumented = [coord for _, coord in found if coord not in FREE_FORM_FIELDS]
    print(f"\nGraphQL JSON fields/arguments outside the documented exceptions: {len(undocumented)}")
    migrated = _reachable(types, roots)
    table = _table_roots(roots)
    leaks = [
        coord
        for owner, coord in found
        if coord not in FREE_FORM_FIELDS and (owner in migrated or coord.partition("(")[0] in table)
    ]
    assert leaks == []
    assert {"RollResult", "ProbabilityReport", "LabyrinthPreset", "Problem"} <= migrated
    assert {"MazeCheck", "MazeCharacterInput", "MazeSideInput", "MazeDamage"} <= migrated


def test_session_and_campaign_fields_are_typed(http: TestClient) -> None:
    body = http.post("/graphql", json={"query": INTROSPECTION}).json()
    schema = body["data"]["__schema"]
    types = schema["types"]
    by_name = {t["name"]: t for t in types}
    roots = [schema["queryType"]["name"], schema["mutationType"]["name"], "Subscription"]
    fields = {
        f"{root}.{field['name']}": field
        for root in roots
        for field in by_name[root]["fields"]
        if any(word in field["name"].lower() for word in TABLE_FIELDS)
        or field["name"].startswith("override")
        or field["name"] in ("revealRiverCard", "moveRiverCard")
    }
    todo = [_named(field["type"]) for field in fields.values()]
    assert "SessionViewPayload" in todo and "CampaignEventPayload" in todo
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        kind = by_name[name]
        todo.extend(_named(f["type"]) for f in kind["fields"] or ())
        todo.extend(_named(m) for m in kind.get("possibleTypes") or ())
    leaks = [
        coord
        for owner, coord in _json_coordinates(types)
        if (owner in seen or coord.partition("(")[0] in fields) and coord not in FREE_FORM_FIELDS
    ]
    assert leaks == []  # answers and arguments alike (a maze definition is the exception)
    assert {"MazeStartedEvent", "LabyrinthGmView", "DowntimePassedEvent"} <= seen
