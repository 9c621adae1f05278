"""Session role tokens: signed, expiring, bound to one session, role and member."""

from __future__ import annotations

import pytest

from api.sessions.tokens import (
    Forbidden,
    InvalidToken,
    SessionNotFound,
    authenticate,
    issue_token,
    read_token,
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
