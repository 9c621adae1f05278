"""GraphQL over HTTP and WebSocket: reading JSON, and refusing a request as problem+json.

Every JSON document the endpoint reads (a POST body, the `variables` of a GET, each
WebSocket message) goes through `decode_json`: JSON nested deeper than MAX_JSON_DEPTH
levels (api/bodies.py, the same limit as a REST body's), or not UTF-8, is refused like
any JSON that does not parse (a 400 on HTTP, a 4400 close on the WebSocket) — never a
RecursionError that would answer a 500 or drop the socket, wherever the interpreter's
recursion limit happens to be.

A request refused before any GraphQL runs is an RFC 9457 problem (api/problems.py) with
one of these codes: `invalid_json`, `invalid_request` (not a GraphQL request object, or a
field of the wrong type), `missing_query`, `batching_disabled`, `unsupported_media_type`,
`unknown_operation` (no operation of that name, or several and no name),
`operation_not_allowed` (a mutation over GET), and `not_found` (GET without a query
while GraphiQL is off).
"""

from __future__ import annotations

import json

from cross_web import HTTPException
from starlette.responses import Response
from strawberry.exceptions import MissingQueryError
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError

from api.bodies import TOO_DEEP, nests_too_deeply
from api.problems import problem
from services.store.model import read_json

NOT_JSON = "the request is not valid JSON"
NOT_AN_OBJECT = "a GraphQL request is a JSON object (or a list of them, for a batch)"

# Strawberry's reasons for a refusal that raises no exception of its own.
_CODES_BY_REASON: dict[str, str] = {
    "Batching is not enabled": "batching_disabled",
    "Unsupported content type": "unsupported_media_type",
}
_CODES_BY_CAUSE: tuple[tuple[type[BaseException], str], ...] = (
    (json.JSONDecodeError, "invalid_json"),
    (MissingQueryError, "missing_query"),
    (CannotGetOperationTypeError, "unknown_operation"),
    (InvalidOperationTypeError, "operation_not_allowed"),
)
_CODES_BY_STATUS: dict[int, str] = {
    400: "invalid_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
}


class SeveralOperations(CannotGetOperationTypeError):
    """A document of several operations sent without `operationName`: which to run?
    Answered as strawberry answers an unknown name (`unknown_operation`: a 400 problem
    over HTTP, a 4400 close over graphql-transport-ws), with this reason."""

    def __init__(self) -> None:
        super().__init__(None)

    def as_http_error_reason(self) -> str:
        return "the document has several operations: name the one to run in operationName"


class RefusedJson(json.JSONDecodeError):
    """JSON the service does not read (too deep, not UTF-8), refused as JSON that does
    not parse: strawberry's HTTP and WebSocket handlers already answer that."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, "", 0)


def decode_json(data: str | bytes) -> object:
    """`data` as JSON, or RefusedJson / JSONDecodeError."""
    try:
        value = read_json(data) if isinstance(data, bytes) else json.loads(data)
    except RecursionError:
        raise RefusedJson(TOO_DEEP) from None
    except UnicodeDecodeError:
        raise RefusedJson("the request is not UTF-8") from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer past Python's 4300-digit conversion limit
        raise RefusedJson("a number in the request has too many digits") from None
    if nests_too_deeply(data, value):
        raise RefusedJson(TOO_DEEP)
    return value


def request_problem(error: HTTPException) -> Response:
    """The problem+json answer to a request strawberry refused (status kept)."""
    cause = error.__cause__
    code = _code_of(error, cause)
    if isinstance(cause, RefusedJson):
        detail = cause.msg
    elif isinstance(cause, json.JSONDecodeError):
        detail = NOT_JSON
    else:
        detail = error.reason
    return problem(error.status_code, code, detail)


def _code_of(error: HTTPException, cause: BaseException | None) -> str:
    for kind, code in _CODES_BY_CAUSE:
        if isinstance(cause, kind):
            return code
    if error.reason in _CODES_BY_REASON:
        return _CODES_BY_REASON[error.reason]
    return _CODES_BY_STATUS.get(error.status_code, "http_error")
