"""Exact (or error-bounded) odds of a group check under either group mode."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from services.dice import probability
from services.maze.bands import BANDS, BandName
from services.maze.checks import CheckSpec
from services.maze.exploding import p_at_least
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_RULES, MazeRules


class GroupOdds(MazeModel):
    """P(the group succeeds) and, in `sum` mode, P(each band of the summed margin).

    Every probability is within `error_bound` of the value given (0: exact).
    """

    mode: str
    success: Fraction
    bands: dict[BandName, Fraction] | None
    error_bound: Fraction
    exact: bool


def _sum_tails(members: Sequence[CheckSpec]) -> tuple[dict[int, Fraction], Fraction, int]:
    """P(sum ≥ t) as a function table for the band thresholds' use: (pmf, error, tail_lo).

    One member is the closed form; more go through the dice engine's exact enumeration,
    whose unenumerated tail (all of it above every enumerated value) is the error.
    """
    expr = " + ".join(f"1d{m.die}!{m.modifier:+d}" for m in members)
    dist = probability(expr).dist
    pmf = {v: Fraction(w, dist.den) for v, w in dist.pmf.items()}
    tail_lo = int(dist.tlo) if dist.tail else max(dist.pmf) + 1
    return pmf, Fraction(dist.tail, dist.den), tail_lo


def _sum_odds(members: Sequence[CheckSpec], dc: int) -> GroupOdds:
    if len(members) == 1:
        m = members[0]

        def at_least(t: int) -> Fraction:
            return p_at_least(m.die, t - m.modifier)

        error = Fraction(0)
    else:
        pmf, error, tail_lo = _sum_tails(members)

        def at_least(t: int) -> Fraction:
            # The tail lies in [tail_lo, ∞): counted when wholly at or above t.
            hit = sum((p for v, p in pmf.items() if v >= t), Fraction())
            return hit + (error if tail_lo >= t else 0)

    bands: dict[BandName, Fraction] = {}
    above = Fraction(0)
    for band in BANDS:
        reached = Fraction(1) if band.low is None else at_least(dc + band.low)
        bands[band.name] = reached - above
        above = reached
    return GroupOdds(
        mode="sum", success=at_least(dc), bands=bands, error_bound=error, exact=error == 0
    )


def _majority_odds(members: Sequence[CheckSpec], dc: int) -> GroupOdds:
    """P(at least half the members reach the DC): an exact Poisson-binomial sum."""
    counts = [Fraction(1)]  # counts[k] = P(exactly k members so far reach the DC)
    for m in members:
        p = p_at_least(m.die, dc - m.modifier)
        nxt = [Fraction(0)] * (len(counts) + 1)
        for k, q in enumerate(counts):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        counts = nxt
    n = len(members)
    success = sum((q for k, q in enumerate(counts) if 2 * k >= n), Fraction())
    return GroupOdds(
        mode="majority", success=success, bands=None, error_bound=Fraction(0), exact=True
    )


def group_odds(
    members: Sequence[CheckSpec], dc: int, rules: MazeRules = DEFAULT_RULES
) -> GroupOdds:
    """The odds of a group check under `rules.group_mode`."""
    if rules.group_mode == "sum":
        return _sum_odds(members, dc)
    return _majority_odds(members, dc)
