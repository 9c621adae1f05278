"""GraphQL: the per-request context resolvers read their settings from."""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict, cast

import strawberry

from infra.settings import Settings


class Context(TypedDict):
    """What every resolver may use: the settings (for the secret key) and the request."""

    settings: Settings
    request: Any
    response: Any


Info: TypeAlias = strawberry.Info[Context, None]


def connection_param(info: Info, name: str) -> str | None:
    """A string the client sent in its WebSocket `connection_init` payload, if any."""
    context = cast(dict[str, Any], info.context)
    params = context.get("connection_params")
    value = params.get(name) if isinstance(params, dict) else None
    return value if isinstance(value, str) else None
