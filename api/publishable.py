"""What a publishable key may call: the operations safe in a player's hands.

A publishable key ships inside a browser page or a VTT module, so every player has it.
It may roll, ask the odds, verify, run the rules checks, read the labyrinth presets and
use the session and campaign routes that also need a role token (the token, not the
key, says what its holder may do there). Everything that creates or runs something —
sessions, campaigns, simulations, tunings, provably fair commitments — needs a secret
key. A route or field not listed here is refused to a publishable key: a new operation
is secret until someone decides otherwise.
"""

from __future__ import annotations

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

from api.clients import SecretKeyRequired, client_state

# REST, under /v1: (method, path pattern).
_REST: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (method, re.compile(pattern))
    for method, pattern in (
        ("POST", r"/v1/dice/(roll|probability|verify)"),
        ("POST", r"/v1/join"),  # a player exchanges a join code for a seat's token
        ("POST", r"/v1/(maze|mazerats|haze)/[a-z0-9/-]+"),
        ("GET", r"/v1/(maze|mazerats|haze)/[a-z0-9/-]+"),
        ("GET", r"/v1/(mazes|labyrinths)/presets"),
        ("POST", r"/v1/(mazes|labyrinths)/validate"),
        # A session's or a campaign's own routes: each needs a role token as well.
        ("GET", r"/v1/(sessions|campaigns)/[^/]+(/[a-z/_{}-]+)?"),
        ("POST", r"/v1/(sessions|campaigns)/[^/]+/[a-z0-9/_-]+"),
        ("PUT", r"/v1/campaigns/[^/]+/[a-z0-9/_-]+"),
        ("DELETE", r"/v1/campaigns/[^/]+/[a-z0-9/_-]+"),
    )
)

# GraphQL root fields, by name (the schema's camelCase) or prefix.
_FIELDS = frozenset(
    {
        "__typename",
        "roll",
        "probability",
        "verifyRoll",
        "validateLabyrinthDefinition",
        "session",
        "sessionEvents",
        "sendCommand",
        "joinTable",
        "issueSessionToken",
        "overrideMember",
        "overrideTurn",
        "revealRiverCard",
        "moveRiverCard",
        "overrideScore",
        "overrideActions",
        "overrideTrap",
        "campaign",
        "campaignEvents",
        "campaignTicks",
        "issueCampaignToken",
        "addCampaignRunner",
        "removeCampaignRunner",
        "chooseCampaignActivity",
        "startCampaignRun",
        "endCampaignRun",
        "adjustCampaign",
        "setCampaignCadence",
        "advanceCampaign",
        "endCampaign",
    }
)
# The rules systems' fields (`mazeCheck`, `mazeRatsSave`, `hazeAction`, …) and the
# labyrinth presets: pure checks and reads.
_PREFIXES = ("maze", "haze", "labyrinth")


def rest_allowed(method: str, path: str) -> bool:
    """Whether a publishable key may call `method path`."""
    return any(m == method and p.fullmatch(path) for m, p in _REST)


def field_allowed(name: str) -> bool:
    """Whether a publishable key may select this root field."""
    return name in _FIELDS or name.startswith(_PREFIXES)


def refused_fields(document: DocumentNode, operation_name: str | None) -> list[str]:
    """The root fields of the operation that a publishable key may not select."""
    operation = _operation(document, operation_name)
    if operation is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    return sorted(
        {n for n in _root_fields(operation.selection_set, fragments, set()) if not field_allowed(n)}
    )


def root_fields(document: DocumentNode, operation_name: str | None) -> list[str]:
    """The names of the operation's root fields, once per selection (aliases included),
    through fragments; `__typename` and the other meta fields left out."""
    operation = _operation(document, operation_name)
    if operation is None:
        return []
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    names = _root_fields(operation.selection_set, fragments, set())
    return [n for n in names if not n.startswith("__")]


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
