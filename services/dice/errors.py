"""The dice package's error types: one root, specific subclasses, stable codes."""

from __future__ import annotations

from services.errors import DomainError


class DiceError(DomainError):
    """Root of every error the dice package raises on bad input or refused work."""

    code = "dice_error"
    http_status = 400


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


class DiceAmbiguityError(DiceSyntaxError):
    """The spelling means different things in common tools; the message names each reading."""

    code = "ambiguous_notation"
