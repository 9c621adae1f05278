"""Aggregated results: mergeable counts per shard, a summary with Wilson intervals."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from services.sim.game import ESCAPED_KILL, ESCAPED_PATHS, OUTCOMES, GameResult

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Counts from a batch of games; tallies of shards add up to the job's tally."""

    games: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    encounters: Counter[int] = field(default_factory=Counter)
    traps: int = 0
    disarmed: int = 0

    def add(self, r: GameResult) -> None:
        """Count one game."""
        self.games += 1
        self.outcomes[OUTCOMES[r.outcome]] += 1
        self.turns[r.turns] += 1
        self.encounters[r.encounters] += 1
        self.traps += r.traps
        self.disarmed += r.disarmed

    def merge(self, other: Tally) -> Tally:
        """The tally of both batches."""
        return Tally(
            self.games + other.games,
            self.outcomes + other.outcomes,
            self.turns + other.turns,
            self.encounters + other.encounters,
            self.traps + other.traps,
            self.disarmed + other.disarmed,
        )

    @property
    def escapes(self) -> int:
        """Games the party escaped (by paths or by killing the monster)."""
        return self.outcomes[OUTCOMES[ESCAPED_PATHS]] + self.outcomes[OUTCOMES[ESCAPED_KILL]]

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe form (integer keys become strings)."""
        return {
            "games": self.games,
            "outcomes": dict(self.outcomes),
            "turns": {str(k): v for k, v in sorted(self.turns.items())},
            "encounters": {str(k): v for k, v in sorted(self.encounters.items())},
            "traps": self.traps,
            "disarmed": self.disarmed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Tally:
        """Inverse of `to_json`."""
        return cls(
            int(data["games"]),
            Counter({str(k): int(v) for k, v in data["outcomes"].items()}),
            Counter({int(k): int(v) for k, v in data["turns"].items()}),
            Counter({int(k): int(v) for k, v in data["encounters"].items()}),
            int(data["traps"]),
            int(data["disarmed"]),
        )


def _mean_sd(hist: Counter[int]) -> tuple[float, float]:
    n = sum(hist.values())
    if n == 0:
        return 0.0, 0.0
    mean = sum(k * v for k, v in hist.items()) / n
    var = sum(v * (k - mean) ** 2 for k, v in hist.items()) / max(1, n - 1)
    return mean, math.sqrt(var)


def _quantile(hist: Counter[int], q: float) -> int:
    n = sum(hist.values())
    acc = 0
    for k in sorted(hist):
        acc += hist[k]
        if acc >= q * n:
            return k
    return 0


def summarise(t: Tally) -> dict[str, Any]:
    """The statistics a GM reads: escape rate with its 95% CI, turns, encounters, traps."""
    low, high = wilson(t.escapes, t.games)
    turns_mean, turns_sd = _mean_sd(t.turns)
    enc_mean, enc_sd = _mean_sd(t.encounters)
    return {
        "games": t.games,
        "escape_rate": t.escapes / t.games if t.games else 0.0,
        "escape_ci95": [low, high],
        "outcomes": {o: t.outcomes[o] for o in OUTCOMES},
        "turns": {
            "mean": turns_mean,
            "sd": turns_sd,
            "p10": _quantile(t.turns, 0.1),
            "median": _quantile(t.turns, 0.5),
            "p90": _quantile(t.turns, 0.9),
            "histogram": {str(k): v for k, v in sorted(t.turns.items())},
        },
        "encounters": {"mean": enc_mean, "sd": enc_sd},
        "traps": {
            "triggered_per_game": t.traps / t.games if t.games else 0.0,
            "disarmed_per_game": t.disarmed / t.games if t.games else 0.0,
            "disarm_rate": t.disarmed / t.traps if t.traps else 0.0,
        },
    }


# --- the summary typed: what the API answers (its GraphQL and OpenAPI types) ---------------


class Typed(BaseModel):
    """Base of the summary's models: built from `summarise`'s JSON, never coerced."""

    model_config = ConfigDict(frozen=True, strict=True)


class Outcomes(Typed):
    """How many games ended each way."""

    right_paths: int
    monster_killed: int
    party_defeated: int
    no_cards_left: int
    turn_limit: int


class TurnCount(Typed):
    """Games that lasted `turns` turns."""

    turns: int
    games: int


class TurnStatistics(Typed):
    """Turns a game lasted; the histogram only on a simulation, not a tuning's candidate."""

    mean: float
    sd: float
    p10: int
    median: int
    p90: int
    histogram: list[TurnCount] | None = None


class EncounterStatistics(Typed):
    """Encounters a game met."""

    mean: float
    sd: float


class TrapStatistics(Typed):
    """Traps triggered and disarmed."""

    triggered_per_game: float
    disarmed_per_game: float
    disarm_rate: float


class SimulationStatistics(Typed):
    """Escape rate and its 95% CI, outcomes, turns, encounters, traps."""

    games: int
    escape_rate: float
    escape_ci95: list[float]
    outcomes: Outcomes
    turns: TurnStatistics
    encounters: EncounterStatistics
    traps: TrapStatistics

    @classmethod
    def of(cls, summary: dict[str, Any]) -> SimulationStatistics:
        """From `summarise`'s dict (as a job stores it)."""
        turns = dict(summary["turns"])
        if "histogram" in turns:
            counts = turns.pop("histogram").items()
            turns["histogram"] = [TurnCount(turns=int(k), games=v) for k, v in counts]
        return cls.model_validate(summary | {"turns": turns})
