"""A viewer's campaign events as they are appended: catch up, then follow live.

A campaign is the stream `campaign-<id>`; ticks appended by a Celery worker show up in
the tenant's global log too, so they wake watchers like any other event.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import HTTPConnection

from api.campaigns.access import campaign_id_of, campaigns_of
from api.campaigns.usecases import feed, viewer_of
from api.sessions.stream import follow_stream
from api.sessions.tokens import RoleToken


def follow(conn: HTTPConnection, grant: RoleToken, after: int) -> AsyncIterator[dict[str, Any]]:
    """This viewer's redacted campaign events after version `after`, until the token expires."""
    campaigns = campaigns_of(conn)
    viewer = viewer_of(grant)
    return follow_stream(
        conn,
        campaigns.store,
        campaigns.stream(campaign_id_of(grant)),
        grant.expires,
        after,
        lambda page: feed(page, viewer),
        grant,
    )
