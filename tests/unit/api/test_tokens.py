"""Session role tokens: signed, expiring, bound to one session, role and member."""

from __future__ import annotations

import pytest

from api.tables.tokens import (
    DEFAULT_TTL_SECONDS,
    Forbidden,
    InvalidToken,
    SessionNotFound,
    authenticate,
    issue_token,
    read_token,
    rfc3339,
    token_facts,
)

KEY = b"k" * 32
NOW = 1_700_000_000


def test_a_token_grants_its_role_in_its_session_until_it_expires() -> None:
    token = issue_token(KEY, "s1", "player", NOW, member="p1", ttl_seconds=60, tenant="t")
    grant = read_token(KEY, token, NOW + 59)
    assert (grant.session_id, grant.role, grant.member) == ("s1", "player", "p1")
    with pytest.raises(InvalidToken, match="expired"):
        read_token(KEY, token, NOW + 60)


def test_the_default_lifetime_is_twelve_hours() -> None:
    grant = read_token(KEY, issue_token(KEY, "s1", "gm", NOW, tenant="t"), NOW)
    assert grant.expires - grant.issued == 12 * 3600 and grant.member is None


def test_a_token_signed_with_another_key_is_refused() -> None:
    token = issue_token(b"other" * 8, "s1", "gm", NOW, tenant="t")
    with pytest.raises(InvalidToken):
        read_token(KEY, token, NOW)


def test_a_remembered_grant_is_remembered_for_its_key_only() -> None:
    token = issue_token(KEY, "s1", "gm", NOW, tenant="t")
    assert read_token(KEY, token, NOW).role == "gm"  # verified once, then remembered
    with pytest.raises(InvalidToken):
        read_token(b"other" * 8, token, NOW)


def test_a_tampered_payload_is_refused() -> None:
    prefix, _payload, mac = issue_token(KEY, "s1", "spectator", NOW, tenant="t").split(".")
    forged = issue_token(b"x" * 32, "s1", "gm", NOW, tenant="t").split(".")[1]
    with pytest.raises(InvalidToken):
        read_token(KEY, f"{prefix}.{forged}.{mac}", NOW)


@pytest.mark.parametrize("junk", ["", "abc", "v1..", "v2.a.b", "v1.!!!.???", "v1." + "a" * 5000])
def test_junk_is_an_invalid_token(junk: str) -> None:
    with pytest.raises(InvalidToken):
        authenticate(KEY, junk, "s1", NOW, "t")


def test_a_token_for_another_session_is_forbidden() -> None:
    token = issue_token(KEY, "s1", "gm", NOW, tenant="t")
    with pytest.raises(Forbidden):
        authenticate(KEY, token, "s2", NOW, "t")


def test_a_token_of_another_tenant_finds_no_session() -> None:
    token = issue_token(KEY, "s1", "gm", NOW, tenant="acme")
    assert authenticate(KEY, token, "s1", NOW, "acme").tenant == "acme"
    with pytest.raises(SessionNotFound):
        authenticate(KEY, token, "s1", NOW, "globex")


def test_a_player_token_names_exactly_one_member() -> None:
    with pytest.raises(ValueError):
        issue_token(KEY, "s1", "player", NOW, tenant="t")
    with pytest.raises(ValueError):
        issue_token(KEY, "s1", "gm", NOW, member="p1", tenant="t")


def test_refusals_never_echo_the_token() -> None:
    token = issue_token(KEY, "s1", "gm", NOW, tenant="t")
    with pytest.raises(InvalidToken) as caught:
        read_token(b"y" * 32, token, NOW)
    assert token not in str(caught.value) and token.split(".")[1] not in str(caught.value)


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def _respelled(part: str) -> str | None:
    """The same bytes under another spelling (the last character's unused bits set), if any."""
    unused = {2: 4, 3: 2}.get(len(part) % 4, 0)  # base64 chars left over → unused low bits
    if not unused:
        return None
    index = _ALPHABET.index(part[-1])
    return part[:-1] + _ALPHABET[index | ((1 << unused) - 1)]


def test_a_token_has_one_spelling() -> None:
    token = issue_token(KEY, "s1", "gm", NOW, tenant="t")
    assert read_token(KEY, token, NOW).role == "gm"
    prefix, payload, mac = token.split(".")
    padded = [f"{token}=", f"{prefix}.{payload}=.{mac}", f"{token}=="]
    respelled = [f"{prefix}.{alt}.{mac}" if alt else None for alt in [_respelled(payload)]] + [
        f"{prefix}.{payload}.{alt}" if alt else None for alt in [_respelled(mac)]
    ]
    spellings = padded + [s for s in respelled if s is not None and s != token]
    assert len(spellings) >= 4, "the test needs a part with unused bits"
    for other in spellings:
        with pytest.raises(InvalidToken):
            read_token(KEY, other, NOW)


def test_tokens_carry_a_fresh_id_and_their_issue_time_in_ms() -> None:
    first = read_token(KEY, issue_token(KEY, "s1", "gm", NOW, tenant="t"), NOW)
    second = issue_token(KEY, "s1", "gm", NOW, tenant="t", now_ms=NOW * 1000 + 7)
    again = read_token(KEY, second, NOW)
    assert first.token_id and again.token_id and first.token_id != again.token_id
    assert (first.issued_at_ms, again.issued_at_ms) == (NOW * 1000, NOW * 1000 + 7)
    facts = token_facts(second)
    assert facts["token_id"] == again.token_id
    assert facts["expires_at"] == rfc3339(NOW + DEFAULT_TTL_SECONDS)
