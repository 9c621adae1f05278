"""Random number generators passed explicitly to every roll.

All three draw unsigned 64-bit words and map them to a range by rejection sampling, so
every face is exactly equally likely:

    limit = 2**64 - (2**64 % n);  draw x until x < limit;  return x % n

- `HmacRng` (seeded and provably fair rolls) is the documented, portable generator:
  word stream = the big-endian 8-byte chunks of
  HMAC-SHA256(key=server_seed, msg=f"{client_seed}:{nonce}:{block}") for block = 0, 1, ...
- `SystemRng` draws from the operating system's CSPRNG (production default).
- `SimRng` is numpy's PCG64 with 32-bit multiply-shift sampling (fast, seeded; for
  simulations and vectorised batches).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import struct
import sys
from typing import Protocol

import numpy as np
import numpy.typing as npt

_TWO64 = 1 << 64
_TWO32 = 1 << 32
# On a little-endian machine a 64-bit word's memory holds its low half first, so viewing
# PCG64's raw output as 32-bit words gives SimRng's stream without a copy.
_LITTLE_ENDIAN = sys.byteorder == "little"
_LIMITS: dict[int, int] = {}
_UNPACK4 = struct.Struct(">4Q").unpack


def _limit(n: int) -> int:
    lim = _LIMITS.get(n)
    if lim is None:
        if n < 1 or n > _TWO64:
            raise ValueError(f"range size must be in 1..2**64, not {n}")
        lim = _LIMITS[n] = _TWO64 - (_TWO64 % n)
    return lim


class Rng(Protocol):
    """What the roller needs from a generator."""

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        ...


class VectorRng(Rng, Protocol):
    """What vectorised batches need besides `below`."""

    def integers(self, n: int, size: int, low: int = 0) -> npt.NDArray[np.int64]:
        """`size` uniform integers in [low, low + n) as an int64 array."""
        ...


class _WordRng:
    """Shared rejection sampling over a buffered stream of 64-bit words."""

    __slots__ = ("_buf", "_pos")

    def __init__(self) -> None:
        self._buf: list[int] = []
        self._pos = 0

    def _refill(self) -> list[int]:
        raise NotImplementedError

    def _words(self, count: int) -> npt.NDArray[np.uint64]:
        out = np.empty(count, dtype=np.uint64)
        filled = 0
        while filled < count:
            if self._pos >= len(self._buf):
                self._buf, self._pos = self._refill(), 0
            take = self._buf[self._pos : self._pos + count - filled]
            out[filled : filled + len(take)] = take
            filled += len(take)
            self._pos += len(take)
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        lim = _LIMITS.get(n) or _limit(n)
        while True:
            pos = self._pos
            buf = self._buf
            if pos >= len(buf):
                buf = self._buf = self._refill()
                pos = 0
            x = buf[pos]
            self._pos = pos + 1
            if x < lim:
                return x % n

    def integers(self, n: int, size: int, low: int = 0) -> npt.NDArray[np.int64]:
        """`size` uniform integers in [low, low + n), the same word stream as `below`."""
        lim = _limit(n)
        nn = np.uint64(n)
        words = self._words(size)
        if lim < _TWO64:
            ok = words < np.uint64(lim)
            if not ok.all():  # rare: compact, then top up from the stream
                kept = words[ok]
                while len(kept) < size:
                    more = self._words(size - len(kept))
                    kept = np.concatenate([kept, more[more < np.uint64(lim)]])
                words = kept
        out: npt.NDArray[np.int64] = np.remainder(words, nn).view(np.int64)
        if low:
            out += low
        return out


class HmacRng(_WordRng):
    """The portable, verifiable generator: HMAC-SHA256 in counter mode."""

    __slots__ = ("_block", "_key", "_prefix", "client_seed", "nonce", "public", "server_seed")

    def __init__(
        self, server_seed: str, client_seed: str = "", nonce: int = 0, *, public: bool = False
    ) -> None:
        super().__init__()
        self.public = public  # a plain seed may be echoed in results; a server seed never
        self.server_seed = server_seed
        self.client_seed = client_seed
        self.nonce = nonce
        self._key = server_seed.encode()
        self._prefix = f"{client_seed}:{nonce}:"
        self._block = 0

    def _refill(self) -> list[int]:
        msg = (self._prefix + str(self._block)).encode()
        self._block += 1
        return list(_UNPACK4(hmac.digest(self._key, msg, "sha256")))

    def _words(self, count: int) -> npt.NDArray[np.uint64]:
        # Bulk path: whole blocks at once; the stream is the same as one at a time.
        first = self._buf[self._pos :]
        self._pos = len(self._buf)
        need = max(count - len(first), 0)
        nblocks = -(-need // 4)
        key, prefix, start = self._key, self._prefix, self._block
        raw = b"".join(
            hmac.digest(key, (prefix + str(b)).encode(), "sha256")
            for b in range(start, start + nblocks)
        )
        self._block += nblocks
        words = np.frombuffer(raw, dtype=">u8").astype(np.uint64)
        allw = np.concatenate([np.array(first, dtype=np.uint64), words])
        self._buf = allw[count:].tolist()
        self._pos = 0
        return allw[:count]


class SystemRng(_WordRng):
    """The operating system's CSPRNG, read 64 bytes first, then in reads that double up
    to 4 KiB: a session command needs a few numbers and reads a few (one 4 KiB read and
    unpack costs about 13 µs, some 3% of a command's CPU), a long roll still reads in
    bulk."""

    __slots__ = ("_next",)

    def __init__(self) -> None:
        super().__init__()
        self._next = 8  # words in the next read

    def _refill(self) -> list[int]:
        count = self._next
        self._next = min(2 * count, 512)
        return list(struct.unpack(f"<{count}Q", os.urandom(8 * count)))

    def _words(self, count: int) -> npt.NDArray[np.uint64]:
        first = np.array(self._buf[self._pos :], dtype=np.uint64)
        self._pos = len(self._buf)
        need = max(count - len(first), 0)
        fresh = np.frombuffer(os.urandom(8 * need), dtype="<u8").astype(np.uint64)
        return np.concatenate([first, fresh])[:count]


class SimRng:
    """numpy PCG64 seeded from SHA-256 of the seed: fast, reproducible, not for secrets.

    The stream is PCG64's 32-bit words (each 64-bit output gives its low half, then its
    high half); a word x maps to [0, n) by Lemire's multiply-shift, m = x·n, result
    m >> 32, rejecting the (2**32 mod n) low values of m mod 2**32 that would bias it.
    Ranges up to 2**32. numpy's own `Generator.integers` draws that stream, word for word,
    for a range that fits 32 bits, in one pass in C, and SimRng lets it; numpy does not
    promise to keep its mapping across releases, so an import checks it does
    (`numpy_draws`) and where it does not, SimRng maps PCG64's raw output itself.
    """

    __slots__ = ("_bitgen", "_buf", "_gen", "_pos")
    numpy_draws = True  # whether numpy's `Generator.integers` draws this stream (checked)

    def __init__(self, seed: str | int) -> None:
        digest = hashlib.sha256(str(seed).encode()).digest()
        self._bitgen = np.random.PCG64(np.random.SeedSequence(int.from_bytes(digest, "big")))
        self._gen = np.random.Generator(self._bitgen) if self.numpy_draws else None
        self._buf: list[int] = []  # words drawn ahead, next in the stream
        self._pos = 0

    def _words32(self, count: int) -> npt.NDArray[np.uint32]:
        """The stream's next words: `count` of them from numpy, or PCG64's raw output's
        halves (an odd count then draws one more, which the caller keeps)."""
        if self._gen is not None:
            words: npt.NDArray[np.uint32] = self._gen.integers(0, _TWO32, count, dtype=np.uint32)
            return words
        raw = self._bitgen.random_raw(-(-count // 2))
        if _LITTLE_ENDIAN:
            return raw.view(np.uint32)
        halves = np.empty(2 * len(raw), dtype=np.uint32)
        halves[0::2] = raw & np.uint64(0xFFFFFFFF)
        halves[1::2] = raw >> np.uint64(32)
        return halves

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if not 1 <= n <= _TWO32:
            raise ValueError(f"SimRng draws ranges up to 2**32, not {n}")
        reject = (_TWO32 - n) % n
        while True:
            if self._pos >= len(self._buf):
                self._buf, self._pos = self._words32(1024).tolist(), 0
            m = self._buf[self._pos] * n
            self._pos += 1
            if m & 0xFFFFFFFF >= reject:
                return m >> 32

    def integers(self, n: int, size: int, low: int = 0) -> npt.NDArray[np.int64]:
        """`size` uniform integers in [low, low + n), the same stream as `below`."""
        if not 1 <= n <= _TWO32:
            raise ValueError(f"SimRng draws ranges up to 2**32, not {n}")
        if self._gen is not None and n > 1 and self._pos == len(self._buf):
            out: npt.NDArray[np.int64] = self._gen.integers(low, low + n, size)
            return out  # the common case: one pass in C
        out = self._mapped(n, size)
        out += low
        return out

    def _mapped(self, n: int, size: int) -> npt.NDArray[np.int64]:
        """`integers` from 0 by Lemire's mapping in numpy passes: the words drawn ahead
        first, then the stream's, rejected words topped up in stream order (numpy's
        `integers` takes over where it draws the stream, but draws nothing for n = 1)."""
        out = np.empty(0, dtype=np.int64)
        while len(out) < size:
            need = size - len(out)
            ahead = self._buf[self._pos : self._pos + need]
            self._pos += len(ahead)
            if ahead:
                words = np.array(ahead, dtype=np.uint32)
            elif self._gen is not None and n > 1:
                rest: npt.NDArray[np.int64] = self._gen.integers(0, n, need)
                return np.concatenate([out, rest]) if len(out) else rest
            else:
                drawn = self._words32(need)
                words, self._buf, self._pos = drawn[:need], drawn[need:].tolist(), 0
            m = np.multiply(words, np.uint64(n), dtype=np.uint64)
            kept = m[(m & np.uint64(0xFFFFFFFF)) >= (_TWO32 - n) % n]
            kept >>= np.uint64(32)
            out = np.concatenate([out, kept.view(np.int64)]) if len(out) else kept.view(np.int64)
        return out


class _RawDraws(SimRng):
    """SimRng mapping PCG64's raw output itself, whatever numpy's `integers` does."""

    __slots__ = ()
    numpy_draws = False


def _numpy_draws_the_stream() -> bool:
    """Whether numpy's `Generator.integers` draws SimRng's stream here: a known answer."""
    ours, raw = SimRng("numpy draws"), _RawDraws("numpy draws")
    for n in (2, 3, 10, 2**31 + 1, 2**32 - 1, 2**32):
        if ours.below(n) != raw.below(n) or not np.array_equal(
            ours.integers(n, 1001), raw.integers(n, 1001)
        ):
            return False
    return True


SimRng.numpy_draws = _numpy_draws_the_stream()


def seeded_rng(seed: str) -> HmacRng:
    """The generator of a seeded roll: the provably-fair one with empty client seed, nonce 0."""
    return HmacRng(seed, "", 0, public=True)


def new_seed() -> str:
    """A fresh random seed (128 bits, URL-safe) from the CSPRNG."""
    return secrets.token_urlsafe(16)
