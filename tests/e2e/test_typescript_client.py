"""The TypeScript client (clients/typescript) against a real server.

`make client` generates its types from the committed contracts and builds it with
`tsc --strict` (a no-op when nothing changed); its end-to-end script then rolls over
GraphQL, creates a session over REST, issues two player tokens, plays moves as both
players and follows the GM's subscription, checking every event arrives once, in order.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import serve

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "clients" / "typescript"


def test_the_typescript_client_plays_a_session_and_follows_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    subprocess.run(["make", "--no-print-directory", "client"], cwd=REPO, check=True)
    with serve(tmp_path_factory.mktemp("ts-client"), {}) as (url, _log):
        ran = subprocess.run(
            ["node", "dist/test/e2e.js"],
            cwd=CLIENT,
            env={**os.environ, "DAEDALUS_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    print(ran.stdout, ran.stderr)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert ran.stdout.startswith("ok: ")
