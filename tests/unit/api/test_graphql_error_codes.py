"""GraphQL errors in process: their codes, masking, logging, and the JSON the view reads."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
import strawberry
from graphql import GraphQLError

from api.bodies import MAX_JSON_DEPTH
from api.graphql.errors import ErrorCodes, MaskInternalErrors
from api.graphql.schema import DaedalusGraphQL, DaedalusSchema, build_schema, schema
from api.graphql.transport import RefusedJson, decode_json
from infra.settings import Settings
from services.dice import DiceError

SECRET = "v1.c2VjcmV0LXBheWxvYWQtMTIzNDU2.bWFjLW9mLXRoZS10b2tlbi0xMjM0NTY"


@strawberry.type
class _Query:
    @strawberry.field
    def boom(self, note: str | None = None) -> int | None:
        raise RuntimeError("kaput")

    @strawberry.field
    def refused(self) -> int | None:
        raise DiceError("no such die", code="invalid_dice")


_SMALL = DaedalusSchema(query=_Query, extensions=[ErrorCodes, MaskInternalErrors])


def _run(target: strawberry.Schema, query: str, **variables: Any) -> list[GraphQLError]:
    result = asyncio.run(target.execute(query, variable_values=variables or None))
    return list(result.errors or [])


def _code(error: GraphQLError) -> object:
    return (error.extensions or {}).get("code")


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def _logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(
        record.getMessage() + (caplog.handler.format(record) if record.exc_info else "")
        for record in caplog.records
    )


def test_a_callers_error_is_not_logged_as_an_error_nor_with_its_query(
    logs: pytest.LogCaptureFixture,
) -> None:
    padding = "x" * 50  # the token crosses column 80, where a printed location wraps
    query = f'{{ session(id: "{padding}", token: "{SECRET}") {{ total }} }}'
    errors = _run(schema, query)
    assert [_code(e) for e in errors] == ["graphql_validation_failed"]
    assert not [r for r in logs.records if r.levelno >= logging.WARNING]
    text = _logged(logs)
    assert "session" not in text and padding not in text
    for part in SECRET.split(".")[1:]:
        assert part[:10] not in text and part[-10:] not in text


def test_a_variables_value_is_never_logged(logs: pytest.LogCaptureFixture) -> None:
    query = 'query($t: Boolean!) { session(id: "s", token: "t", asGm: $t) { __typename } }'
    errors = _run(schema, query, t=SECRET)
    assert [_code(e) for e in errors] == ["invalid_argument"]
    assert SECRET[3:13] not in _logged(logs)
    assert not [r for r in logs.records if r.levelno >= logging.WARNING]


def test_a_bug_is_masked_and_logged_with_its_traceback_but_not_the_query(
    logs: pytest.LogCaptureFixture,
) -> None:
    errors = _run(_SMALL, "query($n: String) { boom(note: $n) }", n=SECRET)
    assert [(e.message, _code(e)) for e in errors] == [("Internal error.", "internal_error")]
    bugs = [r for r in logs.records if r.levelno >= logging.ERROR]
    assert len(bugs) == 1 and bugs[0].exc_info is not None
    assert isinstance(bugs[0].exc_info[1], RuntimeError)
    text = _logged(logs)
    assert "kaput" in text and "boom" in text  # the traceback and the field's path
    assert "query(" not in text and SECRET[3:13] not in text


def test_a_domain_error_escaping_a_resolver_keeps_its_code_and_message(
    logs: pytest.LogCaptureFixture,
) -> None:
    errors = _run(_SMALL, "{ refused }")
    assert [(e.message, _code(e)) for e in errors] == [("no such die", "invalid_dice")]
    assert not [r for r in logs.records if r.levelno >= logging.WARNING]


def test_a_schema_without_introspection_codes_it_as_disabled() -> None:
    production = build_schema(Settings(environment="test", introspection=False))
    errors = _run(production, "{ __schema { queryType { name } } }")
    assert errors and {_code(e) for e in errors} == {"introspection_disabled"}


def test_cached_validation_errors_keep_their_codes() -> None:
    for _ in range(3):  # the validation cache hands back the same error objects
        errors = _run(schema, "{ nope }")
        assert [_code(e) for e in errors] == ["graphql_validation_failed"]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_json_up_to_the_depth_limit_is_read() -> None:
    assert decode_json(_nested(MAX_JSON_DEPTH)) == json.loads(_nested(MAX_JSON_DEPTH))
    assert decode_json('{"query": "{ x }", "variables": {"a": [1, {"b": null}]}}') == {
        "query": "{ x }",
        "variables": {"a": [1, {"b": None}]},
    }
    assert decode_json(b"5") == 5
    # More brackets than the limit, but not nested that deep: in strings, or side by side.
    assert decode_json(json.dumps({"query": "{" * 200})) == {"query": "{" * 200}
    assert decode_json(json.dumps([[[]]] * 100).encode()) == [[[]]] * 100


@pytest.mark.parametrize(
    "data",
    [
        _nested(MAX_JSON_DEPTH + 1),
        '{"a": ' * (MAX_JSON_DEPTH + 1) + "1" + "}" * (MAX_JSON_DEPTH + 1),
        _nested(100_000),  # past the interpreter's recursion limit
        b"\xff\xfe{",
        _nested(MAX_JSON_DEPTH + 1).encode(),  # a POST body: read by orjson first
        _nested(100_000).encode(),  # past orjson's limit too: the standard library's error
    ],
    ids=["one-too-deep", "objects", "recursion-limit", "not-utf8", "bytes", "bytes-recursion"],
)
def test_json_too_deep_or_not_utf8_is_refused_as_invalid_json(data: str | bytes) -> None:
    with pytest.raises(RefusedJson) as refused:
        decode_json(data)
    assert isinstance(refused.value, json.JSONDecodeError)  # what strawberry handles


@pytest.mark.parametrize(
    "body",
    [
        b'{"query":"{ x }","variables":{"n":123456789012345678901234,"m":-9223372036854775809}}',
        b'{"variables":{"x":[1.5,-0.0,1E5,1e-400],"s":"6\xe2\x99\xa5","a":1,"a":2}}',
        b'\xef\xbb\xbf{"query":"{ x }"}',
        b'{"x":NaN}',
    ],
)
def test_a_body_reads_as_the_standard_library_reads_it(body: bytes) -> None:
    got, expected = decode_json(body), json.loads(body)
    assert json.dumps(got) == json.dumps(expected)  # integers past 64 bits exact, not floats


def test_the_view_and_its_websockets_read_json_through_decode_json() -> None:
    view = DaedalusGraphQL(Settings(environment="test"))
    with pytest.raises(RefusedJson):
        view.decode_json(_nested(1000))
