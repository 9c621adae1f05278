"""Shared components: the problem+json shape and the security schemes."""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

PROBLEM: Schema = {
    "type": "object",
    "description": "RFC 9457 problem details; `code` is stable, `detail` is for humans.",
    "required": ["type", "title", "status", "detail", "code"],
    "properties": {
        "type": {"type": "string", "examples": ["urn:daedalus:problem:invalid_request"]},
        "title": {"type": "string"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string"},
        "code": {"type": "string", "examples": ["invalid_request", "syntax_error"]},
        "position": {"type": "integer", "description": "Where a dice expression went wrong."},
        "expected": {
            "type": "array",
            "items": {"type": "string"},
            "description": "What the parser expected at `position`.",
        },
        "errors": {
            "type": "array",
            "description": "The validation errors of an `invalid_request`.",
            "items": {"$ref": "#/components/schemas/ValidationIssue"},
        },
    },
}

VALIDATION_ISSUE: Schema = {
    "type": "object",
    "required": ["loc", "msg", "type"],
    "properties": {
        "loc": {"type": "array", "items": {"type": ["string", "integer"]}},
        "msg": {"type": "string"},
        "type": {"type": "string"},
    },
}

COMPONENT_SCHEMAS: dict[str, Schema] = {
    "Problem": PROBLEM,
    "ValidationIssue": VALIDATION_ISSUE,
}

ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "The dice expression has a syntax error (`syntax_error`, with `position`).",
    401: "Missing or invalid API key, or a refused session token (`invalid_token`).",
    403: "The session role may not do this (`forbidden`).",
    404: "No such session or simulation for this key.",
    409: "A conflict: a fair-roll commitment's state, the session's version, or a chart "
    "not ready yet.",
    413: "The request body is too large (`payload_too_large`).",
    415: "The request body is sent as another media type than JSON "
    "(`unsupported_media_type`): send `Content-Type: application/json`.",
    422: "The body does not match the schema (`invalid_request`), matches it but breaks a "
    "constraint its descriptions state in words (`constraint_violation`: fields that "
    "exclude each other, a count within another, dice notation), or is refused by the "
    "rules (a domain code).",
    429: "Rate limited; see the RateLimit headers.",
    503: "Try again after `Retry-After` seconds: the event store's Redis is unreachable or "
    "not answering (`store_unavailable`), or the session is too busy (`session_busy`).",
}

SECURITY_SCHEMES: Schema = {
    "ApiKey": {
        "type": "apiKey",
        "in": "header",
        "name": "X-API-Key",
        "description": "The client application's API key.",
    },
    "SessionToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A session role token (GM, player or spectator), signed and expiring.",
    },
}
