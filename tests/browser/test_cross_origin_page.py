"""A page on another origin uses Daedalus from a real browser with a publishable key.

The page (tests/browser/cross_origin.html) is served from its own loopback origin and
calls REST, GraphQL over HTTP and the session subscription. Served from the origin its
key is bound to, everything answers; served from an origin the service does not allow,
the browser itself blocks every call (CORS and the WebSocket's origin check).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from playwright.sync_api import Browser

from api.keys import config_entry, new_key
from tests.browser.conftest import static_site
from tests.e2e.conftest import serve

PAGE = Path(__file__).with_name("cross_origin.html")
PARTY = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]


@dataclass(frozen=True)
class Setup:
    api: str
    allowed_site: str
    other_site: str
    publishable: str
    session: dict[str, Any]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    site = tmp_path_factory.mktemp("site")
    (site / "index.html").write_text(PAGE.read_text(encoding="utf-8"), encoding="utf-8")
    with static_site(site) as allowed_site, static_site(site) as other_site:
        secret, publishable = new_key(), new_key(publishable=True)
        keys = {
            **config_entry(secret, "gm-tools", "acme"),
            **config_entry(publishable, "vtt-module", "acme", [allowed_site]),
        }
        env = {
            "DAEDALUS_ENV": "production",
            "DAEDALUS_SECRET_KEY": "browser-test-secret-" + "x" * 20,
            "DAEDALUS_API_KEYS": json.dumps(keys),
        }
        with serve(tmp_path_factory.mktemp("server"), env) as (api, _log):
            created = httpx.post(
                f"{api}/v1/sessions",
                json={"preset": "standard_deck", "party": PARTY},
                headers={"X-API-Key": secret},
                timeout=30.0,
            )
            assert created.status_code == 201, created.text
            yield Setup(api, allowed_site, other_site, publishable, created.json())


def _run_page(browser: Browser, setup: Setup, site: str) -> dict[str, Any]:
    query = urlencode(
        {
            "api": setup.api,
            "key": setup.publishable,
            "session": setup.session["session_id"],
            "token": setup.session["spectator_token"],
        }
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{site}/index.html?{query}")
        page.wait_for_function("window.daedalusResults !== undefined", timeout=20_000)
        results: dict[str, Any] = page.evaluate("window.daedalusResults")
        return results
    finally:
        context.close()


def test_a_page_on_the_keys_origin_calls_rest_graphql_and_the_subscription(
    browser: Browser, setup: Setup
) -> None:
    results = _run_page(browser, setup, setup.allowed_site)
    rest, graphql, live = results["rest"], results["graphql"], results["subscription"]
    assert rest["status"] == 200 and 3 <= rest["body"]["total"] <= 18, rest
    assert rest["remaining"] is not None, "the rate-limit headers are exposed to the page"
    assert graphql["status"] == 200 and 1 <= graphql["body"]["data"]["roll"]["total"] <= 20
    assert live["acknowledged"] and not live.get("timeout"), live
    assert [e["version"] for e in live["events"]] == [1, 2]
    first = {"__typename": "MazeStartedEvent", "version": 1, "type": "MazeStarted"}
    assert live["events"][0] == first


def test_a_page_on_another_origin_is_blocked_by_the_browser(browser: Browser, setup: Setup) -> None:
    results = _run_page(browser, setup, setup.other_site)
    # The browser refuses to hand the page any answer: fetch rejects, the socket fails.
    assert "Failed to fetch" in results["rest"].get("error", ""), results["rest"]
    assert "Failed to fetch" in results["graphql"].get("error", ""), results["graphql"]
    live = results["subscription"]
    assert not live.get("opened") and not live.get("acknowledged") and not live["events"], live
    assert live["closeCode"] == 1006
