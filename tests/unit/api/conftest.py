"""The API's unit tests run on the embedded Redis, whatever the environment says.

CI exports REDIS_URL (for the store's contract suite); production settings built here
would otherwise see it without a separate broker and be refused by the settings guard.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_outside_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("REDIS_URL", "DAEDALUS_REDIS_URL", "DAEDALUS_REDIS_ALLOW_UNSAFE"):
        monkeypatch.delenv(name, raising=False)
