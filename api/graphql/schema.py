"""GraphQL: the root schema and the ASGI view serving it."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from typing import Any

import strawberry
from cross_web import HTTPException
from graphql import ExecutionResult, GraphQLError, OperationDefinitionNode, get_introspection_query
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaskErrors,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
    ValidationCache,
)
from strawberry.http.types import QueryParams
from strawberry.schema.config import StrawberryConfig
from strawberry.schema.name_converter import NameConverter
from strawberry.schema.schema import validate_document
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext
from strawberry.types.graphql import OperationType

from api.clients import client_state
from api.graphql import compiled, transport
from api.graphql.context import Context
from api.graphql.errors import (
    TOO_COMPLEX,
    ErrorCodes,
    MaskInternalErrors,
    ParseCache,
    coded_rule,
    report,
)
from api.graphql.generate import IMPLEMENTATIONS
from api.graphql.scalars import SCALARS
from api.graphql.simulations import SimulationSubscription
from api.graphql.subscriptions import TableSubscription
from api.graphql.usecases import root_type
from api.graphql.websockets import LegacyWSHandler, SocketCounts, TransportWSHandler
from api.problems import RateLimited
from api.publishable import PublishableScope, field_allowed, root_fields
from api.usecases.rows import ROWS
from api.usecases.run import spend_tokens
from infra import jsonbytes
from infra.settings import Settings

MAX_DEPTH = 10
MAX_ALIASES = 8
MAX_TOKENS = 2000
PARSE_CACHE = 512
# The keys of a GraphQL request a plan runs (api/graphql/compiled.py).
_PLAIN_REQUEST = frozenset({"query", "variables", "operationName", "extensions"})

# The query and mutation roots are the use-case rows; the subscriptions are written by hand.
Query = root_type("Query", ROWS, "query")
Mutation = root_type("Mutation", ROWS, "mutation")
Subscriptions = merge_types("Subscription", (TableSubscription, SimulationSubscription))


class OneOperation(ExecutionContext):
    """An operation's context that picks its operation as the GraphQL spec says
    (GetOperation): by `operationName`, or the document's only one. Strawberry's runs a
    document of several operations without a name as its first, a mutation included;
    here that is the request error `unknown_operation`, as graphql-core has it."""

    @property
    def operation_type(self) -> OperationType:
        document = self.graphql_document
        if document is not None and self._provided_operation_name is None:
            operations = (d for d in document.definitions if isinstance(d, OperationDefinitionNode))
            if next(operations, None) is not None and next(operations, None) is not None:
                raise transport.SeveralOperations
        return super().operation_type


class DaedalusSchema(strawberry.Schema):
    """The schema, logging errors without the query or its variables (api/graphql/errors.py),
    with the plans of the documents it has run (api/graphql/compiled.py)."""

    documents: compiled.Documents

    def _create_execution_context(
        self,
        query: str | None,
        allowed_operation_types: Iterable[OperationType],
        variable_values: dict[str, Any] | None = None,
        context_value: Any | None = None,
        root_value: Any | None = None,
        operation_name: str | None = None,
        operation_extensions: dict[str, Any] | None = None,
    ) -> ExecutionContext:
        return OneOperation(
            query=query,
            schema=self,
            allowed_operations=allowed_operation_types,
            context=context_value,
            root_value=root_value,
            variables=variable_values,
            provided_operation_name=operation_name,
            operation_extensions=operation_extensions,
        )

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        """Stamp each error's `extensions.code`; log bugs only, never the document.

        Strawberry's default logs every error, client errors included, with the query
        text (and so any role token written in it) at error level.
        """
        report(errors)

    def introspect(self) -> dict[str, Any]:
        """The introspection result, run asynchronously: the schema's pricing hook
        (PricedDocument) awaits the rate limiter, so the schema serves only async
        execution (`execute_sync`, which strawberry's own `introspect` uses, cannot run
        it). Call it outside a running event loop."""
        result = asyncio.run(self.execute(get_introspection_query()))
        if result.errors or not result.data:
            raise ValueError(f"Invalid Schema. Errors {result.errors!r}")
        return result.data


class RememberedNames(NameConverter):
    """Strawberry's names, each Python name camel-cased once: strawberry converts every
    argument's and input field's name again on every request (about 4% of a GraphQL
    command's CPU, bench/api.py)."""

    def __init__(self) -> None:
        super().__init__()
        self._names: dict[str, str] = {}

    def apply_naming_config(self, name: str) -> str:
        converted = self._names.get(name)
        if converted is None:
            converted = self._names[name] = super().apply_naming_config(name)
        return converted


class PricedDocument(SchemaExtension):
    """A query or mutation pays one token per root field (aliases included) before any
    resolver runs: the request's door token pays the first, this the others. A field
    with a higher price (exact odds) spends the rest as it starts. A subscription has
    one root field. Past the caller's bucket, nothing runs: the answer is one error
    coded `rate_limited` with `retryAfter` (docs/OPERATIONS.md, "Price list")."""

    async def on_execute(self) -> AsyncIterator[None]:
        """Spend the document's price, or refuse it, before execution (unless a plan
        has priced and run it: api/graphql/compiled.py); teach the schema's plans the
        document."""
        context = self.execution_context
        given = context.context if isinstance(context.context, dict) else {}
        request = given.get("request")
        document = context.graphql_document
        if compiled.RESOLVED in given:
            yield
            return
        documents: compiled.Documents | None = getattr(context.schema, "documents", None)
        if documents is not None and document is not None and context.query is not None:
            documents.learn(context.query, context.operation_name, document)
        if (
            request is not None
            and document is not None
            and getattr(request.app.state, "rate_buckets", None) is not None
            and context.operation_type is not OperationType.SUBSCRIPTION
        ):
            fields = len(root_fields(document, context.operation_name))
            try:
                await spend_document_price(request, fields)
            except RateLimited as exc:
                extensions = {"code": exc.code, "retryAfter": exc.retry_after}
                context.result = ExecutionResult(
                    None, [GraphQLError(exc.message, extensions=extensions)]
                )
        yield


async def spend_document_price(request: Any, fields: int) -> None:
    """A query's or mutation's price: a token per root field (RateLimited past the
    caller's bucket). Strawberry's path and a plan's (api/graphql/compiled.py) pay it."""
    await spend_tokens(request, fields, f"a document of {fields} root fields")


def _nested(*hooks: Callable[[Any], Iterator[None]]) -> Callable[[Any], Iterator[None]]:
    """Generator hooks run as strawberry nests those of separate extensions: started in
    order, finished in reverse."""

    def hook(self: Any) -> Iterator[None]:
        started = [each(self) for each in hooks]
        for each in started:
            next(each)
        yield
        for each in reversed(started):
            next(each, None)

    return hook


class Gate(MaskInternalErrors):
    """The schema's per-operation steps as one extension, in the order separate ones ran:
    strawberry builds a context manager per extension and hook on every operation, which
    for nine extensions cost about 35 µs (a tenth of a GraphQL roll's CPU). Limits and
    codes on validation errors, masking of bugs, the parse and validation caches, the
    publishable-key scope and the document's price (see each part's class)."""

    on_operation = _nested(
        AddValidationRules.on_operation, MaxTokensLimiter.on_operation, MaskErrors.on_operation
    )
    on_parse = ParseCache.on_parse
    on_validate = _nested(
        ErrorCodes.on_validate, ValidationCache.on_validate, PublishableScope.on_validate
    )
    on_execute = PricedDocument.on_execute

    def __init__(self, rules: tuple[Any, ...], parse: Any, validate: Any) -> None:
        super().__init__()
        self.validation_rules = rules  # read by AddValidationRules.on_operation
        self.max_token_count = MAX_TOKENS  # by MaxTokensLimiter's
        self.cached_parse_document = parse  # by ParseCache's
        self.cached_validate_document = validate  # by ValidationCache's


class _Same:
    """A cache key equal only to the object it holds: hashed by identity, not contents."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


class ValidatedDocuments:
    """`validate_document` remembered by the document object: ValidationCache's function
    without its key's cost.

    ValidationCache keys an lru_cache on (schema, document, rules), and a graphql-core
    document hashes by walking its whole tree, on every operation (12 µs for
    bench/api.py's flip mutation; a lookup here takes under 1). The parse cache hands out
    one document object per query text, so the object names the document; the cache's
    keys hold their schema and document, so neither id can be taken by another object
    while the entry lives.
    """

    def __init__(self, maxsize: int) -> None:
        self._cached = functools.lru_cache(maxsize=maxsize)(_validate)

    def __call__(self, schema: Any, document: Any, rules: Any) -> Any:
        """The errors `validate_document(schema, document, rules)` gives (made once)."""
        return self._cached(_Same(schema), _Same(document), rules)


def _validate(schema: _Same, document: _Same, rules: Any) -> Any:
    return validate_document(schema.value, document.value, rules)


def build_schema(settings: Settings) -> strawberry.Schema:
    """The schema as `settings` configure it (introspection off in production by default)."""
    return _schema(introspection=settings.introspection_on)


def _schema(introspection: bool) -> strawberry.Schema:
    # The limits' validation rules are built once: the validation cache keys on the rule
    # classes, and each limiter instance would build new ones (a miss on every request).
    # Their errors are coded `query_too_complex` (api/graphql/errors.py).
    limits = [
        coded_rule(rule, TOO_COMPLEX)
        for rule in (
            *QueryDepthLimiter(max_depth=MAX_DEPTH).validation_rules,
            *MaxAliasesLimiter(max_alias_count=MAX_ALIASES).validation_rules,
        )
    ]
    # Limits before work: a query is refused on its shape before any resolver runs (one
    # alias can cost up to a distribution's worth of CPU); introspection's rule first.
    rules = (*([] if introspection else DisableIntrospection().validation_rules), *limits)
    # Parsing and validating a small query cost several times its resolvers; clients
    # send the same few documents over and over (bounded LRUs, per process).
    parse = ParseCache(maxsize=PARSE_CACHE).cached_parse_document
    validate = ValidatedDocuments(maxsize=PARSE_CACHE)
    extensions: list[Callable[[], SchemaExtension]] = [lambda: Gate(rules, parse, validate)]
    built = DaedalusSchema(
        query=Query,
        mutation=Mutation,
        subscription=Subscriptions,
        scalar_overrides=SCALARS,
        extensions=extensions,
        types=IMPLEMENTATIONS,
        config=StrawberryConfig(name_converter=RememberedNames()),
    )
    built.documents = compiled.Documents(built, PARSE_CACHE)
    return built


# The development schema (introspection on), for in-process tests and tools.
schema = _schema(introspection=True)


class DaedalusGraphQL(GraphQL[Context, None]):
    """Strawberry's ASGI view with the service settings in the context.

    JSON is read by `transport.decode_json` (bounded depth), on HTTP and on the
    WebSocket alike; a request refused before GraphQL runs is problem+json; WebSocket
    messages are checked for shape (api/graphql/websockets.py).
    """

    graphql_transport_ws_handler_class = TransportWSHandler
    graphql_ws_handler_class = LegacyWSHandler

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(
            build_schema(settings),
            graphql_ide="graphiql" if settings.graphiql_on else None,
            max_subscriptions_per_connection=settings.ws_max_operations,
            **kwargs,
        )
        self.settings = settings
        self.sockets = SocketCounts(settings.ws_max_sockets)

    async def get_context(
        self, request: Request | WebSocket, response: Response | WebSocket
    ) -> Context:
        context: Context = {"settings": self.settings, "request": request, "response": response}
        if isinstance(request, WebSocket):
            request.scope["daedalus.sockets"] = self.sockets
        return context

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        request = Request(scope, receive=receive)
        try:
            response = await self._planned(request) if scope["method"] == "POST" else None
            if response is None:
                response = await self.run(request)
        except HTTPException as exc:  # strawberry's refusals, plain text by default
            response = transport.request_problem(exc)
        await response(scope, receive, send)

    async def _planned(self, request: Request) -> Response | None:
        """The answer to a POST of a document the schema has a plan for, or None for
        strawberry's path (api/graphql/compiled.py). A plan runs only a plain JSON request
        (one operation, no `extensions`), inside the key's scope, once its variables
        coerce and its price is paid."""
        documents: compiled.Documents = self.schema.documents  # type: ignore[attr-defined]
        media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if media != "application/json":
            return None
        try:
            data = self.decode_json(await request.body())
        except ValueError:  # strawberry says why
            return None
        if not isinstance(data, dict) or data.keys() - _PLAIN_REQUEST or data.get("extensions"):
            return None
        query, name, variables = data.get("query"), data.get("operationName"), data.get("variables")
        if not isinstance(query, str) or not isinstance(name, str | None):
            return None
        if not isinstance(variables, dict | None):
            return None
        plan = documents.plan(query, name)
        if plan is None:
            return None
        client = client_state(request.scope)
        publishable = client is not None and client.publishable
        if publishable and not all(field_allowed(n) for n in plan.names):
            return None
        if len(plan.names) > 1:
            try:
                await spend_document_price(request, len(plan.names))
            except RateLimited:
                return None  # strawberry's path prices it again, and answers the refusal
        context = await self.get_context(request, Response())
        results = await compiled.resolve_all(plan, self.schema, variables or {}, dict(context))
        if results is None:
            return None
        try:
            body: bytes | None = jsonbytes.dumps({"data": compiled.complete_all(plan, results)})
        except Exception:
            body = None
        if body is not None and not compiled.VERIFY:
            return Response(body, media_type="application/json")
        given: Any = {**context, compiled.RESOLVED: results}
        answered: Response = await self.run(request, context=given)
        if body is not None and answered.body != body:
            raise AssertionError(f"a plan answered {body!r}, strawberry {answered.body!r}")
        return answered

    def encode_json(self, data: object) -> str:
        """Every JSON document written (orjson, infra/jsonbytes.py), as text: strawberry
        sends bytes over a WebSocket as binary frames, which GraphQL clients refuse."""
        return jsonbytes.dumps(data).decode()

    def decode_json(self, data: str | bytes) -> object:
        """Every JSON document read, POST body or WebSocket message (bounded depth)."""
        return transport.decode_json(data)

    def parse_json(self, data: str | bytes) -> Any:
        """A POST body: a JSON object (or a list, for a batch), else 400."""
        value = self._parse_json_value(data)
        if not isinstance(value, dict | list):
            raise HTTPException(400, transport.NOT_AN_OBJECT)
        return value

    def parse_query_params(self, params: QueryParams) -> dict[str, Any]:
        """A GET's parameters, `variables` and `extensions` read as JSON (of any type:
        strawberry checks them afterwards, and takes `null` as absent)."""
        parsed = dict(params)
        for name in ("variables", "extensions"):
            raw = parsed.get(name)
            if isinstance(raw, str) and raw:
                parsed[name] = self._parse_json_value(raw)
        return parsed

    def _parse_json_value(self, data: str | bytes) -> Any:
        # Strawberry's BaseView.parse_json: JSON that does not parse is a 400.
        return super().parse_json(data)
