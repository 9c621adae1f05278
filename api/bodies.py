"""Reading a JSON request body into a pydantic model, with bounded memory."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from api.problems import InvalidRequest, PayloadTooLarge, UnsupportedMediaType

# Far above any expression the engine accepts; it only bounds what we hold in memory.
MAX_BODY_BYTES = 1 << 20
# Far deeper than any request the API takes (a maze definition, in a REST body or in
# GraphQL variables, is under ten levels), far shallower than any recursion limit.
MAX_JSON_DEPTH = 64
TOO_DEEP = f"the request's JSON nests deeper than {MAX_JSON_DEPTH} levels"

M = TypeVar("M", bound=BaseModel)


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes:
    """The raw body, refused once it grows past `limit` bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(limit)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise PayloadTooLarge(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def nests_too_deeply(text: str | bytes, value: object) -> bool:
    """Whether `value`, decoded from `text`, nests deeper than MAX_JSON_DEPTH levels."""
    return _openings(text) > MAX_JSON_DEPTH and _deeper_than(value, MAX_JSON_DEPTH)


def _openings(data: str | bytes) -> int:
    """How many `{` and `[` the text holds (within strings too): no document nests
    deeper, so most are known shallow without walking what they decode to."""
    if isinstance(data, bytes):
        return data.count(b"{") + data.count(b"[")
    return data.count("{") + data.count("[")


def _deeper_than(value: object, limit: int) -> bool:
    """True when containers nest more than `limit` levels (breadth first, no recursion)."""
    level: list[dict[Any, Any] | list[Any]] = [value] if isinstance(value, dict | list) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below: list[dict[Any, Any] | list[Any]] = []
        for item in level:
            children = item.values() if isinstance(item, dict) else item
            below.extend(child for child in children if isinstance(child, dict | list))
        level = below
    return False


def ensure_json(request: Request, raw: bytes) -> None:
    """Refuse a body sent as another media type than JSON (415 `unsupported_media_type`):
    `application/json` or an `application/...+json` type, or no Content-Type at all; an
    empty body needs none. (A page on another site posting a form or `text/plain` is
    refused before this, by its `Origin`: api/middleware/api_keys.py.)"""
    declared = request.headers.get("content-type")
    if declared is None or not raw.strip():
        return
    media_type = declared.partition(";")[0].strip().lower()
    if media_type != "application/json" and not (
        media_type.startswith("application/") and media_type.endswith("+json")
    ):
        raise UnsupportedMediaType(declared)


def validation_errors(error: ValidationError) -> list[dict[str, Any]]:
    """Pydantic's errors as JSON, without echoing the input back."""
    return [
        {"loc": list(e["loc"]), "msg": e["msg"], "type": e["type"]}
        for e in error.errors(include_url=False, include_context=False, include_input=False)
    ]


class _Numbers:
    """json.loads' float parser that notes a number written with a fraction or exponent
    but integral (`2.0`, `1e3`): JSON Schema counts it as an integer, pydantic's strict
    mode does not."""

    def __init__(self) -> None:
        self.integral = False

    def __call__(self, text: str) -> float | int:
        value = float(text)
        if value.is_integer() and abs(value) < 2**63:
            self.integral = True
            return int(value)
        return value


def _not_json(constant: str) -> None:
    """json.loads' reader of `NaN`, `Infinity` and `-Infinity`: none of them is JSON."""
    raise ValueError(f"{constant} is not a JSON value")


def _maybe_constant(raw: bytes | str) -> bool:
    """Whether the text may hold `NaN` or `Infinity` outside a string (pydantic's JSON
    reader takes them as numbers): such a body is read by json.loads, which refuses them."""
    if isinstance(raw, bytes):
        return b"NaN" in raw or b"Infinity" in raw
    return "NaN" in raw or "Infinity" in raw


def _invalid_json(why: str) -> InvalidRequest:
    return InvalidRequest(
        "request body is not valid JSON", [{"loc": ["body"], "msg": why, "type": "json_invalid"}]
    )


def parse_model(raw: bytes | str, model: type[M]) -> M:
    """Validate a JSON document against `model`, raising InvalidRequest on failure."""
    # Strict, and from the JSON text: JSON's own types only (no `true` for 1, no `0` for
    # false, no "3" for 3), which is what the contract promises. A body that passes is
    # parsed once; the rest are read again below to say why, or to take `2.0` for 2.
    if raw.strip() and not _maybe_constant(raw) and _openings(raw) <= MAX_JSON_DEPTH:
        try:
            return model.model_validate_json(raw, strict=True)
        except ValidationError:
            pass
    numbers = _Numbers()
    try:
        data = json.loads(raw, parse_float=numbers, parse_constant=_not_json) if raw.strip() else {}
    except RecursionError:
        raise _invalid_json(TOO_DEEP) from None
    except ValueError as exc:
        raise _invalid_json(str(exc)[:200]) from None
    if nests_too_deeply(raw, data):  # as a GraphQL body's (api/graphql/transport.py)
        raise _invalid_json(TOO_DEEP)
    try:
        if data == {} and not raw.strip():
            return model.model_validate({})
        if numbers.integral:  # `2.0` for an integer field, as the contract allows
            raw = json.dumps(data)
        return model.model_validate_json(raw, strict=True)
    except ValidationError as exc:
        raise InvalidRequest(
            f"request body does not match {model.__name__}", validation_errors(exc)
        ) from None
