"""Named response schemas of the table endpoints (sessions, campaigns, join codes, lists).

Views, events and command results are the models of what a viewer is shown
(services/labyrinth/shown.py, services/campaign/shown.py); the token answers are here.
Each names every key the handler answers: required unless it may be left out.
"""

from __future__ import annotations

from typing import Annotated, Literal

from api.models import Frozen
from services.labyrinth.shown import TableRole
from services.markers import Identifier, LongInt, Named


class IssuedToken(Frozen):
    """A role token just issued (a secret), its id (to revoke it) and its expiry (RFC 3339)."""

    token: str
    token_id: str
    expires_at: str


class _FirstTokens(Frozen):
    gm_token: str
    gm_token_id: str
    spectator_token: str
    spectator_token_id: str
    expires_at: str
    version: LongInt


class CreatedSession(_FirstTokens):
    """A new session: its id, version and first role tokens (secrets, shown once)."""

    session_id: Identifier


class CreatedCampaign(_FirstTokens):
    """A new campaign: its id, version and first role tokens (secrets, shown once)."""

    campaign_id: Identifier


class SessionToken(IssuedToken):
    """A player's (bound to `member`), a spectator's or a renewed GM token."""

    role: TableRole
    member: str | None


class CampaignToken(IssuedToken):
    """A player's (bound to `runner`) or a spectator's campaign token."""

    role: TableRole
    runner: str | None


class Revocation(Frozen):
    """The scope revoked (`token:<id>`, `member:<id>`, `role:<role>` or `all`); when it
    covers the GM's own tokens, a fresh GM token."""

    revoked: str
    gm_token: IssuedToken | None = None


class JoinCode(Frozen):
    """A single-use join code for one seat, and how long the token it gives will last."""

    code: str
    member: str
    expires_at: str
    token_ttl_seconds: LongInt


class JoinedTable(IssuedToken):
    """The player token a join code gave, for a session or a campaign."""

    kind: Annotated[Literal["session", "campaign"], Named("TableKind")]
    role: TableRole
    member: str
    session_id: Identifier | None = None
    campaign_id: Identifier | None = None


class SessionListItem(Frozen):
    session_id: Identifier
    created_at: str
    labyrinth: str | None
    phase: str
    version: LongInt


class SessionList(Frozen):
    """A page of the tenant's sessions, newest first; `next_cursor` is null at the end."""

    sessions: list[SessionListItem]
    next_cursor: str | None


class CampaignListItem(Frozen):
    campaign_id: Identifier
    created_at: str
    name: str
    downtime: LongInt
    ended: bool
    version: LongInt


class CampaignList(Frozen):
    """A page of the tenant's campaigns, newest first; `next_cursor` is null at the end."""

    campaigns: list[CampaignListItem]
    next_cursor: str | None
