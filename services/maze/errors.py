"""MazeError, the root of every refusal from The Maze rules, with its stable codes."""

from __future__ import annotations

from services.errors import DomainError


class MazeError(DomainError):
    """A Maze rules request the caller can fix; `code` says which rule refused it."""

    code = "maze_error"
    http_status = 422


# Stable codes, one per rule that can refuse a request.
UNKNOWN_SKILL = "unknown_skill"
UNKNOWN_TRAIT = "unknown_trait"
DUPLICATE_DEFINITION = "duplicate_definition"
HALF_NOT_ALLOWED = "half_not_allowed"
HALF_BELOW_DC = "half_below_dc"
TOKENS_NOT_ALLOWED = "tokens_not_allowed"
SELF_TREATMENT_OF_FATAL = "self_treatment_of_fatal"
NO_SUCH_INJURY = "no_such_injury"
REROLL_LIMIT = "opposed_reroll_limit"
INVALID_CHARACTER = "invalid_character"
MISSING_ABILITY = "missing_ability"
WRONG_ENDPOINT = "use_kind_endpoint"
AUTOMATIC_OUTCOME = "automatic_outcome"
