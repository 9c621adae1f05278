"""A player cannot recover a session's seed from what the table shows them.

The attack (issue 16): holding only a player token, replay candidate seeds offline
through the engine and compare the slot ids each would deal with the player's view; a
match reveals the whole deck order. It works on a table created with a caller's seed
(development and tests only: the table is replayable by design), and must find nothing
where the deployment refuses seeds and every table draws from server entropy.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from api.keys import config_entry, new_key
from api.sessions.requests import PRESETS
from services.dice import seeded_rng
from services.labyrinth import PartyMember, RollInitiative, StartMaze
from tests.e2e.conftest import serve
from tests.unit.labyrinth.play import Game

pytestmark = [pytest.mark.e2e]

PARTY = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
# What an attacker tries: the README's seed, common words, and the creation time.
WORDS = ["vtt-demo", "seed", "test", "demo", "daedalus", "1", "42", "maze"]


def _slots_for(seed: str) -> set[str]:
    """The slot ids a standard-deck table of PARTY deals first under `seed`."""
    game, rng = Game(), seeded_rng(seed)
    party = tuple(PartyMember(id=m["id"], name=m["name"]) for m in PARTY)
    game.do(StartMaze(definition=PRESETS["standard_deck"], party=party), rng)
    game.do(RollInitiative(), rng)
    return set(game.state.slots)


def _attack(url: str, headers: dict[str, str], **create: object) -> tuple[str | None, int]:
    """Create a table, join as p1, search seeds against p1's view: (seed found, tries)."""
    started = int(time.time())
    made = httpx.post(
        f"{url}/v1/sessions",
        json={"preset": "standard_deck", "party": PARTY, **create},
        headers=headers,
        timeout=30,
    )
    assert made.status_code == 201, made.text
    table = made.json()
    gm = {**headers, "authorization": f"Bearer {table['gm_token']}"}
    token = httpx.post(
        f"{url}/v1/sessions/{table['session_id']}/tokens",
        json={"role": "player", "member": "p1"},
        headers=gm,
        timeout=30,
    ).json()["token"]
    seen_by_p1 = httpx.get(
        f"{url}/v1/sessions/{table['session_id']}",
        headers={**headers, "authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert seen_by_p1.status_code == 200, seen_by_p1.text
    view = seen_by_p1.json()["view"]
    seen = {card["slot"] for card in view["river"]}
    candidates = [*WORDS, *(str(t) for t in range(started - 30, started + 30))]
    for tries, candidate in enumerate(candidates, 1):
        if _slots_for(candidate) == seen:
            return candidate, tries
    return None, len(candidates)


@pytest.fixture(scope="module")
def development(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("dev"), {}) as (url, _log):
        yield url


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    key = new_key()
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "predictable-secret-" + "x" * 20,
        "DAEDALUS_API_KEYS": json.dumps(config_entry(key, "app", "acme")),
    }
    with serve(tmp_path_factory.mktemp("prod"), env) as (url, _log):
        yield url, key


def test_the_attack_finds_the_seed_of_a_seeded_development_table(development: str) -> None:
    found, tries = _attack(development, {}, seed="vtt-demo")
    print(f"\nseeded development table: seed {found!r} found after {tries} candidates")
    assert found == "vtt-demo"


def test_production_refuses_seeds_and_the_attack_finds_nothing(
    production: tuple[str, str],
) -> None:
    url, key = production
    headers = {"x-api-key": key}
    refused = httpx.post(
        f"{url}/v1/sessions",
        json={"preset": "standard_deck", "party": PARTY, "seed": "vtt-demo"},
        headers=headers,
    )
    assert (refused.status_code, refused.json()["code"]) == (422, "seed_not_allowed")
    found, tries = _attack(url, headers)
    print(f"production table: {tries} candidate seeds tried, found {found!r}")
    assert found is None
