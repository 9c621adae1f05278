"""Maze Rats rules as pure functions and pydantic models."""

from services.mazerats.errors import HealingUnavailable, MazeRatsError, RuleViolation

__all__ = ["HealingUnavailable", "MazeRatsError", "RuleViolation"]
