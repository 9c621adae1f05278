"""Combat models: how a monster encounter ends, as (monster defeated, fled, party defeated).

The engine leaves the outcome to the GM; a simulation needs a model. Both models give
fixed outcome probabilities per maze and party, so the fast simulator and the engine
driver sample the same categorical distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from services.dice import probability
from services.labyrinth import MazeDefinition, PartyMember, Stat


class CombatModel(Protocol):
    """Outcome probabilities (monster defeated, party fled, party defeated), summing to 1."""

    def outcome_probabilities(
        self, definition: MazeDefinition, party: tuple[PartyMember, ...]
    ) -> tuple[float, float, float]: ...


@lru_cache(maxsize=4096)
def check_probability(expression: str, dc: int) -> float:
    """P(expression >= dc), exact (an exploding tail counts as its lower bound)."""
    success = probability(f"{expression} >= {dc}").success
    assert success is not None
    return float(success)


@dataclass(frozen=True, slots=True)
class WinProbability:
    """The party defeats the monster with `win`, flees with `flee`, else is defeated."""

    win: float = 0.5
    flee: float = 0.0

    def __post_init__(self) -> None:
        if not (0 <= self.win <= 1 and 0 <= self.flee <= 1 and self.win + self.flee <= 1):
            raise ValueError("win and flee are probabilities with win + flee <= 1")

    def outcome_probabilities(
        self, definition: MazeDefinition, party: tuple[PartyMember, ...]
    ) -> tuple[float, float, float]:
        """The configured split."""
        return self.win, self.flee, 1.0 - self.win - self.flee


@dataclass(frozen=True, slots=True)
class ChecksCombat:
    """A per-system model: members attack in turn with their STR expression vs the maze DC.

    Each success is a hit, each failure a wound; `hits` hits defeat the monster,
    `wounds` wounds defeat the party. Each member's dice come from their check profile,
    so The Maze, Maze Rats and 5e parties fight with their own systems' odds.
    """

    hits: int = 3
    wounds: int = 3

    def outcome_probabilities(
        self, definition: MazeDefinition, party: tuple[PartyMember, ...]
    ) -> tuple[float, float, float]:
        """Exact, by dynamic programming over (hits, wounds, whose attack)."""
        ps = [check_probability(m.profile.expression(Stat.STR), definition.dc) for m in party]
        n = len(ps)
        memo: dict[tuple[int, int, int], float] = {}

        def win(h: int, w: int, i: int) -> float:
            if h >= self.hits:
                return 1.0
            if w >= self.wounds:
                return 0.0
            key = (h, w, i)
            if key not in memo:
                p = ps[i]
                memo[key] = p * win(h + 1, w, (i + 1) % n) + (1 - p) * win(h, w + 1, (i + 1) % n)
            return memo[key]

        p_win = win(0, 0, 0)
        return p_win, 0.0, 1.0 - p_win


def combat_from_spec(spec: dict[str, object]) -> CombatModel:
    """A model from JSON: {"model": "win_probability", "win": .6} or {"model": "checks"}."""
    kind = spec.get("model", "win_probability")
    if kind == "win_probability":
        return WinProbability(float(spec.get("win", 0.5)), float(spec.get("flee", 0.0)))  # type: ignore[arg-type]
    if kind == "checks":
        return ChecksCombat(int(spec.get("hits", 3)), int(spec.get("wounds", 3)))  # type: ignore[call-overload]
    raise ValueError(f"unknown combat model {kind!r}")
