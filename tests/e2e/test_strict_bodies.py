"""Request bodies are read as JSON says, strictly: no silent coercion (issue 16).

Each body below differs from one the service accepts by a single value of the wrong
JSON type, which a lax reader would have coerced (`true` read as 1, `0` as false, `"3"`
as 3, a number as text). Each is refused with 422 `invalid_request` naming the field,
and the well-typed body beside it is accepted, so the refusal is about the type alone.
An empty body stands for `{}` where every field has a default (the contract marks
those bodies optional).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

PARTY = [{"id": "p1", "name": "Ash"}]
SETTINGS = {"preset": "standard_deck", "party": PARTY}

CASES: list[tuple[str, dict[str, Any], dict[str, Any], list[Any]]] = [
    # path, a good body, the same with one value retyped, where the refusal points
    ("/v1/maze/opposed", {"first": {"die": 10, "modifier": 1}, "second": {"die": 10}},
     {"first": {"die": 10, "modifier": True}, "second": {"die": 10}}, ["first", "modifier"]),
    ("/v1/dice/roll", {"expression": "1d20"}, {"expression": 20}, ["expression"]),
    ("/v1/maze/checks", {"die": 12, "modifier": 2, "dc": 3},
     {"die": 12, "modifier": "2", "dc": 3}, ["modifier"]),
    ("/v1/maze/checks", {"die": 12, "dc": 3, "take_half": False},
     {"die": 12, "dc": 3, "take_half": 0}, ["take_half"]),
    ("/v1/mazerats/saves", {"ability": 1}, {"ability": 1.5}, ["ability"]),
    ("/v1/sessions", {**SETTINGS, "roll_initiative": True},
     {**SETTINGS, "roll_initiative": 1}, ["roll_initiative"]),
]  # fmt: skip


@pytest.mark.parametrize(("path", "good", "retyped", "loc"), CASES)
def test_a_value_of_the_wrong_json_type_is_refused(
    client: httpx.Client, path: str, good: dict[str, Any], retyped: dict[str, Any], loc: list[Any]
) -> None:
    accepted = client.post(path, json=good)
    assert accepted.status_code in (200, 201), accepted.text
    refused = client.post(path, json=retyped)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_request"), refused.text
    assert any(e["loc"][: len(loc)] == loc for e in refused.json()["errors"]), refused.json()


@pytest.mark.parametrize("path", ["/v1/mazerats/morale", "/v1/dice/fair/commitments"])
def test_an_empty_body_is_the_defaults_where_every_field_has_one(
    client: httpx.Client, path: str
) -> None:
    answer = client.post(path)
    assert answer.status_code in (200, 201), answer.text


def test_an_integral_number_is_an_integer_as_json_schema_says(client: httpx.Client) -> None:
    """JSON Schema counts `1.0` and `1e0` as integers: so does every body (a fraction is
    still refused, above). The same seeded save answers the same."""
    plain = client.post("/v1/mazerats/saves", json={"ability": 1, "seed": "rat"})
    assert plain.status_code == 200, plain.text
    for written in ("1.0", "1e0", "10E-1"):
        answer = client.post(
            "/v1/mazerats/saves",
            content=f'{{"ability": {written}, "seed": "rat"}}',
            headers={"Content-Type": "application/json"},
        )
        assert answer.status_code == 200, (written, answer.text)
        assert answer.json() == plain.json()


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "text/json"],
)
def test_a_body_sent_as_another_media_type_than_json_is_refused(
    client: httpx.Client, content_type: str
) -> None:
    """What a browser posts to any origin without a CORS preflight (text/plain, a form) is
    not read as JSON (a page on another origin is refused first: below)."""
    body = b'{"preset": "standard_deck", "party": [{"id": "p1", "name": "Ash"}]}'
    refused = client.post("/v1/sessions", content=body, headers={"content-type": content_type})
    assert (refused.status_code, refused.json()["code"]) == (415, "unsupported_media_type")
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert "application/json" in refused.json()["detail"], refused.text


@pytest.mark.parametrize(
    "content_type",
    [None, "application/json", "Application/JSON; charset=utf-8", "application/vnd.x+json"],
)
def test_json_is_taken_as_json_or_without_a_content_type(
    client: httpx.Client, content_type: str | None
) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    answer = client.post("/v1/dice/roll", content=b'{"expression": "1d6"}', headers=headers)
    assert answer.status_code == 200, answer.text


def test_an_empty_body_needs_no_json_media_type(client: httpx.Client) -> None:
    answer = client.post("/v1/dice/fair/commitments", headers={"content-type": "text/plain"})
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize(
    "name",
    [
        "a\u0000b",
        "tab\there",
        "evil\u202etxt.exe",
        "x\u2066y",
        "c1\u0085",
        "a\u2028b",
        "   ",
        "\u200b",
    ],
)
def test_a_shown_name_with_control_or_bidi_override_characters_is_refused(
    client: httpx.Client, name: str
) -> None:
    """A party member's name is shown to every viewer: no control characters or line
    separators, nor the bidirectional controls that would make it display as other
    text, and not blank."""
    party = [{"id": "p1", "name": name}]
    refused = client.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_request"), refused.text
    assert any(e["loc"][:3] == ["party", 0, "name"] for e in refused.json()["errors"])
    campaign = client.post("/v1/campaigns", json={"name": name})
    assert (campaign.status_code, campaign.json()["code"]) == (422, "invalid_request")
    assert [e["loc"] for e in campaign.json()["errors"]] == [["name"]], campaign.text
    made = client.post("/v1/campaigns", json={"name": "The Ashen Way"})
    assert made.status_code == 201
    # A roll's label is shown beside the roll to everyone who sees it: the same rule.
    roll = {"expression": "1d6", "label": name}
    gm = {"authorization": f"Bearer {made.json()['gm_token']}"}
    labelled = client.post(
        f"/v1/campaigns/{made.json()['campaign_id']}/rolls", json=roll, headers=gm
    )
    assert labelled.status_code == 422 and labelled.json()["errors"][0]["loc"] == ["label"]
    table = client.post(
        "/v1/sessions", json={"preset": "standard_deck", "party": [{"id": "p1", "name": "A"}]}
    ).json()
    command = {"type": "RollDice", **roll}
    gm = {"authorization": f"Bearer {table['gm_token']}"}
    sent = client.post(f"/v1/sessions/{table['session_id']}/commands", json=command, headers=gm)
    assert sent.status_code == 422 and sent.json()["errors"][0]["loc"][-1] == "label", sent.text


def test_a_shown_name_in_any_script_is_taken(client: httpx.Client) -> None:
    name = "Ásh 火 عربي 👩‍🚀"  # the astronaut is joined by a zero-width joiner
    party = [{"id": "p1", "name": name}]
    made = client.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
    assert made.status_code == 201, made.text
    view = client.get(
        f"/v1/sessions/{made.json()['session_id']}",
        headers={"authorization": f"Bearer {made.json()['gm_token']}"},
    )
    assert view.json()["view"]["party"][0]["name"] == name, view.text


STRANGER = "https://evil.example.com"


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/plain", b'{"preset": "standard_deck", "party": [{"id": "p1", "name": "A"}]}'),
        (None, b'{"preset": "standard_deck", "party": [{"id": "p1", "name": "A"}]}'),
        ("application/x-www-form-urlencoded", b""),
    ],
)
def test_a_page_on_another_origin_cannot_write_through_a_keyless_service(
    client: httpx.Client, content_type: str | None, body: bytes
) -> None:
    """A browser sends these to any origin without a CORS preflight, with its `Origin`:
    a write from a page on an origin the service does not allow is refused before it
    runs, whatever its body (none at all included)."""
    headers = {"origin": STRANGER, **({"content-type": content_type} if content_type else {})}
    for path in ("/v1/sessions", "/v1/dice/fair/commitments", "/v1/simulations"):
        refused = client.post(path, content=body, headers=headers)
        assert refused.status_code == 403, refused.text
        assert refused.json()["code"] == "origin_not_allowed", refused.text
        assert STRANGER in refused.json()["detail"]


def test_the_services_own_pages_and_clients_without_an_origin_still_write(
    client: httpx.Client,
) -> None:
    made = {"preset": "standard_deck", "party": [{"id": "p1", "name": "A"}]}
    own = str(client.base_url).rstrip("/")
    assert client.post("/v1/sessions", json=made, headers={"origin": own}).status_code == 201
    assert client.post("/v1/sessions", json=made).status_code == 201
    # Behind a proxy that ends TLS: the page is https, the request reaches us over http.
    tls = own.replace("http://", "https://")
    assert client.post("/v1/sessions", json=made, headers={"origin": tls}).status_code == 201
    # A page under `Referrer-Policy: no-referrer` sends `Origin: null`; the browser's
    # `Sec-Fetch-Site` still says where it comes from (a page cannot set it).
    null = {"origin": "null", "sec-fetch-site": "same-origin"}
    assert client.post("/v1/sessions", json=made, headers=null).status_code == 201
    refused = client.post("/v1/sessions", json=made, headers={"origin": "null"})
    assert (refused.status_code, refused.json()["code"]) == (403, "origin_not_allowed")
    graphql = {"query": "mutation { createCommitment { __typename } }"}
    posted = client.post("/graphql", json=graphql, headers={"origin": STRANGER})
    assert (posted.status_code, posted.json()["code"]) == (403, "origin_not_allowed")
    # A read from anywhere is a read: CORS decides whether the page may see it.
    looked = client.get("/v1/labyrinths/presets", headers={"origin": STRANGER})
    assert looked.status_code == 200
