"""The dice expressions a labyrinth keeps to roll later: a profile's checks, a table's dice.

Each is checked when it is given: dice notation, a total (the check's DC is the maze's),
and none of its rolls can fail (`services.dice.check_rollable`: a divisor that can be
0, a value past the roller's limits). A stored expression is rolled in play, where a
failing roll would stop the table at that card or turn with nothing the players can
fix; refused up front, the error names the field to change.

Data read back from the store (`services.jsoncodec.STORED`) is held to the notation
only: it was accepted when written, and a rule added since must not make a stored
session unreadable.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated

from pydantic import AfterValidator, ValidationInfo

from services.dice import DiceError, check_rollable, parse
from services.dice.ast import Check
from services.jsoncodec import is_stored


# Cached: every load of a session revalidates its definition and profiles.
@lru_cache(maxsize=1024)
def _notation_problem(expression: str) -> str | None:
    """Why `expression` is not a total in dice notation, or None."""
    try:
        parsed = parse(expression)
    except DiceError as exc:
        return f"{expression!r} is not dice notation: {exc.message}"
    if isinstance(parsed.root, Check):
        return f"{expression!r} must be a total, not a check"
    return None


@lru_cache(maxsize=1024)
def _roll_problem(expression: str) -> str | None:
    """Why a roll of `expression` (a valid total) can fail, with the roll's code, or None."""
    try:
        check_rollable(expression)
    except DiceError as exc:
        return f"{expression!r} can fail when rolled ({exc.code}): {exc.message}"
    return None


def _total(value: str, info: ValidationInfo, hint: str = "") -> str:
    problem = _notation_problem(value)
    if problem is None and not is_stored(info):
        problem = _roll_problem(value)
    if problem is not None:
        raise ValueError(problem + (hint if problem.endswith("not a check") else ""))
    return value


def _check_total(value: str, info: ValidationInfo) -> str:
    return _total(value, info, " (the DC is the maze's)")


RolledTotal = Annotated[str, AfterValidator(_total)]
"""A dice expression a definition's table rolls: a total whose rolls cannot fail."""

CheckTotal = Annotated[str, AfterValidator(_check_total)]
"""A dice expression a member rolls against the maze's DC: a total whose rolls cannot fail."""
