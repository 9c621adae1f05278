"""The use-case table: one frozen row per use case, read by every transport adapter.

A row names the use case once: its REST method and path, its GraphQL field, the pydantic
request and result models, the service callable and who may call it. The REST adapter
(api/rest/usecases.py), the GraphQL field factory (api/graphql/usecases.py) and the
OpenAPI generator (api/openapi/usecases.py) read nothing else.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict

from api.tables.access import NotReady
from infra.settings import Settings
from services.slotted import quick_init

if TYPE_CHECKING:
    from api.runtime import Runtime
    from api.tables.kind import Kind
    from api.tables.tokens import RoleToken
    from services.store.aio import AsyncEventStore
    from services.store.fairrolls import FairRolls
    from services.store.revocations import Guard

GraphQLKind = Literal["query", "mutation"]
# Bad API key, body too large, body invalid (or refused by the rules), rate limited.
BODY_ERRORS = (401, 413, 422, 429)


class Result(BaseModel):
    """Base of the result models: built from the services' own JSON, never coerced."""

    model_config = ConfigDict(frozen=True, strict=True)


class Access(enum.Enum):
    """Which keys may call a use case, checked before any adapter runs (api/publishable.py).

    A publishable key ships inside a browser page or a VTT module, so every player has
    it: a row is secret unless it says it is safe in a player's hands."""

    SECRET = "secret"  # secret keys only: it creates or runs something
    PUBLISHABLE = "publishable"  # publishable keys too: rolls, odds, rules checks, reads


def publishable(*rows: UseCase) -> tuple[UseCase, ...]:
    """`rows`, each callable with a publishable key too."""
    return tuple(dataclasses.replace(row, access=Access.PUBLISHABLE) for row in rows)


@quick_init
@dataclass(frozen=True, slots=True)
class Call:
    """What a service callable may read of the request besides its model: the settings,
    the caller's tenant and, for the one use case that records something (a fair roll's
    nonce), the service's store. Everything else a service does is pure."""

    settings: Settings
    tenant: str = ""
    runtime: Runtime | None = None
    grant: RoleToken | None = None  # a table row's verified role token
    guard: Guard | None = None  # a `guarded` row's revocation check, for its append
    # The result's fields the caller selected (a compiled GraphQL document's,
    # api/graphql/compiled.py); None: all of them. A service may leave the others out.
    shown: frozenset[str] | None = None

    def shows(self, field: str) -> bool:
        """Whether the caller reads this field of the result."""
        return self.shown is None or field in self.shown

    def store(self) -> Runtime:
        """The service's runtime (its event store); NotReady without one."""
        if self.runtime is None:
            raise NotReady("the event store is not reachable")
        return self.runtime

    def async_store(self) -> AsyncEventStore:
        """The tenant's event store on the runtime's asyncio client (a table row's
        `aservice`, which serves only when the runtime has one); NotReady without."""
        found = self.store().async_store_for(self.tenant)
        if found is None:
            raise NotReady("the event store is not reachable")
        return found

    def granted(self) -> RoleToken:
        """A table row's verified grant (the adapters check it before the service runs)."""
        if self.grant is None:  # pragma: no cover - a table row always has one
            raise TypeError("not a table row")
        return self.grant

    def fair_rolls(self) -> FairRolls:
        """The tenant's record of rolled fair nonces; NotReady without a store."""
        return self.store().fair_rolls_for(self.tenant)


@quick_init
@dataclass(frozen=True, slots=True)
class Redacted:
    """A result the redaction already made JSON-ready for its viewer (a view, events):
    REST sends `data` as it is, GraphQL types it once with `typed`. The row's `result`
    model is its schema on both transports. (Not `api.rolls.Rendered`, the request
    mixin that asks for rendered dice.)"""

    data: dict[str, Any]
    typed: Callable[[dict[str, Any]], BaseModel]


def no_store(_: Any) -> dict[str, str]:
    """The headers of an answer never cached: a secret (a token, a join code), a job's state."""
    return {"Cache-Control": "no-store"}


# A service callable: the validated request (None for a row without one) and the call.
Service = Callable[[Any, Call], "BaseModel | Redacted"]
# A table row's service in the event loop, when the runtime has its asyncio store:
# `service` still serves where it has none (api/usecases/run.py).
AsyncService = Callable[[Any, Call], Awaitable["BaseModel | Redacted"]]


@dataclass(frozen=True, slots=True)
class Table:
    """A kind of table (sessions, campaigns) whose rows act with a role token.

    Its REST path names the table by `{param}` and carries the token as a bearer token;
    its GraphQL field takes `id: ID!` and `token: String!` arguments. `pattern` is the id's
    pattern; `kind` verifies the token for the table in the caller's tenant (`grant`)
    and checks it against revocations (`live`); `title` is a refused token's problem
    title."""

    param: str
    pattern: str
    kind: Kind[Any, Any]
    title: str

    @property
    def noun(self) -> str:
        """The table's name in the contract."""
        return self.kind.noun


@dataclass(frozen=True, slots=True)
class UseCase:
    """One use case, declared once.

    `name` is the OpenAPI operationId; `graphql` the root type (None: REST only) and
    `field` the GraphQL field name (snake_case, camelCased by the schema). `request` is
    None for a call without input (a GET). `access` says whether a publishable key may
    call it (`public`: a table row always may). `cpu` runs the service in the threadpool
    (or, a function of the request, for the requests it judges heavy); `concurrency`
    bounds how many run at once (process-wide). `rolls` counts a dice roll in the
    metrics. `price` is what the rate limiter spends, in tokens, before any work: a
    number, or a function of the validated request (docs/OPERATIONS.md, "Price list");
    the request itself already took one token at the door. `headers` gives a REST
    answer's headers from its result (a job's `Location`, `Cache-Control`).

    A POST or PUT takes its request from its JSON body. A GET or DELETE takes it from
    the query string, and a `{name}` in its path is the request model's field `name`
    (GraphQL: the argument). A POST or PUT row with a path parameter names its `body`
    model (the request's fields less the path's); the request is the body and the path.

    A `table` row acts with a role token for one table (sessions, campaigns): the
    adapters verify it before the price is spent, `execute` checks its revocations in
    the service's thread (or, for an `aservice`, in the event loop), and the service
    reads it as `call.granted()`. `fixed` are
    request fields the row sets itself (a GraphQL-only command's `type` tag), never
    arguments. `graphql_args` replaces the request model's fields as the GraphQL
    arguments where GraphQL spells the request its own way (a `@oneOf` command), with
    `from_graphql` turning the given arguments into the request's fields and
    `problem_field` naming a refused field as the caller spelled it. A `guarded` table
    row's one write is an append made with `call.guard`: its revocation check rides on
    the append script instead of a read of its own (api/usecases/run.py). A table row's
    `aservice` does what `service` does, awaiting the store in the event loop instead of
    blocking a thread; it serves whenever the runtime has its asyncio store.
    """

    name: str
    method: Literal["GET", "POST", "PUT", "DELETE"] | None  # None: GraphQL only
    path: str  # under /v1, e.g. "/dice/roll" or "/simulations/{id}"
    graphql: GraphQLKind | None
    field: str
    request: type[BaseModel] | None
    result: type[BaseModel]
    service: Service
    summary: str
    tag: str
    access: Access = Access.SECRET
    status: int = 200
    errors: tuple[int, ...] = BODY_ERRORS
    description: str = ""
    cpu: bool | Callable[[Any], bool] = False
    concurrency: int | None = None
    rolls: bool = False
    price: int | Callable[[Any], int] = 1
    headers: Callable[[Any], dict[str, str]] | None = None
    table: Table | None = None
    body: type[BaseModel] | None = None
    fixed: tuple[tuple[str, Any], ...] = ()
    graphql_args: tuple[tuple[str, Any, Any], ...] | None = None
    from_graphql: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    problem_field: Callable[[dict[str, Any], str], str] | None = None
    guarded: bool = False
    aservice: AsyncService | None = None

    @property
    def public(self) -> bool:
        """Whether a publishable key may call it: its `access` says so, or it is a table
        row (its role token, not the key, says what its holder may do there)."""
        return self.access is Access.PUBLISHABLE or self.table is not None

    @property
    def path_params(self) -> tuple[str, ...]:
        """The names of the path's `{parameters}` that are fields of the request model
        (a table row's own `{param}` names its table, not a field)."""
        names = re.findall(r"{(\w+)}", self.path)
        return tuple(n for n in names if self.table is None or n != self.table.param)
