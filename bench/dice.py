"""Dice engine benchmark: Daedalus against the baselines named in issue 2.

What it measures, each line against a baseline timed in the same run:

* one roll of ``1d10!+2`` against Avrae's ``d20`` (``1d10e10+2``): with the text
  given each call (both engines cache the parse by text), with the expression
  compiled / parsed beforehand, with a fresh seeded generator per call (the per-request
  path of a seeded roll), and with the per-die result tree materialised;
* parsing (and for Daedalus compiling) a text never seen before;
* a vectorised batch of 10^6 exploding d10 against a numpy-vectorised re-roll loop
  (``bench/baselines/dice_numpy.py``, issue 18) and a plain Python ``random`` loop. The
  numpy loop's time depends on its seed: numpy finds the 10s of a bool array at most 10%
  true with a memchr scan, some 2.5 times slower here than the branchless scan it uses
  above 10%, and the share of 10s falls on either side. The loop is timed with the first
  seed from ``SEED`` up that puts it on the fast scan, at its best;
* the exact P(1d10! + 2 >= 13) against ``dyce`` at explosion depth 5 (and it checks
  that Daedalus gives exactly 1/10, exiting non-zero if not);
* the exact distribution of ``50d6kh3`` (and, for the trend, ``500d6kh3``) against
  ``icepool``'s ``d6.pool(n).highest(3).sum()`` (issue 18, item 6), after checking that
  both give the same distribution.

Ours and the baseline are timed alternately, repeat after repeat (each side taking each
place in the order in turn), and each keeps its best run (``time.perf_counter``, garbage
collection off while timing, as in ``timeit``). The number of calls per run is
calibrated so that one run takes about ``RUN_SECONDS``; the whole benchmark takes well
under a minute.

Output: one JSON object per line, with the keys ``bench``, ``case``, ``unit``,
``value`` (ours), ``baseline``, ``baseline_value``, ``ratio`` (how many times better
than the baseline: ``baseline_value / value`` for times) and ``target`` (the ratio the
issue asks for, or null for lines that are only informative).
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
import warnings
from collections.abc import Callable
from fractions import Fraction
from importlib.metadata import version

import d20
import icepool
import numpy as np
from dyce import H
from dyce.evaluation import explode_n
from dyce.lifecycle import ExperimentalWarning

from bench.baselines.dice_numpy import exploding_d10
from services.dice import SimRng, SystemRng, parse, probability, roll, seeded_rng
from services.dice.batch import roll_batch
from services.dice.roller import compile_expression, roll_compiled

OURS = "1d10!+2"
THEIRS = "1d10e10+2"  # d20's spelling: explode on 10
CHECK = "1d10!+2 >= 13"
REPEATS = 9
RUN_SECONDS = 0.1
BATCH_N = 10**6
BATCH_REPEATS = 41
SEED = 20_240_601

D20 = f"d20 {version('d20')}"
DYCE = f"dyce {version('dyce')}"
ICEPOOL = f"icepool {version('icepool')}"

# A timed side: runs its operation n times.
Side = Callable[[int], object]


def _time(side: Side, n: int) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        side(n)
        return time.perf_counter() - start
    finally:
        gc.enable()


def _calls_per_run(side: Side) -> int:
    """Calls that take about RUN_SECONDS (after a warm-up call)."""
    side(1)
    n = 1
    while True:
        elapsed = _time(side, n)
        if elapsed >= RUN_SECONDS / 10 or n >= 10**7:
            return max(1, int(n * RUN_SECONDS / max(elapsed, 1e-9)))
        n *= 10


def _best(
    sides: dict[str, Side], fixed_n: int | None = None, warm: bool = False, repeats: int = REPEATS
) -> dict[str, float]:
    """Best seconds per call of each side, the sides interleaved within each repeat.

    `warm`: each timed run follows an untimed one of the same side. A batch allocates
    megabytes a call; whether its memory is fresh from the system (a page fault every
    4 KiB) or what the side before it freed depends on the order of the sides, and cost
    one side or the other a third of its time. Warm, each side reuses its own.
    """
    counts = {name: fixed_n or _calls_per_run(side) for name, side in sides.items()}
    best = {name: float("inf") for name in sides}
    names = list(sides)
    for repeat in range(repeats):
        # Each side takes each place in the order in turn: what ran just before a side
        # can cost it (caches, the allocator's free memory).
        for name in names[repeat % len(names) :] + names[: repeat % len(names)]:
            side = sides[name]
            if warm:
                side(counts[name])
            best[name] = min(best[name], _time(side, counts[name]) / counts[name])
    return best


def _emit(
    case: str,
    unit: str,
    value: float,
    baseline: str,
    baseline_value: float,
    target: float | None,
) -> None:
    line = {
        "bench": "dice",
        "case": case,
        "unit": unit,
        "value": round(value, 4),
        "baseline": baseline,
        "baseline_value": round(baseline_value, 4),
        "ratio": round(baseline_value / value, 2),
        "target": target,
    }
    print(json.dumps(line), flush=True)


def _us(seconds: float) -> float:
    return seconds * 1e6


def _ns(seconds: float) -> float:
    return seconds * 1e9


def bench_rolls() -> None:
    """Single rolls of 1d10!+2: cached text, precompiled, seeded, with the tree."""
    rng = SystemRng()
    d20_roll = d20.roll

    def ours_text(n: int) -> None:
        for _ in range(n):
            roll(OURS, rng)

    def d20_text(n: int) -> None:
        for _ in range(n):
            d20_roll(THEIRS)

    r = _best({"ours": ours_text, "d20": d20_text})
    _emit(
        "roll_1d10!+2_cached_parse",
        "us/roll",
        _us(r["ours"]),
        f"{D20} d20.roll('{THEIRS}')",
        _us(r["d20"]),
        10,
    )

    compiled = compile_expression(parse(OURS))
    tree = d20.parse(THEIRS)
    roller = d20.Roller()

    def ours_compiled(n: int) -> None:
        for _ in range(n):
            roll_compiled(compiled, rng)

    def d20_ast(n: int) -> None:
        roller_roll = roller.roll
        for _ in range(n):
            roller_roll(tree)

    r = _best({"ours": ours_compiled, "d20": d20_ast})
    _emit(
        "roll_1d10!+2_precompiled",
        "us/roll",
        _us(r["ours"]),
        f"{D20} Roller().roll(d20.parse('{THEIRS}'))",
        _us(r["d20"]),
        10,
    )

    def ours_seeded(n: int) -> None:
        for _ in range(n):
            roll(OURS, seeded_rng("bench"))

    r = _best({"ours": ours_seeded, "d20": d20_text})
    _emit(
        "roll_1d10!+2_seeded",
        "us/roll",
        _us(r["ours"]),
        f"{D20} d20.roll('{THEIRS}')",
        _us(r["d20"]),
        None,
    )

    def ours_tree(n: int) -> None:
        for _ in range(n):
            roll(OURS, rng).to_dict()

    def d20_tree(n: int) -> None:
        for _ in range(n):
            str(d20_roll(THEIRS))

    r = _best({"ours": ours_tree, "d20": d20_tree})
    _emit(
        "roll_1d10!+2_with_tree",
        "us/roll",
        _us(r["ours"]),
        f"{D20} str(d20.roll('{THEIRS}'))",
        _us(r["d20"]),
        None,
    )


def bench_parse() -> None:
    """Parsing a text not seen before (both caches bypassed: the constant varies)."""
    ours_texts = [f"1d10!+{i}" for i in range(1000)]
    d20_texts = [f"1d10e10+{i}" for i in range(1000)]
    # d20.parse keeps an LFU cache by text; its lark parser underneath is the uncached path.
    lark_parse = d20.diceast.parser.parse

    def ours(n: int) -> None:
        for i in range(n):
            compile_expression(parse(ours_texts[i % 1000]))

    def theirs(n: int) -> None:
        for i in range(n):
            lark_parse(d20_texts[i % 1000], start="expr")

    r = _best({"ours": ours, "d20": theirs})
    _emit(
        "parse_uncached_1d10!+2",
        "us/parse",
        _us(r["ours"]),
        f"{D20} d20.diceast.parser.parse(text, start='expr') (uncached lark parse)",
        _us(r["d20"]),
        None,
    )


def _python_exploding_d10(n: int) -> list[int]:
    randint = random.Random(SEED).randint
    totals = [0] * n
    for i in range(n):
        total = face = randint(1, 10)
        while face == 10:
            face = randint(1, 10)
            total += face
        totals[i] = total
    return totals


def _check_mean(what: str, totals: list[int] | np.ndarray[tuple[int], np.dtype[np.int64]]) -> None:
    """A sanity check on what is being timed: an exploding d10 averages 5.5 / 0.9."""
    mean = float(np.mean(totals))
    if abs(mean - 55 / 9) > 0.05:
        sys.exit(f"bench/dice.py: {what} averages {mean:.4f} over {len(totals)} rolls, not 6.111")


def _fast_numpy_seed() -> int:
    """The first seed from SEED up whose first throws in the numpy loop are over 10% tens,
    so that its `flatnonzero` takes numpy's branchless scan (see the module docstring)."""
    seed = SEED
    while (
        np.count_nonzero(np.random.default_rng(seed).integers(1, 11, BATCH_N) == 10) * 10 <= BATCH_N
    ):
        seed += 1
    return seed


def bench_batch() -> None:
    """10^6 exploding d10 at once, against numpy's re-roll loop and a plain Python loop."""
    numpy_seed = _fast_numpy_seed()
    _check_mean("roll_batch('1d10!')", roll_batch("1d10!", BATCH_N, SimRng(SEED)).totals)
    _check_mean("the numpy loop", exploding_d10(BATCH_N, numpy_seed))
    _check_mean("the Python loop", _python_exploding_d10(BATCH_N))

    def numpy_loop(n: int) -> None:
        exploding_d10(n, numpy_seed)

    def ours_sim(n: int) -> None:
        roll_batch("1d10!", n, SimRng(SEED))

    def ours_system(n: int) -> None:
        roll_batch("1d10!", n, SystemRng())

    # Two groups: a side timed after the Python loop ran some 10% slower (both ways
    # round), whatever the warm-up, so the numpy loop and ours are timed on their own,
    # and ours again beside the Python loop for the lines against it.
    # A run takes some 5 ms: best of BATCH_REPEATS, the host's noise is larger than 9 hide.
    r = _best({"sim": ours_sim, "numpy": numpy_loop}, BATCH_N, warm=True, repeats=BATCH_REPEATS)
    slow = _best(
        {"sim": ours_sim, "system": ours_system, "python": _python_exploding_d10},
        fixed_n=BATCH_N,
        warm=True,
    )
    _emit(
        "batch_1e6_exploding_d10_vs_numpy",
        "ns/roll",
        _ns(r["sim"]),
        f"numpy PCG64 integers(1, 11), re-rolling the 10s (bench/baselines/dice_numpy.py,"
        f" seed {numpy_seed}: on numpy's fast scan)",
        _ns(r["numpy"]),
        1.0,
    )
    baseline = "Python loop random.Random(seed).randint(1, 10), re-rolled on 10"
    _emit(
        "batch_1e6_exploding_d10",
        "ns/roll",
        _ns(slow["sim"]),
        baseline,
        _ns(slow["python"]),
        20,
    )
    _emit(
        "batch_1e6_exploding_d10_systemrng",
        "ns/roll",
        _ns(slow["system"]),
        baseline,
        _ns(slow["python"]),
        None,
    )


def bench_exact() -> None:
    """Exact P(1d10! + 2 >= 13), which is 1/10, against dyce at explosion depth 5."""
    got = probability(CHECK).success
    if got != Fraction(1, 10):
        sys.exit(f"bench/dice.py: P({CHECK}) is {got}, not exactly 1/10")

    def dyce_p() -> Fraction:
        h = (explode_n(H(10), n=5) + 2).ge(13)
        return Fraction(h.get(True, 0), h.total)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExperimentalWarning)
        if dyce_p() != Fraction(1, 10):
            sys.exit("bench/dice.py: the dyce baseline does not give 1/10")

        def ours(n: int) -> None:
            for _ in range(n):
                probability(CHECK).success  # noqa: B018

        def theirs(n: int) -> None:
            for _ in range(n):
                dyce_p()

        r = _best({"ours": ours, "dyce": theirs})
    _emit(
        "exact_p_exploding_d10+2>=13",
        "us/eval",
        _us(r["ours"]),
        f"{DYCE} (explode_n(H(10), n=5) + 2).ge(13)",
        _us(r["dyce"]),
        10,
    )


def bench_keep_highest() -> None:
    """Exact distribution of the 3 highest of n d6, against icepool's order statistics."""
    for n, target in ((50, 1.0), (500, None)):
        text = f"{n}d6kh3"
        ours_dist = probability(text).dist
        theirs_die = icepool.d6.pool(n).highest(3).sum()
        theirs = {
            int(v): Fraction(theirs_die.quantity(v), theirs_die.denominator())
            for v in theirs_die.outcomes()
        }
        mine = {v: Fraction(w, ours_dist.den) for v, w in ours_dist.pmf.items()}
        if mine != {v: p for v, p in theirs.items() if p}:
            sys.exit(f"bench/dice.py: {text} differs from icepool's distribution")

        def ours(calls: int, text: str = text) -> None:
            for _ in range(calls):
                probability(text)

        def theirs_side(calls: int, n: int = n) -> None:
            for _ in range(calls):
                icepool.d6.pool(n).highest(3).sum()

        r = _best({"ours": ours, "icepool": theirs_side})
        _emit(
            f"exact_distribution_{text}",
            "us/eval",
            _us(r["ours"]),
            f"{ICEPOOL} d6.pool({n}).highest(3).sum()",
            _us(r["icepool"]),
            target,
        )


def main() -> None:
    bench_rolls()
    bench_parse()
    bench_batch()
    bench_exact()
    bench_keep_highest()


if __name__ == "__main__":
    main()
