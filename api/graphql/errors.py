"""GraphQL: a stable `extensions.code` on every error, and how errors are logged.

A GraphQL error is either the caller's (the document does not parse, does not validate,
gives an argument a value of the wrong type, or is over the size limits) or a bug (an
exception escaping a resolver: user errors are `Problem` union members). Each carries
one code in `extensions.code`:

* `graphql_parse_failed`: the document is not GraphQL;
* `graphql_validation_failed`: it does not validate against the schema;
* `invalid_argument`: an argument or variable value is missing or of the wrong type;
* `query_too_complex`: over the token, nesting, depth or alias limits;
* `introspection_disabled`: introspection asked for where it is turned off;
* `unknown_operation`: no operation of the `operationName` given, or several and none
  named; over HTTP a 400 problem (api/graphql/transport.py), over graphql-transport-ws a
  4400 close, and coded here so that it is never masked as a bug;
* `operation_not_allowed`: an operation the transport does not run (a query or a
  mutation over the legacy graphql-ws, which runs subscriptions only);
* `store_unavailable`: Redis is unreachable or stalled; retry shortly (subscriptions:
  subscribe again after the last version received). Logged once per outage, not here;
* `internal_error`: a bug, masked as "Internal error." (logged with its traceback);
* a domain error's own code, if one escapes a resolver (its message is kept).

Nothing here logs the document or its variables (they may hold role tokens): a caller's
error is logged at debug level by its code alone; a bug at error level with its path
and traceback.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable, Iterator
from typing import Any, cast

from graphql import GraphQLError, GraphQLSyntaxError, VariableDefinitionNode
from graphql.validation import (
    ASTValidationContext,
    ASTValidationRule,
    MaxIntrospectionDepthRule,
    NoSchemaIntrospectionCustomRule,
    ProvidedRequiredArgumentsRule,
    ValuesOfCorrectTypeRule,
)
from strawberry.exceptions import StrawberryInputCoercionError
from strawberry.extensions import MaskErrors, ParserCache, SchemaExtension
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError

from services.errors import DomainError
from services.store.client import UNREACHABLE

log = logging.getLogger("daedalus.graphql")

PARSE_FAILED = "graphql_parse_failed"
VALIDATION_FAILED = "graphql_validation_failed"
INVALID_ARGUMENT = "invalid_argument"
TOO_COMPLEX = "query_too_complex"
INTROSPECTION_DISABLED = "introspection_disabled"
INTERNAL_ERROR = "internal_error"
UNKNOWN_OPERATION = "unknown_operation"
OPERATION_NOT_ALLOWED = "operation_not_allowed"
STORE_UNAVAILABLE = "store_unavailable"
MASKED_MESSAGE = "Internal error."

# graphql-core reports its parser limits as syntax errors; these say which ones they are.
_PARSER_LIMITS = ("Document contains more than", "Document is nested too deeply")

# Validation rules whose errors have a code of their own (any other rule's is
# `graphql_validation_failed`). The service's own limits are coded where they are built.
_RULE_CODES: dict[type[ASTValidationRule], str] = {
    ValuesOfCorrectTypeRule: INVALID_ARGUMENT,
    ProvidedRequiredArgumentsRule: INVALID_ARGUMENT,
    MaxIntrospectionDepthRule: TOO_COMPLEX,
    NoSchemaIntrospectionCustomRule: INTROSPECTION_DISABLED,
}


def code_of(error: GraphQLError) -> str | None:
    """The code `error` carries in `extensions.code`, if any."""
    code = (error.extensions or {}).get("code")
    return code if isinstance(code, str) else None


def set_code(error: GraphQLError, code: str) -> None:
    """Give `error` `code`, unless it has one (a fresh dict: extensions may be shared)."""
    if code_of(error) is None:
        error.extensions = {**(error.extensions or {}), "code": code}


def classify(error: GraphQLError) -> str:
    """The code of `error`: its own, else by what it is (see the module docstring)."""
    own = code_of(error)
    if own is not None:
        return own
    original = error.original_error
    if isinstance(original, DomainError):
        return original.code
    if isinstance(original, UNREACHABLE):
        return STORE_UNAVAILABLE
    if isinstance(original, CannotGetOperationTypeError):
        return UNKNOWN_OPERATION
    if isinstance(original, InvalidOperationTypeError):
        return OPERATION_NOT_ALLOWED
    if isinstance(error, GraphQLSyntaxError):
        limit = any(prefix in error.message for prefix in _PARSER_LIMITS)
        return TOO_COMPLEX if limit else PARSE_FAILED
    if original is not None and not isinstance(original, GraphQLError):
        return INTERNAL_ERROR
    if error.path is not None:
        return INTERNAL_ERROR  # raised while resolving a field: the server's fault
    if any(isinstance(node, VariableDefinitionNode) for node in error.nodes or ()):
        return INVALID_ARGUMENT  # a variable's value refused before execution
    if isinstance(error, StrawberryInputCoercionError):
        return INVALID_ARGUMENT  # refused by its input type (a `@oneOf` without one key)
    return VALIDATION_FAILED


def is_client_error(error: GraphQLError) -> bool:
    """True for the caller's errors: everything but a bug."""
    return classify(error) != INTERNAL_ERROR


def is_unexpected(error: GraphQLError) -> bool:
    """True for an exception escaping a resolver: masked, since it may say anything."""
    original = error.original_error
    return (
        not is_client_error(error)
        and original is not None
        and not isinstance(original, GraphQLError)
    )


def report(errors: Iterable[GraphQLError]) -> None:
    """Stamp each error's code and log it, never with the document or variables."""
    for error in errors:
        code = classify(error)
        set_code(error, code)
        if isinstance(error.original_error, InvalidOperationTypeError):  # its str() is the type
            error.message = error.original_error.as_http_error_reason("this protocol")
        if code != INTERNAL_ERROR:
            log.debug("GraphQL request refused: %s", code)
            continue
        where = ".".join(str(key) for key in error.path or ()) or "<operation>"
        original = error.original_error
        if original is not None and not isinstance(original, GraphQLError):
            # The traceback is the resolver's; str(GraphQLError) would print the query.
            log.error("GraphQL internal error in %s", where, exc_info=original)
        else:
            log.error("GraphQL internal error in %s: %s", where, error.message)


class _CodingContext:
    """A validation context that stamps a code on each error reported through it."""

    def __init__(self, context: ASTValidationContext, code: str) -> None:
        self._context = context
        self._code = code

    def report_error(self, error: GraphQLError) -> None:
        set_code(error, self._code)
        self._context.report_error(error)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._context, name)


_CODED: dict[tuple[type[ASTValidationRule], str], type[ASTValidationRule]] = {}


def coded_rule(rule: type[ASTValidationRule], code: str) -> type[ASTValidationRule]:
    """`rule`, its errors stamped with `code` (one class per pair: the validation cache
    keys on the rule classes)."""
    coded = _CODED.get((rule, code))
    if coded is None:

        def __init__(self: ASTValidationRule, context: ASTValidationContext) -> None:
            rule.__init__(self, cast(ASTValidationContext, _CodingContext(context, code)))

        namespace = {"__init__": __init__, "__module__": __name__}
        coded = _CODED[rule, code] = type(rule.__name__, (rule,), namespace)
    return coded


@functools.cache
def _coded_rules(
    rules: tuple[type[ASTValidationRule], ...],
) -> tuple[type[ASTValidationRule], ...]:
    return tuple(coded_rule(r, _RULE_CODES[r]) if r in _RULE_CODES else r for r in rules)


class ErrorCodes(SchemaExtension):
    """Codes on validation errors: by rule where a rule has its own, else
    `graphql_validation_failed`. Listed after the extensions that add validation rules
    and before the validation cache (whose cached errors keep their codes)."""

    def on_validate(self) -> Iterator[None]:
        """Swap in the coded rules, then code whatever the others reported."""
        context = self.execution_context
        context.validation_rules = _coded_rules(tuple(context.validation_rules))
        yield
        for error in context.pre_execution_errors or ():
            set_code(error, VALIDATION_FAILED)


class MaskInternalErrors(MaskErrors):
    """Strawberry's MaskErrors for bugs only, the masked error coded `internal_error`."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=is_unexpected, error_message=MASKED_MESSAGE)

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        """The masked error, still coded."""
        masked = super().anonymise_error(error)
        masked.extensions = {"code": INTERNAL_ERROR}
        return masked

    def _process_result(self, result: object) -> None:
        # Strawberry's checks the result against a runtime Protocol, which costs about
        # 30 µs on every operation (bench/request_path.py); an `errors` attribute is all
        # that check looks for.
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = self._process_errors(errors)  # type: ignore[attr-defined]


class ParseCache(ParserCache):
    """Strawberry's ParserCache, leaving a document that does not parse to strawberry.

    ParserCache parses in its hook, outside the code that turns a syntax error into the
    query's error: over the WebSocket, the error escaped the operation (the client got
    `complete`, and the log the query text). Left unparsed, strawberry parses it again
    where it reports the error (so `graphql_parse_failed` or `query_too_complex`).
    """

    def on_parse(self) -> Iterator[None]:
        """Parse through the cache; on a syntax error, leave the document unset."""
        context = self.execution_context
        try:
            context.graphql_document = self.cached_parse_document(
                context.query, **context.parse_options
            )
        except GraphQLError:
            context.graphql_document = None
        yield
