"""What the OpenAPI document says of revocations, for sessions and campaigns alike."""

from __future__ import annotations

REVOKE_NOTE = (
    "Name at most one of `token_id`, `member` and `role`; none revokes every token. Tokens "
    "of the scope issued until now are refused from then on (401 `token_revoked`), open "
    "subscriptions included; a revocation that covers the GM's own tokens answers a fresh "
    "GM token."
)
