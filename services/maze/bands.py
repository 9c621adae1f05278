"""The outcome bands of the chart: margin ranges and the adversity tokens each awards."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MazeBand(StrEnum):
    """The seven levels of the chart, best first."""

    INCREDIBLE_SUCCESS = "incredible_success"
    MAJOR_SUCCESS = "major_success"
    SUCCESS = "success"
    SMALL_SUCCESS = "small_success"
    FAILURE = "failure"
    MISERABLE_FAILURE = "miserable_failure"
    CATASTROPHIC_FAILURE = "catastrophic_failure"


BandName = MazeBand  # the name the rules use; GraphQL and OpenAPI see MazeBand


@dataclass(frozen=True, slots=True)
class Band:
    """A level: the margins (total − DC) it covers, inclusive, and tokens awarded."""

    name: BandName
    low: int | None
    high: int | None
    tokens: int

    @property
    def success(self) -> bool:
        """Small success and better are successes (0 over is "closely avoided failure")."""
        return self.low is not None and self.low >= 0

    def contains(self, margin: int) -> bool:
        """Whether `margin` falls in this band."""
        return (self.low is None or margin >= self.low) and (
            self.high is None or margin <= self.high
        )


# The chart, best first, exactly as the text gives it.
BANDS: tuple[Band, ...] = (
    Band(BandName.INCREDIBLE_SUCCESS, 9, None, 0),
    Band(BandName.MAJOR_SUCCESS, 5, 8, 0),
    Band(BandName.SUCCESS, 1, 4, 0),
    Band(BandName.SMALL_SUCCESS, 0, 0, 0),
    Band(BandName.FAILURE, -4, -1, 1),
    Band(BandName.MISERABLE_FAILURE, -8, -5, 1),
    Band(BandName.CATASTROPHIC_FAILURE, None, -9, 2),
)
BY_NAME: dict[BandName, Band] = {b.name: b for b in BANDS}


def band_for(margin: int) -> Band:
    """The band a margin (total − DC) falls in."""
    return next(b for b in BANDS if b.contains(margin))


def rank(name: BandName) -> int:
    """0 for the best band, 6 for the worst: lower is better."""
    return [b.name for b in BANDS].index(name)


def tokens_awarded(name: BandName) -> int:
    """Adversity tokens a failure at this level grants (1, 1, 2; none on success)."""
    return BY_NAME[name].tokens


def better_bands(margin: int) -> list[tuple[Band, int]]:
    """Every band better than the margin's, with the fewest points that reach it."""
    current = rank(band_for(margin).name)
    out: list[tuple[Band, int]] = []
    for band in BANDS[:current]:
        assert band.low is not None  # only the worst band is open below
        out.append((band, band.low - margin))
    return out
