"""GraphQL: the root schema and the ASGI view serving it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import strawberry
from graphql import GraphQLError
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    ParserCache,
    QueryDepthLimiter,
    SchemaExtension,
    ValidationCache,
)
from strawberry.tools import merge_types

from api.graphql.campaigns import CampaignMutation, CampaignQuery, CampaignSubscription
from api.graphql.context import Context
from api.graphql.haze import HazeQuery
from api.graphql.maze import MazeQuery
from api.graphql.mazerats import MazeRatsQuery
from api.graphql.mazes import MazeDefinitionQuery
from api.graphql.mutation import Mutation as DiceMutation
from api.graphql.query import DiceQuery
from api.graphql.scalars import SCALARS
from api.graphql.sessions import SessionMutation, SessionQuery, Subscription
from api.graphql.simulations import SimulationMutation, SimulationQuery, SimulationSubscription
from api.settings import Settings


def _is_unexpected(error: GraphQLError) -> bool:
    # Query syntax/validation errors are the caller's and stay readable; an exception
    # escaping a resolver is a bug (user errors are union members) and is masked.
    original = error.original_error
    return original is not None and not isinstance(original, GraphQLError)


MAX_DEPTH = 10
MAX_ALIASES = 8
MAX_TOKENS = 2000
PARSE_CACHE = 512

# One root type, assembled from each area's queries (each in its own package).
Query = merge_types(
    "Query",
    (
        DiceQuery,
        MazeQuery,
        MazeRatsQuery,
        HazeQuery,
        SessionQuery,
        CampaignQuery,
        SimulationQuery,
        MazeDefinitionQuery,
    ),
)
Mutation = merge_types(
    "Mutation", (DiceMutation, SessionMutation, CampaignMutation, SimulationMutation)
)
Subscriptions = merge_types(
    "Subscription", (Subscription, CampaignSubscription, SimulationSubscription)
)


def build_schema(settings: Settings) -> strawberry.Schema:
    """The schema as `settings` configure it (introspection off in production by default)."""
    return _schema(introspection=settings.introspection_on)


def _schema(introspection: bool) -> strawberry.Schema:
    # The limits' validation rules are built once: ValidationCache keys on the rule
    # classes, and each limiter instance would build new ones (a miss on every request).
    limits = [
        *QueryDepthLimiter(max_depth=MAX_DEPTH).validation_rules,
        *MaxAliasesLimiter(max_alias_count=MAX_ALIASES).validation_rules,
    ]
    extensions: list[type[SchemaExtension] | Callable[[], SchemaExtension]] = [
        # Limits before work: a query is refused on its shape before any resolver runs
        # (one alias can cost up to a distribution's worth of CPU).
        lambda: AddValidationRules(limits),
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: MaskErrors(should_mask_error=_is_unexpected, error_message="Internal error."),
        # Parsing and validating a small query cost several times its resolvers; clients
        # send the same few documents over and over (bounded LRUs, per process).
        lambda: ParserCache(maxsize=PARSE_CACHE),
        lambda: ValidationCache(maxsize=PARSE_CACHE),
    ]
    if not introspection:
        extensions.insert(0, DisableIntrospection)
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscriptions,
        scalar_overrides=SCALARS,
        extensions=extensions,
    )


# The development schema (introspection on), for in-process tests and tools.
schema = _schema(introspection=True)


class DaedalusGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI view with the service settings in the context."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(
            build_schema(settings),
            graphql_ide="graphiql" if settings.graphiql_on else None,
            **kwargs,
        )
        self.settings = settings

    async def get_context(
        self, request: Request | WebSocket, response: Response | WebSocket
    ) -> Context:
        return {"settings": self.settings, "request": request, "response": response}
