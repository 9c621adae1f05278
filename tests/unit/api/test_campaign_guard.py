"""Campaign commands check their token's revocations in the append script (`guarded`),
as session commands do: no separate read before the append, so a token revoked between
a read and the append cannot act once more. A runner's removal, which revokes tokens
before it appends, still reads its own token's revocations first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.requests import HTTPConnection
from starlette.testclient import TestClient

from api.app import create_app
from api.tables.kind import Kind
from api.tables.tokens import RoleToken
from infra.settings import Settings
from tests.e2e.test_campaigns_api import Campaign


def test_a_campaign_command_reads_no_revocations_and_a_revoked_token_records_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    checked = Kind.live

    def counted(self: Kind[Any, Any], conn: HTTPConnection, grant: RoleToken) -> None:
        reads.append(grant.role)
        checked(self, conn, grant)

    monkeypatch.setattr(Kind, "live", counted)
    app = create_app(Settings.model_validate({"environment": "test", "data_dir": tmp_path}))
    with TestClient(app) as client:
        campaign = Campaign(client)
        campaign.add("r1", "r2")
        r1 = campaign.players["r1"]
        reads.clear()
        choice = {"runner": "r1", "activity": "gather"}
        chosen = campaign.ok("POST", "/choices", r1, json=choice)
        adjusted = campaign.ok("POST", "/adjustments", json={"type": "supplies", "delta": 2})
        assert adjusted["version"] > chosen["version"]
        assert reads == []  # both checked by their append
        refused = campaign.call("POST", "/choices", r1, json={"runner": "r2", "activity": "farm"})
        assert refused.status_code == 403 and reads == ["player"]  # never appended: read
        campaign.ok("POST", "/revocations", json={"member": "r1"})
        before = campaign.ok("GET", "")["version"]
        reads.clear()
        revoked = campaign.call("POST", "/choices", r1, json={"runner": "r1", "activity": "rest"})
        assert (revoked.status_code, revoked.json()["code"]) == (401, "token_revoked")
        assert reads == []  # the append script refused it
        assert campaign.ok("GET", "")["version"] == before  # nothing recorded
        reads.clear()
        campaign.ok("DELETE", "/runners/r2")
        assert reads == ["gm"]  # the removal reads first: it revokes before it appends
