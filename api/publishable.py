"""What a publishable key may call: the operations safe in a player's hands.

A publishable key ships inside a browser page or a VTT module, so every player has it.
Each use-case row says whether it may (`access`, api/usecases/table.py): rolls, odds,
verification, the rules checks, the labyrinth presets and definitions, the join-code
exchange, and every session and campaign row, which also needs a role token (the token,
not the key, says what its holder may do there). Everything that creates or runs
something — sessions, campaigns, simulations, tunings, provably fair commitments —
needs a secret key. REST and GraphQL read the same rows, so a use case is open to such
a key on both or on neither; a new row is secret unless it says otherwise.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from strawberry.extensions import SchemaExtension
from strawberry.utils.str_converters import to_camel_case

from api.clients import SecretKeyRequired, client_state

# The table subscriptions (hand-written, api/graphql/subscriptions.py): role tokens too.
_SUBSCRIPTIONS = frozenset({"sessionEvents", "campaignEvents"})


@functools.cache
def _open() -> tuple[dict[str, re.Pattern[str]], frozenset[str]]:
    """REST's /v1 paths open to such a key, one pattern per method (a request on a
    publishable key matches one expression, not every row's), and GraphQL's root fields."""
    from api.usecases.rows import ROWS  # the rows import the API: read them on first use

    rows = [row for row in ROWS if row.public]
    paths: dict[str, list[str]] = {}
    for row in rows:
        if row.method is not None:
            parts = re.split(r"{\w+}", row.path)  # literal parts around the parameters
            paths.setdefault(row.method, []).append("[^/]+".join(map(re.escape, parts)))
    rest = {m: re.compile("/v1(?:" + "|".join(found) + ")") for m, found in paths.items()}
    fields = {to_camel_case(row.field) for row in rows if row.graphql is not None}
    return rest, frozenset({"__typename", *_SUBSCRIPTIONS, *fields})


def rest_allowed(method: str, path: str) -> bool:
    """Whether a publishable key may call `method path`."""
    pattern = _open()[0].get(method)
    return pattern is not None and pattern.fullmatch(path) is not None


def field_allowed(name: str) -> bool:
    """Whether a publishable key may select this root field."""
    return name in _open()[1]


def refused_fields(document: DocumentNode, operation_name: str | None) -> list[str]:
    """The root fields of the operation that a publishable key may not select."""
    return sorted({n for n in _selected(document, operation_name) if not field_allowed(n)})


def root_fields(document: DocumentNode, operation_name: str | None) -> list[str]:
    """The names of the operation's root fields, once per selection (aliases included),
    through fragments; `__typename` and the other meta fields left out."""
    return [n for n in _selected(document, operation_name) if not n.startswith("__")]


def _selected(document: DocumentNode, operation_name: str | None) -> list[str]:
    """Every root field name the operation selects, through its fragments."""
    operation = _operation(document, operation_name)
    if operation is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    return list(_root_fields(operation.selection_set, fragments, set()))


def _operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name is None:
        return operations[0] if len(operations) == 1 else None
    return next((o for o in operations if o.name and o.name.value == name), None)


def _root_fields(
    selections: SelectionSetNode,
    fragments: dict[str, FragmentDefinitionNode],
    seen: set[str],
) -> Iterator[str]:
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            yield selection.name.value
        elif isinstance(selection, InlineFragmentNode):
            yield from _root_fields(selection.selection_set, fragments, seen)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name in fragments and name not in seen:  # a cycle is a validation error
                seen.add(name)
                yield from _root_fields(fragments[name].selection_set, fragments, seen)


class PublishableScope(SchemaExtension):
    """Refuse, before any resolver runs, an operation a publishable key may not make.

    Listed after the validation cache: this runs on the parsed document once the cache
    has had its say, and its error stands in for validation (nothing executes).
    """

    def on_validate(self) -> Iterator[None]:
        """Check the caller's key against the operation's root fields."""
        context = self.execution_context
        document = context.graphql_document
        request = context.context.get("request") if isinstance(context.context, dict) else None
        client = client_state(request.scope) if request is not None else None
        publishable = client is not None and client.publishable
        if publishable and document is not None and not context.pre_execution_errors:
            refused = refused_fields(document, context.operation_name)
            if refused:
                message = (
                    f"a publishable key may not call {', '.join(refused)}: "
                    "use a secret key on a server (docs/API.md, 'Keys')"
                )
                error = GraphQLError(message, extensions={"code": SecretKeyRequired.code})
                context.pre_execution_errors = [error]
        yield
