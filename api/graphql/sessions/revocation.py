"""GraphQL: TokenRevocation, what a GM's revocation covered (and the GM's fresh token)."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.type(description="A role token just issued (a secret), its id and its expiry.")
class IssuedToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")


@strawberry.type(
    description="The scope revoked (`token:<id>`, `member:<id>`, `role:<role>` or `all`); "
    "when it covers the GM's own tokens, a fresh GM token."
)
class TokenRevocation:
    revoked: str
    gm_token: IssuedToken | None

    @classmethod
    def from_domain(cls, result: dict[str, Any]) -> TokenRevocation:
        """From the use case's answer."""
        fresh = result.get("gm_token")
        return cls(
            revoked=result["revoked"],
            gm_token=None if fresh is None else IssuedToken(**fresh),
        )
