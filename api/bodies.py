"""Reading a JSON request body into a pydantic model, with bounded memory."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import Request

from api.problems import InvalidRequest, PayloadTooLarge, UnsupportedMediaType

# Far above any expression the engine accepts; it only bounds what we hold in memory.
MAX_BODY_BYTES = 1 << 20

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


def ensure_json(request: Request, raw: bytes) -> None:
    """Refuse a body sent as another media type than JSON (415 `unsupported_media_type`):
    `application/json` or a `+json` type, or no Content-Type at all. A browser posts
    `text/plain` and form bodies to any origin without asking first (no CORS preflight),
    so taking them would let any web page write to a service that needs no API key."""
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


def parse_model(raw: bytes | str, model: type[M]) -> M:
    """Validate a JSON document against `model`, raising InvalidRequest on failure."""
    # Strict, and from the JSON text: JSON's own types only (no `true` for 1, no `0` for
    # false, no "3" for 3), which is what the contract promises. A body that passes is
    # parsed once; the rest are read again below to say why, or to take `2.0` for 2.
    if raw.strip() and not _maybe_constant(raw):
        try:
            return model.model_validate_json(raw, strict=True)
        except ValidationError:
            pass
    numbers = _Numbers()
    try:
        data = json.loads(raw, parse_float=numbers, parse_constant=_not_json) if raw.strip() else {}
    except RecursionError:
        raise InvalidRequest(
            "request body is not valid JSON",
            [{"loc": ["body"], "msg": "the JSON nests too deeply", "type": "json_invalid"}],
        ) from None
    except ValueError as exc:
        raise InvalidRequest(
            "request body is not valid JSON",
            [{"loc": ["body"], "msg": str(exc)[:200], "type": "json_invalid"}],
        ) from None
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
