"""Exact odds of a group check under either group mode, for every allowed group size."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from services.maze.bands import BANDS, BandName
from services.maze.checks import CheckSpec
from services.maze.exploding import p_at_least
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_RULES, MazeRules


class GroupOdds(MazeModel):
    """P(the group succeeds) and, in `sum` mode, P(each band of the summed margin).

    Every probability is exact (`error_bound` 0, `exact` true; the fields are kept for
    clients that read them).
    """

    mode: str
    success: Fraction
    bands: dict[BandName, Fraction] | None
    error_bound: Fraction
    exact: bool


def _cumulative(dice: Sequence[int], top: int) -> tuple[list[int], int]:
    """(c, scale) with c[n] / scale = P(the sum of exploding dice ≤ n), n in 0..top.

    One exploding d`s` has the generating function (x + … + x^(s−1)) / (s − x^s): a face
    r < s with probability 1/s, each explosion one more factor x^s/s. Multiplying the
    series by one die is a shift-and-add by the numerator, then the division by
    s − x^s, the recurrence b[n] = (a[n] + b[n−s]) / s. Kept as integers over a common
    denominator (s^E per die, E = top // s + 1, so every division is exact), each die
    costs O(top) additions however many dice there are: 16 members are as cheap as 2.
    """
    series = [1] + [0] * top  # series[n] / scale = P(the dice so far sum to n)
    scale = 1
    for s in dice:
        e = top // s + 1
        lift = s ** (e - 1)
        prefix = [0]
        for value in series:
            prefix.append(prefix[-1] + value)
        out = [0] * (top + 1)
        for n in range(top + 1):
            shifted = prefix[n] - prefix[max(0, n - s + 1)]  # Σ_{r=1}^{s−1} series[n − r]
            out[n] = shifted * lift + (out[n - s] // s if n >= s else 0)
        series, scale = out, scale * s**e
    running, cumulative = 0, []
    for value in series:
        running += value
        cumulative.append(running)
    return cumulative, scale


def dice_sum_at_most(dice: Sequence[int], top: int) -> list[Fraction]:
    """P(the sum of exploding dice ≤ n) for n in 0..top, exactly."""
    cumulative, scale = _cumulative(dice, top)
    return [Fraction(c, scale) for c in cumulative]


def _sum_odds(members: Sequence[CheckSpec], dc: int) -> GroupOdds:
    """Exact odds of the summed scores: P(Σ dice ≥ t − Σ modifiers) from the series."""
    shift = sum(m.modifier for m in members)
    lows = [b.low for b in BANDS if b.low is not None]
    # P(total ≥ t) = 1 − P(Σ dice ≤ t − 1 − shift); only thresholds up to DC + 9 matter.
    top = max(0, dc + max(lows) - 1 - shift)
    cumulative, scale = _cumulative([m.die for m in members], top)

    def at_least(t: int) -> Fraction:
        below = t - 1 - shift
        return Fraction(1) if below < 0 else 1 - Fraction(cumulative[below], scale)

    bands: dict[BandName, Fraction] = {}
    above = Fraction(0)
    for band in BANDS:
        reached = Fraction(1) if band.low is None else at_least(dc + band.low)
        bands[band.name] = reached - above
        above = reached
    return GroupOdds(
        mode="sum", success=at_least(dc), bands=bands, error_bound=Fraction(0), exact=True
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
