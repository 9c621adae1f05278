"""Exact odds of a check: P(success), P(each band), and taking half against rolling."""

from __future__ import annotations

from fractions import Fraction

from services.maze.bands import BANDS, BandName, rank
from services.maze.checks import NO_TOKENS, CheckSpec, half_band, half_score
from services.maze.exploding import p_margin_at_least
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_RULES, MazeRules
from services.maze.traits import CheckKind


class HalfComparison(MazeModel):
    """Taking half against rolling: the half's band and how a roll compares to it."""

    allowed: bool
    score: int
    band: BandName | None
    p_roll_better: Fraction
    p_roll_same: Fraction
    p_roll_worse: Fraction
    beats_rolling: bool


class CheckOdds(MazeModel):
    """The exact chances of a check, per band and of success (Small success or better)."""

    spec: CheckSpec
    success: Fraction
    bands: dict[BandName, Fraction]
    half: HalfComparison | None


def band_odds(spec: CheckSpec) -> dict[BandName, Fraction]:
    """P(each band), exactly: differences of the closed-form tail of the exploding die."""
    if spec.automatic is not None:
        return {b.name: Fraction(int(b.name is spec.automatic)) for b in BANDS}
    out: dict[BandName, Fraction] = {}
    above = Fraction(0)  # P(margin reaches the band above this one)
    for band in BANDS:
        at_least = (
            Fraction(1)
            if band.low is None
            else p_margin_at_least(spec.die, spec.modifier, spec.dc, band.low)
        )
        out[band.name] = at_least - above
        above = at_least
    return out


def p_success(spec: CheckSpec) -> Fraction:
    """P(Small success or better)."""
    bands = band_odds(spec)
    return sum((p for b, p in bands.items() if rank(b) <= rank(BandName.SMALL_SUCCESS)), Fraction())


def compare_half(
    spec: CheckSpec, bands: dict[BandName, Fraction], rules: MazeRules = DEFAULT_RULES
) -> HalfComparison | None:
    """How taking half compares with rolling; None where taking half does not apply.

    Taking half beats rolling when it is allowed (half ≥ DC) and rolling could fail:
    the half is a certain success. The band comparison says what rolling could gain.
    """
    if spec.kind is not CheckKind.NORMAL or spec.automatic is not None:
        return None
    score = half_score(spec)
    allowed = score >= spec.dc
    zero = Fraction(0)
    if not allowed:
        return HalfComparison(
            allowed=False,
            score=score,
            band=None,
            p_roll_better=zero,
            p_roll_same=zero,
            p_roll_worse=zero,
            beats_rolling=False,
        )
    level = rank(half_band(spec, rules))
    better = sum((p for b, p in bands.items() if rank(b) < level), zero)
    same = sum((p for b, p in bands.items() if rank(b) == level), zero)
    success = sum((p for b, p in bands.items() if rank(b) <= rank(BandName.SMALL_SUCCESS)), zero)
    return HalfComparison(
        allowed=True,
        score=score,
        band=half_band(spec, rules),
        p_roll_better=better,
        p_roll_same=same,
        p_roll_worse=1 - better - same,
        beats_rolling=success < 1,
    )


def check_odds(spec: CheckSpec, rules: MazeRules = DEFAULT_RULES) -> CheckOdds:
    """Every exact probability of a check against its DC."""
    bands = band_odds(spec)
    success = sum(
        (p for b, p in bands.items() if rank(b) <= rank(BandName.SMALL_SUCCESS)), Fraction()
    )
    return CheckOdds(spec=spec, success=success, bands=bands, half=compare_half(spec, bands, rules))


def tokens_allowed(spec: CheckSpec) -> bool:
    """Whether adversity tokens may be spent on this check."""
    return spec.kind not in NO_TOKENS and spec.automatic is None
