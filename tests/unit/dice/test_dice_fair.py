"""Provably fair rolls: commit, roll, reveal after expiry, verify."""

from __future__ import annotations

import hashlib

import pytest

from services.dice import DiceError, HmacRng, roll
from services.dice.fair import fair_roll, issue_commitment, reveal, verify

KEY = b"test key of at least thirty-two bytes"


def test_a_committed_roll_verifies_after_the_reveal() -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60, entropy=b"0123456789abcdef")
    r = fair_roll(KEY, c.id, "my seed", 4, "3d6!+1", now=1_010)
    assert r.rng is not None and r.rng["hash"] == c.hash and "server_seed" not in r.rng
    seed = reveal(KEY, c.id, now=1_060)
    assert hashlib.sha256(seed.encode()).hexdigest() == c.hash
    v = verify("3d6!+1", seed, "my seed", 4, c.hash)
    assert v.hash_matches is True
    assert [d.face for d in v.roll.dice] == [d.face for d in r.dice]
    assert v.roll.total == roll("3d6!+1", HmacRng(seed, "my seed", 4)).total


def test_the_server_seed_is_not_revealed_while_rolls_are_accepted() -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60)
    with pytest.raises(DiceError) as info:
        reveal(KEY, c.id, now=1_059)
    assert info.value.code == "commitment_active"


def test_no_roll_is_accepted_once_the_seed_may_be_revealed() -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60)
    with pytest.raises(DiceError) as info:
        fair_roll(KEY, c.id, "s", 0, "1d20", now=1_060)
    assert info.value.code == "commitment_expired"


@pytest.mark.parametrize(
    "mangle", [lambda s: s[:-1] + ("A" if s[-1] != "A" else "B"), lambda s: "x", lambda s: s + "=="]
)
def test_a_forged_or_mangled_commitment_is_refused(mangle: object) -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60)
    with pytest.raises(DiceError) as info:
        fair_roll(KEY, mangle(c.id), "s", 0, "1d20", now=1_010)  # type: ignore[operator]
    assert info.value.code == "invalid_commitment"


def test_a_commitment_from_another_key_is_refused() -> None:
    c = issue_commitment(b"another key, also long enough....", now=1_000, ttl_seconds=60)
    with pytest.raises(DiceError):
        reveal(KEY, c.id, now=2_000)


def test_verification_reports_a_wrong_hash() -> None:
    assert verify("1d20", "seed", "c", 0, "00" * 32).hash_matches is False
    assert verify("1d20", "seed", "c", 0, "é" * 64).hash_matches is False  # never a TypeError


@pytest.mark.parametrize(
    ("client_seed", "nonce", "code"),
    [("x" * 300, 0, "invalid_client_seed"), ("ok", -1, "invalid_nonce")],
)
def test_bad_fair_inputs_are_refused(client_seed: str, nonce: int, code: str) -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60)
    with pytest.raises(DiceError) as info:
        fair_roll(KEY, c.id, client_seed, nonce, "1d20", now=1_010)
    assert info.value.code == code


def test_a_commitment_belongs_to_the_tenant_it_was_issued_to() -> None:
    c = issue_commitment(KEY, now=1_000, ttl_seconds=60, tenant="acme")
    assert fair_roll(KEY, c.id, "s", 0, "1d20", now=1_010, tenant="acme").total >= 1
    for other in ("", "acme2", "ACME"):
        with pytest.raises(DiceError) as info:
            fair_roll(KEY, c.id, "s", 0, "1d20", now=1_010, tenant=other)
        assert info.value.code == "invalid_commitment"
    with pytest.raises(DiceError) as info:
        reveal(KEY, c.id, now=1_060, tenant="other")
    assert info.value.code == "invalid_commitment"
    assert reveal(KEY, c.id, now=1_060, tenant="acme")
