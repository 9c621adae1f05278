"""The validation step's memo (api.graphql.schema.ValidatedDocuments): by document object."""

from __future__ import annotations

from typing import Any

import pytest
from graphql import parse, specified_rules
from strawberry.schema.schema import validate_document

from api.graphql.schema import ValidatedDocuments, schema

GRAPHQL: Any = schema._schema
VALID = "query { __typename }"
INVALID = "query { noSuchField }"
RULES = tuple(specified_rules)


def counted(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The documents validated for real from now on."""
    seen: list[Any] = []

    def validate(graphql: Any, document: Any, rules: Any) -> Any:
        seen.append(document)
        return validate_document(graphql, document, rules)

    monkeypatch.setattr("api.graphql.schema.validate_document", validate)
    return seen


def test_a_document_is_validated_once_and_answers_the_same_errors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    validated = counted(monkeypatch)
    memo = ValidatedDocuments(maxsize=8)
    good, bad = parse(VALID), parse(INVALID)
    assert memo(GRAPHQL, good, RULES) == [] and memo(GRAPHQL, good, RULES) == []
    errors = memo(GRAPHQL, bad, RULES)
    assert [e.message for e in errors] == [
        e.message for e in validate_document(GRAPHQL, bad, RULES)
    ] and "noSuchField" in errors[0].message
    assert memo(GRAPHQL, bad, RULES) is errors
    assert validated == [good, bad]


def test_another_document_object_or_other_rules_are_validated_anew(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    validated = counted(monkeypatch)
    memo = ValidatedDocuments(maxsize=8)
    first, second = parse(VALID), parse(VALID)  # the same text, two objects
    memo(GRAPHQL, first, RULES)
    memo(GRAPHQL, second, RULES)
    memo(GRAPHQL, first, RULES[:3])
    assert len(validated) == 3


def test_the_memo_keeps_at_most_maxsize_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    validated = counted(monkeypatch)
    memo = ValidatedDocuments(maxsize=2)
    a, b, c = (parse(VALID) for _ in range(3))
    for document in (a, b, a, c):  # c evicts b, the least recently used
        memo(GRAPHQL, document, RULES)
    memo(GRAPHQL, a, RULES)
    memo(GRAPHQL, b, RULES)
    assert validated == [a, b, c, b]
