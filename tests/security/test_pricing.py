"""Every exact-odds request is priced before any work, and the price is spent.

Against a real server with a small bucket (1 token a second, burst 30): an answer too
large to send is refused up front; an expensive distribution spends its price, so the
next one waits (429 with Retry-After) while a cheap roll still passes; eight aliased
expensive fields in one GraphQL document are each priced before they run. /healthz is
probed throughout. The figures are printed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.conftest import serve
from tests.security.probes import probing

pytestmark = [pytest.mark.e2e]

EXPENSIVE = "60d10!"  # about 8,300 values: 1 + 20 tokens
ALIASES = " ".join(
    f'a{i}: probability(expression: "{EXPENSIVE}") {{ __typename ... on Problem {{ code }} }}'
    for i in range(8)
)


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"DAEDALUS_RATE_LIMIT_RPS": "1", "DAEDALUS_RATE_LIMIT_BURST": "30"}
    with serve(tmp_path_factory.mktemp("pricing"), env) as (base, _log):
        yield base


def test_an_answer_too_large_to_send_is_refused_before_any_work(url: str) -> None:
    with probing(url) as probe:
        started = time.perf_counter()
        refused = httpx.post(f"{url}/v1/dice/probability", json={"expression": "20d10000"})
        took = time.perf_counter() - started
    print(f"\n20d10000: {refused.status_code} {refused.json()['code']} in {took * 1000:.0f} ms")
    probe.check()
    assert (refused.status_code, refused.json()["code"]) == (422, "distribution_too_large")
    assert took < 1.0


def test_the_price_is_spent_and_a_cheap_call_still_passes(url: str) -> None:
    time.sleep(2)  # the bucket refills from the previous test
    body = {"expression": EXPENSIVE}
    first = httpx.post(f"{url}/v1/dice/probability", json=body)
    assert first.status_code == 200, first.text
    second = httpx.post(f"{url}/v1/dice/probability", json=body)
    print(
        f"a second {EXPENSIVE} at once: {second.status_code}, Retry-After "
        f"{second.headers.get('retry-after')}"
    )
    assert (second.status_code, second.json()["code"]) == (429, "rate_limited")
    assert int(second.headers["retry-after"]) >= 1
    cheap = httpx.post(f"{url}/v1/dice/roll", json={"expression": "1d20"})
    assert cheap.status_code == 200, cheap.text


def test_aliased_expensive_fields_are_each_priced_before_they_run(url: str) -> None:
    time.sleep(3)
    with probing(url) as probe:
        started = time.perf_counter()
        answer = httpx.post(f"{url}/graphql", json={"query": "{ " + ALIASES + " }"}, timeout=30)
        took = time.perf_counter() - started
    fields = answer.json()["data"]
    codes = [f.get("code") for f in fields.values()]
    print(
        f"8 aliased {EXPENSIVE}: {codes.count(None)} computed, {codes.count('rate_limited')} "
        f"refused, in {took * 1000:.0f} ms"
    )
    probe.check()
    assert codes.count("rate_limited") >= 6
    assert set(codes) <= {None, "rate_limited"}


def test_simulations_and_tunings_are_priced_in_game_turns_before_any_work(url: str) -> None:
    endless = [
        ("/v1/simulations", {"games": 1_000_000, "max_turns": 10_000, "chart": None}),
        ("/v1/tunings", {"target": "escape_rate", "value": 0.5, "games": 1_000,
                         "max_turns": 10_000}),
    ]  # fmt: skip
    for path, body in endless:
        with probing(url) as probe:
            started = time.perf_counter()
            refused = httpx.post(f"{url}{path}", json=body, timeout=30)
            took = time.perf_counter() - started
        print(
            f"{path} with max_turns 10000: {refused.status_code} "
            f"{refused.json()['code']} in {took * 1000:.0f} ms"
        )
        assert (refused.status_code, refused.json()["code"]) == (422, "games_limit_exceeded")
        assert "game-turns" in refused.json()["detail"]
        probe.check()
        assert took < 1.0


def test_a_page_of_events_is_priced_by_its_limit(tmp_path_factory: pytest.TempPathFactory) -> None:
    # A fresh bucket (its own server): 30 tokens, one more a second.
    env = {"DAEDALUS_RATE_LIMIT_RPS": "1", "DAEDALUS_RATE_LIMIT_BURST": "30"}
    with serve(tmp_path_factory.mktemp("pages"), env) as (base, _log):
        party = [{"id": "p1", "name": "Ash"}]
        created = httpx.post(
            f"{base}/v1/sessions", json={"preset": "standard_deck", "party": party}
        )
        assert created.status_code == 201, created.text
        events = f"{base}/v1/sessions/{created.json()['session_id']}/events"
        auth = {"Authorization": f"Bearer {created.json()['gm_token']}"}
        # 500 events: 1 + 2 for each further 100, 9 tokens; three pay 27 of the 29 left.
        pages = [httpx.get(events, params={"limit": 500}, headers=auth) for _ in range(4)]
        small = httpx.get(events, params={"limit": 100}, headers=auth)  # 1 token: still paid
    codes = [p.status_code for p in pages]
    print(f"\nfour 500-event pages at once: {codes}; then a 100-event page: {small.status_code}")
    assert codes[:3] == [200, 200, 200], [p.text for p in pages]
    assert (codes[3], pages[3].json()["code"]) == (429, "rate_limited")
    assert small.status_code == 200, small.text


def test_a_price_over_the_burst_is_paid_by_a_full_bucket(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Charged as the whole burst (docs/OPERATIONS.md): the door takes one token, the
    price the rest of a full bucket. It asked for the burst on top of the door's token,
    which no bucket ever holds, so it was refused on every retry."""
    env = {"DAEDALUS_RATE_LIMIT_RPS": "1", "DAEDALUS_RATE_LIMIT_BURST": "3"}
    with serve(tmp_path_factory.mktemp("pricing-burst"), env) as (base, _log):
        time.sleep(4)  # a full bucket, whatever the start-up's probes took
        body = {"expression": "100d20"}  # priced at 5 tokens: over the burst of 3
        paid = httpx.post(f"{base}/v1/dice/probability", json=body)
        assert paid.status_code == 200, paid.text
        again = httpx.post(f"{base}/v1/dice/probability", json=body)
        assert (again.status_code, again.json()["code"]) == (429, "rate_limited")
        # A client that waits as told is served (the door's Retry-After knows only its
        # own token, so it may be told to wait once more): within a few tries, not never.
        answers = [again]
        while answers[-1].status_code == 429 and len(answers) < 5:
            time.sleep(int(answers[-1].headers["retry-after"]))
            answers.append(httpx.post(f"{base}/v1/dice/probability", json=body))
        assert answers[-1].status_code == 200, [a.text for a in answers]
