"""Cost limits: every expression is priced from its AST before any die is rolled."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds on what one expression may cost; refused with a stable code past them."""

    max_length: int = 1000
    """Characters in the expression text."""
    max_depth: int = 32
    """Nesting of parentheses and function calls."""
    max_dice: int = 1000
    """Dice thrown by one roll before rerolls and explosions (sum over all terms)."""
    max_sides: int = 10_000
    """Faces of one die."""
    max_integer: int = 10**12
    """Magnitude of an integer literal."""
    max_explosions: int = 100
    """Explosions of one die; an expression that could plausibly reach it is refused."""
    max_rerolls: int = 100
    """Rerolls of one die; same rule as explosions."""
    runaway_probability: float = 1e-12
    """A die may reach the explosion or reroll cap with at most this probability."""
    max_support: int = 200_000
    """Distinct values an exact distribution may hold at any step."""
    max_cost: int = 4_000_000
    """Elementary steps of the exact-distribution computation (pairs combined, DP cells)."""
    tail_bound: float = 1e-12
    """Probability mass an exact distribution may leave unenumerated (open-ended dice)."""
    max_batch: int = 10_000_000
    """Rolls in one vectorised batch."""


DEFAULT_LIMITS = Limits()

TABLE_ROLL_LIMITS = Limits(max_dice=100)
"""A roll made at a table (a session's or a campaign's `RollDice`): every face is stored
in the table's history and shown on every page of it, so a roll of 1000 dice made each
of its events some 5 KB stored and 110 KB shown, and a page of a hundred of them took
the API a second to answer for one token. Larger pools roll at POST /v1/dice/roll."""
