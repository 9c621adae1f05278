"""The use-case table: one frozen row per use case, read by every transport adapter.

A row names the use case once: its REST method and path, its GraphQL field, the pydantic
request and result models, the service callable and who may call it. The REST adapter
(api/rest/usecases.py), the GraphQL field factory (api/graphql/usecases.py) and the
OpenAPI generator (api/openapi/usecases.py) read nothing else.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from api.sessions.access import NotReady
from infra.settings import Settings

if TYPE_CHECKING:
    from api.runtime import Runtime
    from services.store.fairrolls import FairRolls

GraphQLKind = Literal["query", "mutation"]


class Result(BaseModel):
    """Base of the result models: built from the services' own JSON, never coerced."""

    model_config = ConfigDict(frozen=True, strict=True)


class Access(enum.Enum):
    """Who may call a use case (the middleware checks the key before any adapter runs)."""

    # Any caller the API-key middleware let through (every key, or none in development).
    CLIENT = "client"


@dataclass(frozen=True, slots=True)
class Call:
    """What a service callable may read of the request besides its model: the settings,
    the caller's tenant and, for the one use case that records something (a fair roll's
    nonce), the service's store. Everything else a service does is pure."""

    settings: Settings
    tenant: str = ""
    runtime: Runtime | None = None

    def fair_rolls(self) -> FairRolls:
        """The tenant's record of rolled fair nonces; NotReady without a store."""
        if self.runtime is None:
            raise NotReady("the store is not reachable")
        return self.runtime.fair_rolls_for(self.tenant)


# A service callable: the validated request (None for a row without one) and the call.
Service = Callable[[Any, Call], BaseModel]


@dataclass(frozen=True, slots=True)
class UseCase:
    """One use case, declared once.

    `name` is the OpenAPI operationId; `graphql` the root type (None: REST only) and
    `field` the GraphQL field name (snake_case, camelCased by the schema). `request` is
    None for a call without input (a GET). `cpu` runs the service in the threadpool
    (or, a function of the request, for the requests it judges heavy); `concurrency`
    bounds how many run at once (process-wide). `rolls` counts a dice roll in the
    metrics. `price` is what the rate limiter spends, in tokens, before any work: a
    number, or a function of the validated request (docs/OPERATIONS.md, "Price list");
    the request itself already took one token at the door. `headers` gives a REST
    answer's headers from its result (a job's `Location`, `Cache-Control`).

    A POST or PUT takes its request from its JSON body. A GET or DELETE takes it from
    the query string, and a `{name}` in its path is the request model's field `name`
    (GraphQL: the argument); a POST or PUT row with a path parameter is refused.
    """

    name: str
    method: Literal["GET", "POST", "PUT", "DELETE"]
    path: str  # under /v1, e.g. "/dice/roll" or "/simulations/{id}"
    graphql: GraphQLKind | None
    field: str
    request: type[BaseModel] | None
    result: type[BaseModel]
    service: Service
    summary: str
    tag: str
    access: Access = Access.CLIENT
    status: int = 200
    errors: tuple[int, ...] = (401, 413, 422, 429)
    description: str = ""
    cpu: bool | Callable[[Any], bool] = False
    concurrency: int | None = None
    rolls: bool = False
    price: int | Callable[[Any], int] = 1
    headers: Callable[[Any], dict[str, str]] | None = None

    @property
    def path_params(self) -> tuple[str, ...]:
        """The names of the path's `{parameters}` (fields of the request model)."""
        return tuple(re.findall(r"{(\w+)}", self.path))
