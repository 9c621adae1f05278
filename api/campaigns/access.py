"""Reaching the campaigns from a request or a WebSocket: service, clock, role token.

Campaign role tokens are session role tokens (api/sessions/tokens.py) whose session is
`campaign:<id>` and whose member is a runner id: the two kinds can never pass for each
other, and the caller's tenant (from its API key) picks the services, as for sessions.
"""

from __future__ import annotations

import time

from starlette.requests import HTTPConnection

from api.sessions.access import NotReady, secret_of, tenant_of
from api.sessions.access import now as token_now
from api.sessions.revocation import checked
from api.sessions.tokens import Forbidden, InvalidToken, RoleToken, SessionNotFound, authenticate
from services.campaign import CampaignState
from services.campaign.errors import CAMPAIGN_NOT_FOUND, CampaignError
from services.store.campaigns import CampaignClock
from services.store.sessions import SessionService

PREFIX = "campaign:"
# Where each kind of caller puts its campaign token (said when it is missing).
BEARER = "Authorization: Bearer <token>"
ARGUMENT = "the `token` argument"
CONNECTION = "the `token` argument, or `token` in the connection_init payload"


def not_found() -> CampaignError:
    """No such campaign for this caller's tenant (whether it exists elsewhere is not said)."""
    return CampaignError("no such campaign", code=CAMPAIGN_NOT_FOUND)


def subject(campaign_id: str) -> str:
    """The token subject (the role token's session id) of a campaign."""
    return PREFIX + campaign_id


def campaign_id_of(grant: RoleToken) -> str:
    """The campaign a verified grant is for."""
    return grant.session_id.removeprefix(PREFIX)


def campaigns_of(conn: HTTPConnection) -> SessionService[CampaignState]:
    """The campaign service of the caller's tenant."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the event store is not reachable")
    service: SessionService[CampaignState] = runtime.campaigns_for(tenant_of(conn))
    return service


def clock_of(conn: HTTPConnection) -> CampaignClock:
    """The campaign clock of the caller's tenant (its ticks share the scheduler's ids)."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the event store is not reachable")
    clock: CampaignClock = runtime.clock_for(tenant_of(conn))
    return clock


def clock_now() -> float:
    """POSIX seconds: the campaigns' clock (anchors, due times, tick times)."""
    return time.time()


async def grant_of(
    conn: HTTPConnection, campaign_id: str, token: str | None, where: str = BEARER
) -> RoleToken:
    """The verified, unrevoked grant of `token` for `campaign_id` in the caller's tenant
    (401 `invalid_token` / `token_revoked`, 403, 404).

    `where` says where the caller sends its token, for the message when there is none.
    """
    if not token:
        raise InvalidToken(f"a campaign token is required ({where})")
    try:
        grant = authenticate(
            secret_of(conn), token, subject(campaign_id), token_now(), tenant_of(conn)
        )
    except InvalidToken as exc:
        # The token checks speak of session tokens: these are campaign tokens.
        raise InvalidToken(exc.message.replace("session token", "campaign token")) from None
    except SessionNotFound:
        # Another tenant's token: as if the campaign did not exist.
        raise not_found() from None
    except Forbidden as exc:
        if exc.message == "this token is for another session":
            raise Forbidden("this token is for another campaign") from None
        raise
    return await checked(conn, campaigns_of(conn).stream(campaign_id), grant)
