"""Known GraphQL documents run by their plans (api/graphql/compiled.py).

A document is compiled once strawberry has run it; the next request for it runs the
plan. These tests check that the plan is what answers, that its answers are
strawberry's own (the suite runs with VERIFY on: every plan's answer is checked against
strawberry's path given the same resolver results, and a difference fails the request),
and that the checks around execution still hold on the plan's path: the key's scope,
the document's price, the variables' types.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import (
    GraphQLEnumType,
    GraphQLError,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLString,
)
from graphql.utilities.coerce_input_value import coerce_input_value
from starlette.applications import Starlette
from strawberry.types.unset import UNSET

from api.app import create_app
from api.graphql import compiled
from api.graphql.schema import DaedalusGraphQL, schema
from api.keys import config_entry, new_key
from api.usecases.table import Redacted
from infra.settings import Settings
from tests.e2e.test_campaigns_api import SHEETS
from tests.e2e.test_sessions_api import PARTY, policy
from tests.graphql_shapes import command_input, fragments, spread
from tests.running_app import serving

ROLL = """query Roll($e: String!, $s: String) {
  first: roll(expression: $e, seed: $s) {
    __typename
    ...Rolled
    ... on Problem { code message field position expected }
  }
  again: roll(expression: $e, seed: $s) {
    ... on RollResult { total dice { order sides face value active flags label } }
  }
}
fragment Rolled on RollResult {
  expression formula total seed foundry diceSoNice
  check { op total target success margin }
  rng { algorithm seed }
  tree { ...Node items { ...Node items { ...Node } } }
}
fragment Node on RollNode {
  type value notation kind label faces keep kept term count sides throws { face value }
}"""

FLIP = """mutation Flip($id: ID!, $t: String!, $c: SessionCommandInput!) {
  sendCommand(id: $id, token: $t, command: $c) {
    __typename
    ... on CommandResult { version duplicate view { __typename ...Table } }
    ... on Problem { code message }
  }
}
fragment Table on LabyrinthTableView {
  phase round active turnOrder asleep { key value } river { slot faceUp }
}"""

FLIP_WITH_EVENTS = """mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {
  sendCommand(id: $id, token: $t, command: $c) {
    ... on CommandResult {
      version
      events { __typename version type ... on CardRevealedEvent { player card { slot } } }
    }
    ... on Problem { code }
  }
}"""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """The context of each run of strawberry's path: UNSET for a request it serves
    itself, a plan's results (`RESOLVED`) when it checks a plan's answer."""
    seen: list[Any] = []
    original = DaedalusGraphQL.run

    async def counted(self: DaedalusGraphQL, request: Any, context: Any = UNSET) -> Any:
        seen.append(context)
        return await original(self, request, context=context)

    monkeypatch.setattr(DaedalusGraphQL, "run", counted)
    yield seen


@pytest.fixture
def completed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """How each plan completed each root field's Redacted result: (field, "data") when
    from its data, (field, "fell back: ...") when the data path refused it."""
    seen: list[tuple[str, str]] = []
    complete_all = compiled.complete_all

    def spied(plan: compiled.Plan, results: dict[str, Any]) -> dict[str, Any]:
        for field in plan.fields:
            if isinstance(results[field.key], Redacted):
                try:
                    field.data(results[field.key].data)  # type: ignore[misc]
                except Exception as exc:
                    seen.append((field.key, f"fell back: {exc!r}"))
                else:
                    seen.append((field.key, "data"))
        return complete_all(plan, results)

    monkeypatch.setattr(compiled, "complete_all", spied)
    return seen


def _app(tmp_path: Path, **fields: Any) -> Starlette:
    settings = {"environment": "test", "data_dir": tmp_path, **fields}
    return create_app(Settings.model_validate(settings))


def _planned(context: Any) -> bool:
    return isinstance(context, dict) and compiled.RESOLVED in context


async def _player(http: httpx.AsyncClient, headers: dict[str, str]) -> tuple[str, str, str]:
    party = [{"id": "p1", "name": "Ash"}]
    created = await http.post(
        "/v1/sessions", json={"preset": "standard_deck", "party": party}, headers=headers
    )
    session, gm = created.json()["session_id"], created.json()["gm_token"]
    issued = await http.post(
        f"/v1/sessions/{session}/tokens",
        json={"role": "player", "member": "p1"},
        headers={**headers, "Authorization": f"Bearer {gm}"},
    )
    player = issued.json()["token"]
    look = await http.get(
        f"/v1/sessions/{session}", headers={**headers, "Authorization": f"Bearer {player}"}
    )
    slot = next(c["slot"] for c in look.json()["view"]["river"] if not c["face_up"])
    return session, player, slot


def test_the_second_request_for_a_document_runs_its_plan_and_answers_the_same(
    tmp_path: Path, runs: list[Any]
) -> None:
    assert compiled.VERIFY  # tests/conftest.py: every plan's answer is checked
    app = _app(tmp_path)

    async def scenario() -> None:
        async with serving(app) as http:
            variables: dict[str, Any]
            for variables in ({"e": "4d6kh3+2 >= 10", "s": "plans"}, {"e": "2d"}):
                body = {"query": ROLL, "variables": variables, "operationName": "Roll"}
                first = await http.post("/graphql", json=body)
                second = await http.post("/graphql", json=body)
                assert first.status_code == second.status_code == 200
                assert second.json() == first.json() and "errors" not in first.json()
            rolled, refused = (await http.post("/graphql", json=body)).json(), first.json()
            assert refused["data"]["first"]["__typename"] == "Problem"
            assert rolled["data"]["again"] == {}  # a Problem selects nothing under RollResult

            session, player, slot = await _player(http, {})
            results: list[dict[str, Any]] = []
            for card in (slot, "s-none", None):  # strawberry's path, then the plan's twice
                if card is None:  # a face-down card of the view the first flip answered
                    river = results[0].get("view", {}).get("river", [])
                    card = next((c["slot"] for c in river if not c["faceUp"]), slot)
                flip = {"flipCard": {"player": "p1", "card": card}}
                sent = {"id": session, "t": player, "c": flip}
                answer = await http.post("/graphql", json={"query": FLIP, "variables": sent})
                results.append(answer.json()["data"]["sendCommand"])
            flipped, unknown, _ = results
            assert flipped["__typename"] == "CommandResult", flipped
            assert flipped["view"]["__typename"] == "LabyrinthTableView"
            assert unknown["__typename"] == "Problem" and unknown["code"]  # (or trap_pending)
            # (the third answers whatever the table's deal allows: VERIFY checks it)

    asyncio.run(scenario())
    # Each document: strawberry served its first request itself, and only checked the
    # plan's answers after (its context holding the plan's results).
    assert [_planned(c) for c in runs] == [False, True, True, True, True, False, True, True]


def test_a_plan_that_answers_differently_fails_the_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    body = {"query": ROLL, "variables": {"e": "1d6", "s": "x"}}

    async def scenario() -> list[int]:
        async with serving(app) as http:
            first = await http.post("/graphql", json=body)
            monkeypatch.setattr(compiled, "complete_all", lambda plan, results: {"first": None})
            with pytest.raises(AssertionError, match="a plan answered"):
                await http.post("/graphql", json=body)
            return [first.status_code]

    assert asyncio.run(scenario()) == [200]


def test_a_command_runs_once_by_its_plan_and_leaves_out_events_it_was_not_asked_for(
    tmp_path: Path, runs: list[Any]
) -> None:
    app = _app(tmp_path)
    plans: compiled.Documents = schema.documents  # type: ignore[attr-defined]
    plans.learn(FLIP, "Flip", _parsed(FLIP))
    plans.learn(FLIP_WITH_EVENTS, None, _parsed(FLIP_WITH_EVENTS))
    flip_plan, events_plan = plans.plan(FLIP, "Flip"), plans.plan(FLIP_WITH_EVENTS, None)
    assert flip_plan is not None and events_plan is not None
    assert flip_plan.fields[0].shown == {"version", "duplicate", "view", "code", "message"}
    assert "events" in events_plan.fields[0].shown

    async def scenario() -> list[dict[str, Any]]:
        async with serving(app) as http:
            answers = []
            for _ in range(2):  # strawberry's path, then the plan's
                session, player, slot = await _player(http, {})
                flip = {"flipCard": {"player": "p1", "card": slot}}
                variables = {"id": session, "t": player, "c": flip}
                body = {"query": FLIP_WITH_EVENTS, "variables": variables}
                answers.append((await http.post("/graphql", json=body)).json())
                history = await http.get(
                    f"/v1/sessions/{session}/events", headers={"Authorization": f"Bearer {player}"}
                )
                recorded = [e for e in history.json()["events"] if e["type"] == "CardRevealed"]
                assert len(recorded) == 1  # the plan ran the command once, not again to check
            return answers

    first, second = asyncio.run(scenario())
    assert [_planned(c) for c in runs] == [False, True]
    for answer in (first, second):
        events = answer["data"]["sendCommand"]["events"]
        assert [e["__typename"] for e in events][:1] == ["CardRevealedEvent"]
        assert events[0]["player"] == "p1"


def _parsed(query: str) -> Any:
    from graphql import parse

    return parse(query)


def test_a_plan_keeps_a_publishable_keys_scope(tmp_path: Path, runs: list[Any]) -> None:
    secret, publishable = new_key(), new_key(publishable=True)
    origin = "https://table.example"
    keys = {**config_entry(secret, "ops", "t1"), **config_entry(publishable, "vtt", "t1", [origin])}
    app = _app(tmp_path, api_keys=json.dumps(keys))
    create = {
        "query": "mutation($p: [PartyMemberInput!]!) { createSession(preset: "
        '"standard_deck", party: $p) { ... on CreatedSession { sessionId } '
        "... on Problem { code } } }",
        "variables": {"p": [{"id": "p1", "name": "Ash"}]},
    }

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with serving(app) as http:
            made = await http.post("/graphql", json=create, headers={"X-API-Key": secret})
            refused = await http.post(
                "/graphql", json=create, headers={"X-API-Key": publishable, "Origin": origin}
            )
            return made.json(), refused.json()

    made, refused = asyncio.run(scenario())
    assert made["data"]["createSession"]["sessionId"]
    assert refused["data"] is None
    assert [e["extensions"]["code"] for e in refused["errors"]] == ["secret_key_required"]
    assert [_planned(c) for c in runs] == [False, False]  # strawberry refused it


def test_a_plan_pays_its_documents_price_and_checks_its_variables(
    tmp_path: Path, runs: list[Any]
) -> None:
    # Three tokens and (nearly) no refill: the door takes one a request, and a document of
    # two root fields one more. The first roll leaves one: the plan's door token takes
    # it, and its second field cannot be paid.
    app = _app(tmp_path, rate_limit_rps=0.001, rate_limit_burst=3)
    body = {"query": ROLL, "variables": {"e": "1d6", "s": "x"}}

    async def scenario() -> list[dict[str, Any]]:
        async with serving(app) as http:
            return [(await http.post("/graphql", json=body)).json() for _ in range(2)]

    paid, refused = asyncio.run(scenario())
    assert paid["data"]["first"]["total"] == paid["data"]["again"]["total"]
    assert [e["extensions"]["code"] for e in refused["errors"]] == ["rate_limited"]

    runs.clear()
    app = _app(tmp_path / "two")
    wrong = {"query": ROLL, "variables": {"e": 6, "s": "x"}}  # a number for a String!

    async def typed() -> list[dict[str, Any]]:
        async with serving(app) as http:
            return [(await http.post("/graphql", json=b)).json() for b in (body, wrong)]

    _, mistyped = asyncio.run(typed())
    assert mistyped["data"] is None and "$e" in mistyped["errors"][0]["message"]
    assert [_planned(c) for c in runs] == [False, False]  # the variables sent it back


def test_a_document_with_directives_is_not_compiled(tmp_path: Path, runs: list[Any]) -> None:
    app = _app(tmp_path)
    query = "query($e: String!, $x: Boolean!) { roll(expression: $e, seed: \"d\") { " \
        "... on RollResult { total formula @include(if: $x) } } }"  # fmt: skip

    async def scenario() -> list[dict[str, Any]]:
        async with serving(app) as http:
            return [
                (await http.post("/graphql", json={"query": query, "variables": v})).json()
                for v in ({"e": "1d6", "x": True}, {"e": "1d6", "x": False})
            ]

    shown, hidden = asyncio.run(scenario())
    assert "formula" in shown["data"]["roll"] and "formula" not in hidden["data"]["roll"]
    assert [_planned(c) for c in runs] == [False, False]


def test_variables_with_defaults_given_null_or_left_out_coerce_as_graphql_core_has_them(
    tmp_path: Path, runs: list[Any]
) -> None:
    app = _app(tmp_path)
    query = 'query($e: String! = "2d6", $s: String) { roll(expression: $e, seed: $s) { ' \
        "... on RollResult { expression total seed } ... on Problem { code } } }"  # fmt: skip
    sent: tuple[dict[str, Any], ...] = ({}, {"s": None}, {"e": "1d4", "s": "x"}, {"e": None})

    async def scenario() -> list[dict[str, Any]]:
        async with serving(app) as http:
            return [
                (await http.post("/graphql", json={"query": query, "variables": v})).json()
                for v in sent
            ]

    default, null_seed, given, null_required = asyncio.run(scenario())
    assert default["data"]["roll"]["expression"] == "2d6"
    assert null_seed["data"]["roll"]["expression"] == "2d6"
    assert given["data"]["roll"] == {"expression": "1d4", "total": given["data"]["roll"]["total"],
                                     "seed": "x"}  # fmt: skip
    assert null_required["data"] is None and null_required["errors"]
    # The first ran on strawberry's path; the plan ran the others (its refusal of a null
    # for `String!` sent that one back to strawberry, which answered the error).
    assert [_planned(c) for c in runs] == [False, True, True, False]


def test_a_root_fields_arguments_are_graphql_cores_whichever_way_they_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bare variables are read from the coerced variables, with the defaults of the
    # arguments left out; a literal, or a variable left out or null where a value is
    # required, go through graphql-core.
    from graphql import FieldNode, OperationDefinitionNode, build_schema, parse
    from graphql.execution.values import get_argument_values, get_variable_values

    core = build_schema(
        'type Query { f(a: String, b: Int!, c: Int = 3): String, g(a: String = "x"): String,'
        " h(n: Int! = 7): String }"
    )
    query = core.query_type
    assert query is not None
    cases: list[tuple[str, dict[str, Any]]] = [
        ("query($a: String, $b: Int!) { f(a: $a, b: $b) }", {"a": "one", "b": 2}),
        ("query($a: String, $b: Int!) { f(a: $a, b: $b) }", {"b": 2}),  # $a left out
        ("query($a: String, $b: Int!) { f(a: $a, b: $b) }", {"a": None, "b": 2}),
        ("query($b: Int!, $c: Int) { f(b: $b, c: $c) }", {"b": 1}),  # $c left out: default
        ('query($b: Int!) { f(b: $b, a: "lit") }', {"b": 1}),  # a literal
        ("query { g }", {}),  # the argument left out: its default
        ("query($a: String) { g(a: $a) }", {}),
        ("query($b: Int!) { f(b: $b) }", {"b": 5}),  # `c` left out: its default, read
        ("query($b: Int!) { f(b: $b, c: 4) }", {"b": 5}),
        ("query { h }", {}),  # a required argument's default
    ]
    # Which go through graphql-core (at plan time or when read), and which are read
    # directly: a literal, or a variable left out, still go to graphql-core.
    direct = [True, False, True, False, False, True, False, True, False, True]

    def refused(*args: Any) -> Any:
        raise AssertionError("graphql-core was asked")

    for (text, given), read_directly in zip(cases, direct, strict=True):
        operation = parse(text).definitions[0]
        assert isinstance(operation, OperationDefinitionNode)
        node = operation.selection_set.selections[0]
        assert isinstance(node, FieldNode)
        definition = query.fields[node.name.value]
        variables = get_variable_values(core, operation.variable_definitions or (), given)
        assert not isinstance(variables, list)
        expected = get_argument_values(definition, node, variables)
        with monkeypatch.context() as patched:
            if read_directly:  # then graphql-core is not asked, at plan time or after
                patched.setattr(compiled, "get_argument_values", refused)
            read = compiled._argument_values(definition, node)(variables)
        assert read == expected, text


def test_a_plans_variables_cannot_nest_as_deep_as_graphql_cores_bound() -> None:
    # A plan skips graphql-core's nesting check: its variables come from a body that
    # decode_json bounds far under that check's depth (schema list types add a few).
    from graphql.language.parser import MAX_NESTING_DEPTH

    from api.bodies import MAX_JSON_DEPTH

    assert MAX_JSON_DEPTH + 32 < MAX_NESTING_DEPTH


def test_a_oneof_variable_without_exactly_one_key_is_refused_alike_on_every_request(
    tmp_path: Path, runs: list[Any]
) -> None:
    # strawberry's `@oneOf` check raises from the input type's own coercion: a plan's
    # variables must hand such a request back to strawberry's path, not fail it.
    app = _app(tmp_path)

    async def scenario() -> list[httpx.Response]:
        async with serving(app) as http:
            session, player, slot = await _player(http, {})
            good = {"id": session, "t": player, "c": {"flipCard": {"player": "p1", "card": slot}}}
            answers = [await http.post("/graphql", json={"query": FLIP, "variables": good})]
            for command in ({}, {"endMaze": {}, "rollInitiative": True}):
                sent = {**good, "c": command}
                for _ in range(2):
                    answers.append(
                        await http.post("/graphql", json={"query": FLIP, "variables": sent})
                    )
            return answers

    flipped, *refused = asyncio.run(scenario())
    assert flipped.json()["data"]["sendCommand"]["__typename"] == "CommandResult"
    for answer in refused:
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["data"] is None
        assert [e["extensions"]["code"] for e in body["errors"]] == ["invalid_argument"], body
        assert "exactly one key" in body["errors"][0]["message"]
    assert [r.json() for r in refused[0::2]] == [r.json() for r in refused[1::2]]


async def _seated(http: httpx.AsyncClient) -> tuple[str, str, str, dict[str, str]]:
    """A standard-deck session of PARTY: its id, the GM's and the spectator's tokens, and
    each member's player token."""
    created = await http.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
    table = created.json()
    sid, gm = table["session_id"], table["gm_token"]
    players: dict[str, str] = {}
    for member in PARTY:
        body = {"role": "player", "member": str(member["id"])}
        issued = await http.post(
            f"/v1/sessions/{sid}/tokens", json=body, headers={"Authorization": f"Bearer {gm}"}
        )
        players[str(member["id"])] = issued.json()["token"]
    return sid, gm, table["spectator_token"], players


def _everything(view: str) -> tuple[str, str]:
    """Documents selecting every field of a command's result and of a look, the view as
    `view` (a GraphQL document cannot select both views' fields: `river` differs)."""
    fields = f"view {{ __typename ...{view}Fields }}"
    send = f"""mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {{
  sendCommand(id: $id, token: $t, command: $c) {{
    __typename ... on CommandResult {{ version duplicate events {{ {spread("SessionEvent")} }}
    {fields} }} ... on Problem {{ code message }} }} }}
{fragments("SessionEvent", view)}"""
    look = f"""query($id: ID!, $t: String!, $gm: Boolean!) {{
  session(id: $id, token: $t, asGm: $gm) {{
    __typename ... on SessionView {{ sessionId role member version {fields} }} }} }}
{fragments(view)}"""
    return send, look


EVENTS_EVERYTHING = f"""query($id: ID!, $t: String!, $after: Long!) {{
  sessionEvents(id: $id, token: $t, after: $after) {{ __typename ...SessionEventPageFields }} }}
{fragments("SessionEventPage")}"""


def test_a_plan_completes_every_field_of_a_tables_data_without_typing_it(
    tmp_path: Path, completed: list[tuple[str, str]]
) -> None:
    """A table row answers its redaction's data (api/usecases/table.py's Redacted); a
    plan completes it without typing it into the row's model. A game played over GraphQL,
    every field of every answer selected (events of each kind the game made, the GM's
    view, a player's and a spectator's, maps as entries), each answer checked against
    strawberry's (VERIFY) and each made from the data, never typed first."""
    app = _app(tmp_path)
    kinds: set[str] = set()

    async def scenario() -> None:
        async with serving(app) as http:
            sid, gm, spectator, players = await _seated(http)
            bearer = {"Authorization": f"Bearer {gm}"}

            async def gql(query: str, **variables: Any) -> dict[str, Any]:
                answer = await http.post("/graphql", json={"query": query, "variables": variables})
                assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
                data: dict[str, Any] = answer.json()["data"]
                return data

            for _ in range(40):
                state = (await http.get(f"/v1/sessions/{sid}?view=gm", headers=bearer)).json()
                if state["view"]["phase"] not in ("turn", "choice", "trap", "encounter"):
                    break
                command = policy(state["view"])
                token = players.get(command.get("player", ""), gm)
                send, _ = _everything("LabyrinthGmView" if token == gm else "LabyrinthTableView")
                sent = await gql(send, id=sid, t=token, c=command_input(command))
                result = sent["sendCommand"]
                assert result["__typename"] == "CommandResult", result
                kinds.update(e["__typename"] for e in result["events"])
                for viewer, view in ((gm, "LabyrinthGmView"), (spectator, "LabyrinthTableView")):
                    _, look = _everything(view)
                    looked = await gql(look, id=sid, t=viewer, gm=viewer == gm)
                    assert looked["session"]["view"]["__typename"] == view
                after = max(0, result["version"] - 3)
                page = await gql(EVENTS_EVERYTHING, id=sid, t=players["p1"], after=after)
                assert page["sessionEvents"]["__typename"] == "SessionEventPage"

    asyncio.run(scenario())
    assert completed and all(how == "data" for _, how in completed), completed
    assert {key for key, _ in completed} == {"sendCommand", "session", "sessionEvents"}
    assert len(kinds) >= 4, kinds  # the game made events of several kinds


EITHER_VIEW = """query($id: ID!, $t: String!, $gm: Boolean!) {
  session(id: $id, token: $t, asGm: $gm) {
    ... on SessionView { role view {
      __typename
      ... on LabyrinthGmView { phase deck slots { key value } }
      ... on LabyrinthTableView { phase viewer checks { forgeAPath } deckCount } } }
    ... on Problem { code } } }"""


def test_one_plan_completes_each_member_of_a_union_by_the_shape_of_its_data(
    tmp_path: Path, runs: list[Any], completed: list[tuple[str, str]]
) -> None:
    """A view is the GM's or the table's by its data's keys: one document's plan, asked by
    the GM, a player and a spectator in turn (each shape first, then again), answers each
    as the member its data fits, as strawberry does (VERIFY)."""
    app = _app(tmp_path)

    async def scenario() -> None:
        async with serving(app) as http:
            sid, gm, spectator, players = await _seated(http)
            player = players[str(PARTY[0]["id"])]
            asked = [(gm, True), (player, False), (gm, True), (spectator, False), (player, False)]
            shown = []
            for token, as_gm in asked:
                variables = {"id": sid, "t": token, "gm": as_gm}
                answer = await http.post(
                    "/graphql", json={"query": EITHER_VIEW, "variables": variables}
                )
                assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
                session = answer.json()["data"]["session"]
                shown.append((session["role"], session["view"]["__typename"]))
                if session["role"] == "PLAYER":
                    assert session["view"]["viewer"] == PARTY[0]["id"]
            assert shown == [
                ("GM", "LabyrinthGmView"),
                ("PLAYER", "LabyrinthTableView"),
                ("GM", "LabyrinthGmView"),
                ("SPECTATOR", "LabyrinthTableView"),
                ("PLAYER", "LabyrinthTableView"),
            ]

    asyncio.run(scenario())
    assert [_planned(c) for c in runs] == [False, True, True, True, True]
    assert completed == [("session", "data")] * 4  # each from its data, none fell back


def _samples(type_: Any, depth: int = 0) -> list[Any]:
    """Values to coerce as `type_`: valid ones first, then wrong ones of every kind."""
    if isinstance(type_, GraphQLNonNull):
        return [*_samples(type_.of_type, depth), None]
    if isinstance(type_, GraphQLList):
        items = _samples(type_.of_type, depth + 1)
        return [[items[0]], [], items[0], [items[0], None], items[-1:], {"a": 1}]
    if isinstance(type_, GraphQLEnumType):
        return [next(iter(type_.values)), "NOT_A_MEMBER", 1, None]
    if isinstance(type_, GraphQLInputObjectType):
        if depth > 3:
            return [{}, None]
        firsts = {name: _samples(f.type, depth + 1)[0] for name, f in type_.fields.items()}
        out: list[Any] = [firsts, {}, {**firsts, "notAField": 1}, "x", [firsts]]
        for name, field in type_.fields.items():
            out += [{name: firsts[name]}, {name: None}]  # one field (a `@oneOf`'s choice)
            out += [{**firsts, name: wrong} for wrong in _samples(field.type, depth + 1)[1:3]]
        return out
    leaves: dict[str, list[Any]] = {
        "String": ["text", 7, True, None],
        "ID": ["id-1", 12, 1.5, None],
        "Int": [3, 2**40, "3", True, 2.0],
        "Float": [1.5, 2, "1.5", math.nan],
        "Boolean": [True, 1, "true"],
        "Long": [2**40, "5", 1.5, True],
        "JSON": [{"a": [1]}, "s", None],
    }
    return leaves[type_.name]


def _outcome(coerce: Any, *args: Any) -> tuple[str, Any]:
    try:
        return "value", coerce(*args)
    except GraphQLError as exc:
        return "error", exc.message


def test_a_plans_coercion_of_every_input_type_is_graphql_cores() -> None:
    """`compiled._coercer` walks each input type once; what it gives (a value, Undefined,
    an error) is graphql-core's `coerce_input_value`'s for every input of the schema,
    given valid values and wrong ones (a field left out, null, extra, mistyped)."""
    core = schema._schema
    inputs = [t for t in core.type_map.values() if isinstance(t, GraphQLInputObjectType)]
    assert len(inputs) > 20
    # graphql-core's own `@oneOf` (strawberry checks its own in `out_type`, above).
    fields = {"a": GraphQLInputField(GraphQLString), "b": GraphQLInputField(GraphQLInt)}
    inputs.append(GraphQLInputObjectType("Choice", fields, is_one_of=True))
    checked = 0
    for input_type in inputs:
        for type_ in (input_type, GraphQLNonNull(input_type), GraphQLList(input_type)):
            coerce = compiled._coercer(type_, {})
            for value in _samples(type_):
                ours, theirs = _outcome(coerce, value), _outcome(coerce_input_value, value, type_)
                assert ours == theirs, (input_type.name, value, ours, theirs)
                checked += 1
    assert checked > 1000


def _campaign_everything(root: str, result: str, arguments: str) -> str:
    return f"""mutation($id: ID!, $t: String!) {{
  {root}(id: $id, token: $t{arguments}) {{
    __typename ...{result}Fields ... on Problem {{ code }} }} }}
{fragments(result)}"""


def test_a_plan_completes_every_field_of_a_campaigns_data_without_typing_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above for a campaign's rows: its commands' results (downtime passed, activities
    chosen), its view for the GM and for a runner, and its ticks."""
    completed: list[tuple[str, str]] = []
    complete_all = compiled.complete_all

    def spied(plan: compiled.Plan, results: dict[str, Any]) -> dict[str, Any]:
        for field in plan.fields:
            value = results[field.key]
            if isinstance(value, Redacted):
                assert field.data is not None, field.key
                field.data(value.data)  # raises where a plan would fall back
                completed.append((field.key, type(value.data).__name__))
        return complete_all(plan, results)

    monkeypatch.setattr(compiled, "complete_all", spied)
    app = _app(tmp_path)
    advance = _campaign_everything("advanceCampaign", "CampaignCommandResult", "")
    choose = _campaign_everything(
        "chooseCampaignActivity", "CampaignCommandResult", ', runner: "r1", activity: GATHER'
    )
    look = f"""query($id: ID!, $t: String!) {{
  campaign(id: $id, token: $t) {{ __typename ...CampaignViewFields }} }}
{fragments("CampaignView")}"""
    ticks = f"""query($id: ID!, $t: String!) {{
  campaignTicks(id: $id, token: $t) {{ __typename ...CampaignTickPageFields }} }}
{fragments("CampaignTickPage")}"""
    kinds: set[str] = set()

    async def scenario() -> None:
        async with serving(app) as http:

            async def gql(query: str, **variables: Any) -> dict[str, Any]:
                answer = await http.post("/graphql", json={"query": query, "variables": variables})
                assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
                data: dict[str, Any] = answer.json()["data"]
                return data

            body = {"name": "Glade", "supplies": 30, "cadence": {"kind": "manual"}}
            created = (await http.post("/v1/campaigns", json=body)).json()
            cid, gm = created["campaign_id"], created["gm_token"]
            bearer = {"Authorization": f"Bearer {gm}"}
            for runner in ("r1", "r2"):
                sheet = {"runner": runner, "character": SHEETS[runner]}
                added = await http.post(f"/v1/campaigns/{cid}/runners", json=sheet, headers=bearer)
                assert added.status_code == 200, added.text
            body = {"role": "player", "runner": "r1"}
            issued = await http.post(f"/v1/campaigns/{cid}/tokens", json=body, headers=bearer)
            r1 = issued.json()["token"]
            for _ in range(4):
                chosen = (await gql(choose, id=cid, t=r1))["chooseCampaignActivity"]
                advanced = (await gql(advance, id=cid, t=gm))["advanceCampaign"]
                for result in (chosen, advanced):
                    assert result["__typename"] == "CampaignCommandResult", result
                    kinds.update(e["__typename"] for e in result["events"])
                for viewer in (gm, r1):
                    looked = (await gql(look, id=cid, t=viewer))["campaign"]
                    assert looked["__typename"] == "CampaignView", looked
                page = (await gql(ticks, id=cid, t=r1))["campaignTicks"]
                assert page["__typename"] == "CampaignTickPage", page

    asyncio.run(scenario())
    roots = {key for key, _ in completed}
    assert roots == {"chooseCampaignActivity", "advanceCampaign", "campaign", "campaignTicks"}
    assert len(kinds) >= 2, kinds
