"""GraphQL: the per-request context resolvers read their settings from."""

from __future__ import annotations

from typing import Any, TypeAlias, TypedDict

import strawberry

from api.settings import Settings


class Context(TypedDict):
    """What every resolver may use: the settings (for the secret key) and the request."""

    settings: Settings
    request: Any
    response: Any


Info: TypeAlias = strawberry.Info[Context, None]
