"""schemathesis against the running server, driven by the committed openapi/openapi.yaml.

Every REST operation is fuzzed with positive data generated from the contract (bounded:
a fixed number of derandomized examples per operation) and must answer without a 5xx,
with a status code, content type, headers and body the contract declares. The session
operations that need a role token are fuzzed against a real session with its GM token,
and the campaign operations against a real campaign with its GM token.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from api.openapi import COMMITTED
from api.openapi.campaigns import campaign_operations

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CHECKS: list[Any] = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
]
FUZZ = settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)

schema = schemathesis.openapi.from_path(str(COMMITTED))
# Examples and fuzzing only: the coverage phase's exhaustive boundary cases would take
# minutes over ~45 operations; fuzzing already reaches the bounds now and then.
schema.config.phases.update(phases=["examples", "fuzzing"])
# Operations that need a session role token: fuzzed below against a real session. Without
# a token they only ever answer 401, which would exercise nothing but the token check.
NEEDS_TOKEN = ["getSession", "issueToken", "sendCommand", "getEvents"]
# Likewise the campaign operations, against a real campaign with its GM token.
NEEDS_CAMPAIGN_TOKEN = [op.operation_id for op in campaign_operations() if op.session_token]
public = schema.exclude(operation_id=NEEDS_TOKEN + NEEDS_CAMPAIGN_TOKEN)
with_token = schema.include(operation_id=NEEDS_TOKEN)
with_campaign_token = schema.include(operation_id=NEEDS_CAMPAIGN_TOKEN)


@pytest.fixture(scope="module")
def gm_session(server_url: str) -> tuple[str, str]:
    """A live session and its GM token."""
    party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
    created = httpx.post(
        f"{server_url}/v1/sessions", json={"preset": "standard_deck", "party": party}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    return str(body["session_id"]), str(body["gm_token"])


@public.parametrize()
@FUZZ
def test_public_operations(case: schemathesis.Case[Any], server_url: str) -> None:
    case.call_and_validate(base_url=server_url, checks=CHECKS)


@with_token.parametrize()
@FUZZ
def test_session_operations(
    case: schemathesis.Case[Any], server_url: str, gm_session: tuple[str, str]
) -> None:
    session_id, token = gm_session
    case.path_parameters = {**(case.path_parameters or {}), "session_id": session_id}
    case.call_and_validate(
        base_url=server_url, headers={"Authorization": f"Bearer {token}"}, checks=CHECKS
    )


@pytest.fixture(scope="module")
def gm_campaign(server_url: str) -> tuple[str, str]:
    """A live campaign with two runners, and its GM token."""
    created = httpx.post(f"{server_url}/v1/campaigns", json={"name": "Fuzzed Glade"})
    assert created.status_code == 201, created.text
    body = created.json()
    campaign_id, token = str(body["campaign_id"]), str(body["gm_token"])
    abilities = {"ready": 8, "surroundings": 6, "navigation": 10, "interaction": 12}
    for runner in ("r1", "r2"):
        added = httpx.post(
            f"{server_url}/v1/campaigns/{campaign_id}/runners",
            json={"runner": runner, "character": {"name": runner, "abilities": abilities}},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert added.status_code == 200, added.text
    return campaign_id, token


@with_campaign_token.parametrize()
@FUZZ
def test_campaign_operations(
    case: schemathesis.Case[Any], server_url: str, gm_campaign: tuple[str, str]
) -> None:
    campaign_id, token = gm_campaign
    case.path_parameters = {**(case.path_parameters or {}), "campaign_id": campaign_id}
    case.call_and_validate(
        base_url=server_url, headers={"Authorization": f"Bearer {token}"}, checks=CHECKS
    )
