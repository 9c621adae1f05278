"""schemathesis against a running server, driven by the committed openapi/openapi.yaml.

Every REST operation is fuzzed with data generated from the contract, positive and
negative (bounded: a fixed number of derandomized examples per operation), against a
server that requires API keys, as production does (schemathesis sends the key the
contract's `ApiKey` scheme names, and tries without it). Every check schemathesis has
runs: no 5xx; status code, content type, headers and body as the contract declares;
every schema-violating request refused (`negative_data_rejection`: no `true` read as 1,
no missing required body, no missing key); a request with a missing or invalid key
refused; an unsupported method refused; and every schema-valid request accepted.

That last one in this project's reading (`positive_data_acceptance_by_the_contract`,
in place of schemathesis's `positive_data_acceptance`): a schema-valid request is
accepted, or refused with a code other than `invalid_request`: by a rule of the game
(`spell_too_difficult`, `character_dead`, 422), by a constraint the contract states in
words that JSON Schema cannot (`constraint_violation`: two fields that exclude each
other, a count within another, dice notation in a string), by a dice expression's syntax
(400 `syntax_error`), or because an id names nothing (404) or the caller may not (401,
403). `invalid_request` would mean the server's validation is stricter than its schema.

The session operations that need a role token are fuzzed against a real session with
its GM token, and the campaign operations against a real campaign with its GM token.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config._auth import AuthConfig
from schemathesis.config._checks import (
    NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES,
    NegativeDataRejectionConfig,
)

from api.keys import config_entry, new_key
from api.openapi import COMMITTED
from api.usecases.rows import ROWS
from api.usecases.tables import CAMPAIGN
from tests.e2e.conftest import serve

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# What a refusal of a schema-valid request may say: a rule of the game refused it (a
# domain code such as `spell_too_difficult`), the id names nothing (404), the caller may
# not (401/403), the state forbids it now (409), or the service asks to wait (429/503).
# A rule's refusal is a 422 (400 for a dice expression's syntax, a grammar the contract
# states in words) with the rule's own code; never `invalid_request` (the server's
# validation stricter than the contract), never 413, never a 500.
CONTRACT_CODES = {"invalid_request", "invalid_json", "body_too_large"}
ALLOWED_REFUSALS = {401, 403, 404, 409, 429, 503}


@schemathesis.check
def positive_data_acceptance_by_the_contract(
    ctx: Any, response: Any, case: schemathesis.Case[Any]
) -> bool | None:
    """schemathesis's `positive_data_acceptance`, except that a rule of the game may
    refuse a well-formed request with its own 422 code: every schema-valid request is
    accepted or refused for a reason the contract cannot express."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if status < 400 or status in ALLOWED_REFUSALS:
        return None
    try:
        code = response.json().get("code")
    except ValueError:
        code = None
    if status in (400, 422) and code not in CONTRACT_CODES:
        return None
    raise AssertionError(
        f"a schema-valid request was refused: {status} {code!r}: {response.text[:300]}"
    )


CHECKS: list[Any] = [
    positive_data_acceptance_by_the_contract,
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.negative_data_rejection,
    schemathesis.checks.ignored_auth,
    schemathesis.checks.missing_required_header,
    schemathesis.checks.unsupported_method,
    schemathesis.checks.use_after_free,
    schemathesis.checks.ensure_resource_availability,
]
KEY = new_key()  # the one key the server under test accepts
FUZZ = settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)

schema = schemathesis.openapi.from_path(str(COMMITTED))
schema.config.auth = AuthConfig(openapi={"ApiKey": {"api_key": KEY}})
# A body over DAEDALUS_MAX_BODY_BYTES is refused with 413 before it is read: a rejection
# too (schemathesis's default list leaves 413 out).
schema.config.checks.negative_data_rejection = NegativeDataRejectionConfig(
    expected_statuses=[*NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES, "413"]
)
# Examples and fuzzing only: the coverage phase's exhaustive boundary cases would take
# minutes over ~45 operations; fuzzing already reaches the bounds now and then.
schema.config.phases.update(phases=["examples", "fuzzing"])
# Operations that need a session role token: fuzzed below against a real session. Without
# a token they only ever answer 401, which would exercise nothing but the token check.
NEEDS_TOKEN = ["getSession", "issueToken", "sendCommand", "getEvents"]
# Likewise the campaign operations, against a real campaign with its GM token.
NEEDS_CAMPAIGN_TOKEN = [r.name for r in ROWS if r.table is CAMPAIGN and r.method is not None]
public = schema.exclude(operation_id=NEEDS_TOKEN + NEEDS_CAMPAIGN_TOKEN)
with_token = schema.include(operation_id=NEEDS_TOKEN)
with_campaign_token = schema.include(operation_id=NEEDS_CAMPAIGN_TOKEN)


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that requires an API key (KEY), as production does."""
    env = {"DAEDALUS_API_KEYS": json.dumps(config_entry(KEY, "fuzz", "fuzz-tenant"))}
    with serve(tmp_path_factory.mktemp("fuzz"), env) as (url, _log):
        yield url


@pytest.fixture(scope="module")
def gm_session(server_url: str) -> tuple[str, str]:
    """A live session and its GM token."""
    party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
    created = httpx.post(
        f"{server_url}/v1/sessions",
        json={"preset": "standard_deck", "party": party},
        headers={"X-API-Key": KEY},
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
    created = httpx.post(
        f"{server_url}/v1/campaigns", json={"name": "Fuzzed Glade"}, headers={"X-API-Key": KEY}
    )
    assert created.status_code == 201, created.text
    body = created.json()
    campaign_id, token = str(body["campaign_id"]), str(body["gm_token"])
    abilities = {"ready": 8, "surroundings": 6, "navigation": 10, "interaction": 12}
    for runner in ("r1", "r2"):
        added = httpx.post(
            f"{server_url}/v1/campaigns/{campaign_id}/runners",
            json={"runner": runner, "character": {"name": runner, "abilities": abilities}},
            headers={"Authorization": f"Bearer {token}", "X-API-Key": KEY},
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
