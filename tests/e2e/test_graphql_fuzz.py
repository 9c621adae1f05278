"""schemathesis against the running server's GraphQL endpoint.

The schema is the app's own, by introspection (a test below checks that the running
server publishes the same one), so the cases are known at collection time. Every Query
and Mutation root field is fuzzed with queries that hypothesis-graphql generates from
the schema, valid and invalid (bounded: a fixed number of derandomized examples per
field), posted to `/graphql`. Every check schemathesis has for GraphQL runs: no 5xx and
no GraphQL error counted as a server error; answers conform to the schema (no null in a
non-null field); a schema-valid query is answered without errors (expected failures are
`Problem` union members, data); a schema-violating query is refused with errors. And no
answer carries the masked "Internal error." that stands for an exception escaping a
resolver.

Not fuzzed:
* the Subscription root: schemathesis generates only queries and mutations, and
  subscriptions are served over graphql-transport-ws, not POST (the table and session
  tests drive `sessionEvents` over a real WebSocket);
* the simulation fields (`startSimulation`, `simulation`, ...): each queued simulation
  is a Celery job, the server under test runs without a worker, and the simulation API
  has its own tests. (The tuning fields are fuzzed: a tuning stays queued, and past the
  tenant's cap the answer is a `too_many_jobs` Problem.)

The session and campaign fields are fuzzed too: with generated (forged) tokens and ids they answer
a `Problem`, never an error. `JSON` arguments get arbitrary JSON mixed with a few shapes
the resolvers accept (a character, a command, a maze definition, a cadence), so that generated
queries also get past the first validation now and then.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from graphql import (
    BooleanValueNode,
    IntValueNode,
    ListValueNode,
    NameNode,
    NullValueNode,
    ObjectFieldNode,
    ObjectValueNode,
    StringValueNode,
    ValueNode,
    build_client_schema,
    get_introspection_query,
    print_schema,
)
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from api.graphql.schema import schema as app_schema

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MASKED = "Internal error."
ONE_OF = "must specify exactly one key"
# Every check schemathesis has for GraphQL.
CHECKS: list[Any] = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.positive_data_acceptance,
    schemathesis.checks.negative_data_rejection,
]
FUZZ = settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


NAME = st.from_regex(r"[a-z][a-zA-Z_]{0,11}", fullmatch=True)
SCALAR_VALUES = st.none() | st.booleans() | st.integers(-(2**31), 2**31 - 1) | st.text(max_size=20)
PLAUSIBLE: list[Any] = [
    {"name": "Ash", "abilities": {"ready": 8, "surroundings": 6}},
    {"die": 8, "modifier": 1},
    {"type": "FlipCard", "player": "p1", "card": "s1"},
    {"type": "EndMaze"},
    {"name": "Custom", "dc": 12, "deck": "standard26", "trap_table": {"entries": []}},
    {"system": "5e", "modifiers": {"DEX": 3}},
    {"kind": "interval", "every_seconds": 60},
    {"kind": "weekly", "days": ["mon", "fri"], "at": "19:30", "timezone": "Europe/Paris"},
    {"type": "supplies", "delta": 3},
    {"supplies_max": 200, "avoid_step": 3},
]
JSON_VALUES = st.recursive(
    SCALAR_VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAME, inner, max_size=4),
    max_leaves=8,
)


def _node(value: Any) -> ValueNode:
    """A JSON value as a GraphQL literal."""
    if value is None:
        return NullValueNode()
    if isinstance(value, bool):
        return BooleanValueNode(value=value)
    if isinstance(value, int):
        return IntValueNode(value=str(value))
    if isinstance(value, str):
        return StringValueNode(value=value)
    if isinstance(value, list):
        return ListValueNode(values=tuple(_node(v) for v in value))
    fields = (ObjectFieldNode(name=NameNode(value=k), value=_node(v)) for k, v in value.items())
    return ObjectValueNode(fields=tuple(fields))


# A top-level null is no JSON value (GraphQL refuses it for a `JSON!` argument before any
# resolver runs, and it is the same as leaving a nullable argument out); nested nulls stay.
TOP_LEVEL = JSON_VALUES.filter(lambda value: value is not None)
schemathesis.graphql.scalar("JSON", (st.sampled_from(PLAUSIBLE) | TOP_LEVEL).map(_node))

INTROSPECTED: dict[str, Any] = app_schema.introspect()
# The `@oneOf` inputs: exactly one field, not null (hypothesis-graphql knows neither rule).
ONE_OF_INPUTS = [
    name
    for name in app_schema._schema.type_map
    if any(
        type(directive).__name__ == "OneOf"
        for directive in getattr(app_schema.get_type_by_name(name), "directives", None) or ()
    )
]
assert "SessionCommandInput" in ONE_OF_INPUTS
# Excluded, see above: simulations queue Celery jobs.
schema = schemathesis.graphql.from_dict(INTROSPECTED).exclude(name_regex=r"(?i)simulation")
# Generated examples and fuzzing; the coverage phase's boundary cases over every argument
# of ~50 fields would take minutes.
schema.config.phases.update(phases=["examples", "fuzzing"])


def test_the_server_publishes_the_fuzzed_schema(server_url: str) -> None:
    served = httpx.post(f"{server_url}/graphql", json={"query": get_introspection_query()})
    assert served.status_code == 200, served.text
    published = print_schema(build_client_schema(served.json()["data"]))
    assert published == print_schema(build_client_schema(INTROSPECTED))  # type: ignore[arg-type]


@schema.parametrize()
@FUZZ
def test_graphql_fields(case: schemathesis.Case[Any], server_url: str) -> None:
    response = case.call(base_url=f"{server_url}/graphql")
    assert response.status_code < 500, response.text
    # A GraphQL answer (the fuzz once posted to `/` and judged its 404s).
    payload = response.json()
    assert "data" in payload or "errors" in payload, response.text
    assert MASKED not in response.text, f"{case.body!r}\n{response.text}"
    if ONE_OF in response.text or any(f"'{name}." in response.text for name in ONE_OF_INPUTS):
        # hypothesis-graphql does not know `@oneOf` (SessionCommandInput, CadenceInput,
        # AdjustmentInput): a value giving two fields, or one null, is schema-invalid and
        # refused as such before any resolver runs; the positive checks do not apply.
        assert payload.get("data") is None and payload["errors"], response.text
        return
    case.validate_response(response, checks=CHECKS)
