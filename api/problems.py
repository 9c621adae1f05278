"""RFC 9457 problem details: every error a client sees, REST side."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from services.errors import DomainError

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_TYPE_PREFIX = "urn:daedalus:problem:"

# Stable human titles per code; the detail carries the specific message. A dice error
# whose specific code is not listed takes the title of its family (its class's code).
TITLES: dict[str, str] = {
    "dice_error": "Dice request refused",
    "syntax_error": "Dice expression has a syntax error",
    "limit_exceeded": "Dice expression exceeds the limits",
    "invalid_dice": "Dice expression is meaningless",
    "evaluation_error": "Dice expression could not be evaluated",
    "distribution_unsupported": "No exact distribution for this expression",
    "invalid_commitment": "Unknown or forged commitment",
    "commitment_expired": "Commitment has expired",
    "nonce_used": "Nonce rolled already",
    "seed_not_allowed": "Seeded sessions are off",
    "commitment_exhausted": "Commitment has rolled its budget",
    "commitment_active": "Commitment is still active",
    "invalid_request": "Request is invalid",
    "constraint_violation": "Request breaks a stated constraint",
    "payload_too_large": "Request body is too large",
    "not_found": "Not found",
    "method_not_allowed": "Method not allowed",
    "internal_error": "Internal server error",
    "not_ready": "Service not ready",
    "store_unavailable": "Event store unavailable",
    "session_busy": "Session busy",
    # POST/GET /graphql, refused before any GraphQL runs (api/graphql/transport.py).
    "invalid_json": "Request is not valid JSON",
    "missing_query": "No GraphQL query in the request",
    "batching_disabled": "GraphQL batching is not enabled",
    "unsupported_media_type": "Unsupported content type",
    "unknown_operation": "No such GraphQL operation",
    "operation_not_allowed": "Operation not allowed with this method",
}

STORE_UNAVAILABLE = "store_unavailable"

_CODES_BY_STATUS: dict[int, str] = {
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    422: "invalid_request",
}


# A union member in a pydantic error's location: a model's name or a tagged union's.
_BRANCH = re.compile(r"^[A-Z][a-z]\w*$|\[")


def _ours(errors: list[dict[str, Any]]) -> bool:
    return all(e.get("type") == "value_error" for e in errors)


def invalid_request_code(errors: list[dict[str, Any]]) -> str:
    """`constraint_violation` when the errors are ones validators of ours raised (pydantic
    type `value_error`): the body matches the contract's schema, and breaks a constraint
    its descriptions state in words (two fields that exclude each other, a count within
    another, dice notation inside a string); else `invalid_request`, the body does not
    match the schema. Where a value fits none of a union's members, pydantic reports each
    member's errors: it is a constraint violation when one member's errors are all ours
    (the value has that member's shape)."""
    plain: list[dict[str, Any]] = []
    unions: dict[tuple[Any, ...], dict[str, list[dict[str, Any]]]] = {}
    # Every location some error lies within (linear in the errors, however many).
    within = {tuple(e.get("loc", ()))[:n] for e in errors for n in range(len(e.get("loc", ())))}
    for error in errors:
        if error.get("type") == "too_short" and tuple(error.get("loc", ())) in within:
            continue  # a list counted without its refused items: those are the errors
        loc = list(error.get("loc", ()))
        at = next((i for i, p in enumerate(loc) if isinstance(p, str) and _BRANCH.search(p)), None)
        if at is None:
            plain.append(error)
        else:
            unions.setdefault(tuple(loc[:at]), {}).setdefault(loc[at], []).append(error)
    shaped = all(any(_ours(member) for member in union.values()) for union in unions.values())
    if errors and _ours(plain) and shaped:
        return "constraint_violation"
    return "invalid_request"


class InvalidRequest(Exception):
    """The request body is not JSON or does not match the endpoint's model."""

    def __init__(self, detail: str, errors: list[dict[str, Any]]) -> None:
        super().__init__(detail)
        self.detail = detail
        self.errors = errors

    @property
    def code(self) -> str:
        """`invalid_request` or `constraint_violation` (see `invalid_request_code`)."""
        return invalid_request_code(self.errors)


class UnsupportedMediaType(Exception):
    """A request body sent as another media type than JSON."""

    def __init__(self, media_type: str) -> None:
        super().__init__(
            f"the request body is sent as {media_type[:100]!r}: send JSON as application/json"
        )


class PayloadTooLarge(Exception):
    """The request body is larger than the service accepts."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"request body exceeds {limit} bytes")
        self.limit = limit


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    title: str | None = None,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """A problem+json response with the house fields: type, title, status, detail, code."""
    body: dict[str, Any] = {
        "type": PROBLEM_TYPE_PREFIX + code,
        "title": title or TITLES.get(code) or HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
    }
    body.update({k: v for k, v in extra.items() if v is not None})
    return JSONResponse(body, status_code=status, headers=headers, media_type=PROBLEM_MEDIA_TYPE)


def domain_title(error: DomainError) -> str:
    """The title of a domain error: by its own code, else by its family's."""
    own: str | None = getattr(error, "title", None)
    if own:
        return own
    candidates = [error.code] + [getattr(cls, "code", "") for cls in type(error).__mro__]
    found = [TITLES[code] for code in candidates if code in TITLES]
    return found[0] if found else "Request refused"


class RateLimited(DomainError):
    """The caller's bucket cannot pay an operation's price now (429, Retry-After)."""

    code = "rate_limited"
    http_status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def retry_after(error: Exception) -> dict[str, str] | None:
    """The Retry-After header of an error that says when to try again (busy, unavailable)."""
    seconds = getattr(error, "retry_after", None)
    return None if seconds is None else {"Retry-After": str(seconds)}


def domain_problem(error: DomainError) -> JSONResponse:
    """Translate a domain error at the boundary, keeping its position and expectations."""
    return problem(
        error.http_status,
        error.code,
        error.message,
        title=domain_title(error),
        headers=retry_after(error),
        position=error.position,
        expected=error.expected,
        **getattr(error, "problem_fields", {}),
    )


async def handle_domain_error(request: Request, exc: Exception) -> Response:
    """Exception handler for DomainError (DiceError, MazeError, ...) and subclasses."""
    assert isinstance(exc, DomainError)
    return domain_problem(exc)


async def handle_invalid_request(request: Request, exc: Exception) -> Response:
    """Exception handler for bodies that are not JSON or fail validation."""
    assert isinstance(exc, InvalidRequest)
    return problem(422, exc.code, exc.detail, errors=exc.errors)


async def handle_payload_too_large(request: Request, exc: Exception) -> Response:
    """Exception handler for oversized bodies."""
    assert isinstance(exc, PayloadTooLarge)
    return problem(413, "payload_too_large", str(exc))


async def handle_unsupported_media_type(request: Request, exc: Exception) -> Response:
    """Exception handler for a body that is not sent as JSON."""
    assert isinstance(exc, UnsupportedMediaType)
    return problem(415, "unsupported_media_type", str(exc))


async def handle_http_exception(request: Request, exc: Exception) -> Response:
    """Exception handler for Starlette's routing errors (404, 405, ...)."""
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    code = _CODES_BY_STATUS.get(status, "http_error")
    if status == 404:
        detail = f"no route for {request.method} {request.url.path}"
    else:
        detail = exc.detail if isinstance(exc.detail, str) else HTTPStatus(status).phrase
    return problem(status, code, detail, headers=dict(exc.headers) if exc.headers else None)


async def handle_store_unavailable(request: Request, exc: Exception) -> Response:
    """Exception handler for an unreachable or stalled Redis: 503, try again shortly.

    Logged once per outage by the client (services/store/client.py), not per request.
    """
    headers = retry_after(exc) or {"Retry-After": "1"}
    detail = "The event store is unreachable or not answering; retry shortly."
    return problem(503, STORE_UNAVAILABLE, detail, headers=headers)


async def handle_internal_error(request: Request, exc: Exception) -> Response:
    """Last resort: tell the client nothing about the bug (Starlette re-raises it to the log)."""
    return problem(500, "internal_error", "The server hit an unexpected error.")
