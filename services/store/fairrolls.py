"""The nonces rolled under each provably fair commitment, kept in Redis.

A (commitment, nonce) rolls at most once, and a commitment rolls at most its budget of
nonces: a client cannot roll the same nonce again with another client seed or expression
and keep the result it likes, nor roll without end. The very same roll asked again (a
retry: same client seed and expression) answers again, since it cannot differ. The
record lives a day past the commitment's expiry (then its server seed is revealed and
nothing more can roll).
"""

from __future__ import annotations

import hashlib

from services.dice.fair import CommitmentError
from services.store.client import AnyRedis
from services.store.keys import Keys

# Kept a day past the commitment's expiry, so a late retry still finds its nonce used.
KEEP_AFTER_EXPIRY = 24 * 3600

# Atomic: a nonce used already, or a budget spent, records nothing.
_CLAIM = """
local seen = redis.call('HGET', KEYS[1], ARGV[1])
if seen then
  if seen == ARGV[4] then return 0 end
  return -1
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[2]) then return -2 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
return 1
"""


class FairRolls:
    """The rolled nonces of one tenant's commitments."""

    def __init__(self, client: AnyRedis, keys: Keys) -> None:
        self.client = client
        self.keys = keys
        self._claim = client.register_script(_CLAIM)

    def claim(
        self, commitment_id: str, nonce: int, roll: str, budget: int, expires_at: int
    ) -> None:
        """Record `nonce` as rolled under `commitment_id` for `roll` (what decides the
        dice besides the seeds: client seed and expression), or CommitmentError."""
        key = self.keys.fair_rolls(commitment_id)
        fingerprint = hashlib.sha256(roll.encode()).hexdigest()
        args: list[str | int] = [nonce, budget, expires_at + KEEP_AFTER_EXPIRY, fingerprint]
        found = self._claim(keys=[key], args=args)
        if found == -1:
            raise CommitmentError(
                f"nonce {nonce} was rolled under this commitment already, with another client "
                "seed or expression: use the next nonce",
                code="nonce_used",
            )
        if found == -2:
            raise CommitmentError(
                f"this commitment has rolled its {budget} nonces: create a new one",
                code="commitment_exhausted",
            )

    def used(self, commitment_id: str) -> list[int]:
        """The nonces rolled under `commitment_id`, in order."""
        return sorted(int(n) for n in self.client.hkeys(self.keys.fair_rolls(commitment_id)))
