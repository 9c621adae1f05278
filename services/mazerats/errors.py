"""MazeRatsError, the root of every refusal the Maze Rats rules raise, with stable codes."""

from __future__ import annotations

from services.errors import DomainError


class MazeRatsError(DomainError):
    """A request the Maze Rats rules refuse; `code` says which rule."""

    code = "mazerats_error"
    http_status = 422


class RuleViolation(MazeRatsError):
    """An action the rules text forbids (ranged attack in close combat, ...)."""

    code = "rule_violation"


class HealingUnavailable(MazeRatsError):
    """A healing method already used today, or used without its condition."""

    code = "healing_unavailable"
