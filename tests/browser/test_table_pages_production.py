"""The table pages where API keys are required (production), in real Chromium.

The service hands its pages a publishable key (DAEDALUS_TABLE_KEY) bound to another
origin: its own pages pass as same-origin requests, so a player needs nothing but a
join code. Creating a table needs a secret key, which the GM enters on the page once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from playwright.sync_api import Browser

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@dataclass(frozen=True)
class Deployment:
    url: str
    secret: str
    publishable: str


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    secret, publishable = new_key(), new_key(publishable=True)
    keys = {
        **config_entry(secret, "gm-tools", "acme"),
        **config_entry(publishable, "table-pages", "acme", ["https://vtt.example"]),
    }
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "table-pages-secret-" + "x" * 20,
        "DAEDALUS_API_KEYS": json.dumps(keys),
        "DAEDALUS_TABLE_KEY": publishable,
    }
    with serve(tmp_path_factory.mktemp("production"), env) as (url, _log):
        yield Deployment(url, secret, publishable)


def test_a_gm_enters_the_secret_key_once_and_a_player_needs_only_a_code(
    browser: Browser, deployment: Deployment
) -> None:
    gm_context = browser.new_context(base_url=deployment.url, reduced_motion="reduce")
    player_context = browser.new_context(base_url=deployment.url, reduced_motion="reduce")
    try:
        gm = gm_context.new_page()
        gm.goto("/table/#/gm")
        gm.get_by_role("button", name="Create session").click()
        # The pages' publishable key may not create a table: the page says so, and asks.
        assert "secret_key_required" in gm.get_by_role("alert").inner_text()
        gm.get_by_label("This service needs its secret API key").fill(deployment.secret)
        gm.get_by_role("button", name="Keep it in this browser").click()
        gm.get_by_role("button", name="Create session").click()
        gm.wait_for_url(re.compile(r"#/gm/[0-9a-f]+$"))
        session = gm.url.rsplit("/", 1)[1]
        seat = gm.locator("li.seat[data-member=p1]")
        seat.get_by_role("button", name="Join code").click()
        code = seat.locator(".join-code").inner_text()

        player = player_context.new_page()
        player.goto(f"/table/#/join/{code}")
        player.wait_for_url(re.compile(rf"#/play/{session}$"))
        player.locator("[data-status=live]").wait_for(timeout=10_000)
        assert player.evaluate("localStorage.getItem('daedalus.apiKey')") is None
        # A roll at the GM's screen reaches the player's page over its socket.
        form = gm.get_by_role("form", name="Roll dice")
        form.get_by_label("Dice").fill("2d6")
        form.get_by_role("button", name="Roll").click()
        player.locator(".log li[data-type=DiceRolled]").wait_for(timeout=10_000)
    finally:
        gm_context.close()
        player_context.close()


def test_the_pages_key_still_refuses_other_sites_and_creating(deployment: Deployment) -> None:
    config = httpx.get(f"{deployment.url}/table/config.json").json()
    assert config == {"api_key": deployment.publishable}
    key = {"x-api-key": deployment.publishable}
    other_site = httpx.get(
        f"{deployment.url}/v1/labyrinths/presets",
        headers={**key, "origin": "https://evil.example"},
    )
    assert (other_site.status_code, other_site.json()["code"]) == (403, "origin_not_allowed")
    no_browser = httpx.get(f"{deployment.url}/v1/labyrinths/presets", headers=key)
    assert (no_browser.status_code, no_browser.json()["code"]) == (403, "origin_not_allowed")
    same_origin = httpx.get(
        f"{deployment.url}/v1/labyrinths/presets", headers={**key, "sec-fetch-site": "same-origin"}
    )
    assert same_origin.status_code == 200, same_origin.text
    create = httpx.post(
        f"{deployment.url}/v1/sessions",
        json={"preset": "standard_deck", "party": [{"id": "p1", "name": "Ash"}]},
        headers={**key, "origin": deployment.url},
    )
    assert (create.status_code, create.json()["code"]) == (403, "secret_key_required")
