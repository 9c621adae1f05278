"""Role-token shapes and the table operations shared by sessions and campaigns."""

from __future__ import annotations

from api.openapi.spec import Operation, Param
from api.openapi.tables import CampaignList, JoinedTable, SessionList
from api.tables import MAX_LIST, JoinTable

REVOKE_NOTE = (
    "Name at most one of `token_id`, `member` and `role`; none revokes every token. Tokens "
    "of the scope issued until now are refused from then on (401 `token_revoked`), open "
    "subscriptions included; a revocation that covers the GM's own tokens answers a fresh "
    "GM token."
)

LIMIT = Param(
    "limit", "query", {"type": "integer", "minimum": 1, "maximum": MAX_LIST}, "Page size."
)
CURSOR = Param(
    "cursor", "query", {"type": "string", "maxLength": 90}, "The previous page's `next_cursor`."
)


def table_operations() -> list[Operation]:
    """Joining a seat by code, and listing the tenant's tables (secret keys)."""
    listed = (401, 403, 422, 429)
    return [
        Operation("get", "/v1/sessions", "listSessions", "The tenant's sessions, newest first",
                  "sessions", None, {}, result=SessionList, errors=listed,
                  params=(LIMIT, CURSOR)),
        Operation("get", "/v1/campaigns", "listCampaigns",
                  "The tenant's campaigns, newest first", "campaigns", None, {},
                  result=CampaignList, errors=listed, params=(LIMIT, CURSOR)),
        Operation("post", "/v1/join", "joinTable", "Exchange a join code for a player token",
                  "sessions", JoinTable, {}, result=JoinedTable, status=201,
                  errors=(401, 403, 404, 413, 422, 429),
                  description="Single use: of racing exchanges exactly one succeeds; an "
                  "unknown, used, expired or revoked code is 404 `join_code_not_found`."),
    ]  # fmt: skip
