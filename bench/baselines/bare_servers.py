"""The bare servers bench/request_path.py measures the service against: the same roll,
through the same request model, service function and result model, with nothing else.

No `from __future__ import annotations` here: strawberry resolves these local types'
annotations as objects.
"""

from typing import Annotated, Any

import strawberry
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from strawberry.asgi import GraphQL
from strawberry.extensions import ParserCache, ValidationCache

from api.models import RollRequest
from api.usecases.dice import roll_dice


def starlette_app() -> Starlette:
    """`POST /v1/dice/roll`: validate the body, roll through the service, answer its JSON."""

    async def roll(request: Request) -> JSONResponse:
        body = RollRequest.model_validate(await request.json())
        result = roll_dice(body, None)  # type: ignore[arg-type]  # a roll reads no call
        return JSONResponse(result.model_dump(mode="json", exclude_none=True))

    return Starlette(routes=[Route("/v1/dice/roll", roll, methods=["POST"])])


@strawberry.type
class RollResult:
    total: int


@strawberry.type
class Problem:
    code: str


@strawberry.type
class Query:
    @strawberry.field
    def roll(
        self, expression: str
    ) -> Annotated[RollResult | Problem, strawberry.union("RollPayload")]:
        rolled = roll_dice(RollRequest(expression=expression), None)  # type: ignore[arg-type]
        return RollResult(total=rolled.total)


def strawberry_app() -> Any:
    """`/graphql` with one field, strawberry's parse and validation caches, no IDE."""
    schema = strawberry.Schema(
        query=Query,
        extensions=[lambda: ParserCache(maxsize=512), lambda: ValidationCache(maxsize=512)],
    )
    return GraphQL(schema, graphql_ide=None)
