"""The dice package's error types: one root, specific subclasses, stable codes."""

from __future__ import annotations

from typing import Any


class DiceError(Exception):
    """Root of every error the dice package raises on bad input or refused work."""

    code = "dice_error"
    http_status = 400

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        position: int | None = None,
        expected: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.position = position
        self.expected = expected

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description: code, message and, for syntax errors, where and what."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.position is not None:
            out["position"] = self.position
        if self.expected is not None:
            out["expected"] = self.expected
        return out


class DiceSyntaxError(DiceError):
    """The expression does not follow the grammar; carries position and expectations."""

    code = "syntax_error"


class DiceLimitError(DiceError):
    """The expression is valid but would cost more than the limits allow."""

    code = "limit_exceeded"
    http_status = 422


class DiceValueError(DiceError):
    """The expression is well formed but meaningless (d1, reroll every face, ...)."""

    code = "invalid_dice"
    http_status = 422


class DiceEvaluationError(DiceError):
    """Evaluation failed on the rolled values (division by zero, ...)."""

    code = "evaluation_error"
    http_status = 422


class DistributionUnsupported(DiceError):
    """The roller accepts this expression but no exact distribution is offered for it."""

    code = "distribution_unsupported"
    http_status = 422
