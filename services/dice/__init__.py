"""The dice engine: notation → AST → roller and exact distributions.

Everything here is pure: randomness comes in as an `Rng`, time as an argument.
"""

from services.dice.ast import Expression
from services.dice.distribution import Quote, check_rollable, probability, quote
from services.dice.errors import (
    DiceError,
    DiceEvaluationError,
    DiceLimitError,
    DiceSyntaxError,
    DiceValueError,
    DistributionUnsupported,
)
from services.dice.limits import DEFAULT_LIMITS, TABLE_ROLL_LIMITS, Limits
from services.dice.parser import parse
from services.dice.render import render_dice_so_nice, render_foundry
from services.dice.report import ProbabilityReport
from services.dice.results import CheckResult, Die, RollResult, render_canonical
from services.dice.rng import HmacRng, Rng, SimRng, SystemRng, VectorRng, new_seed, seeded_rng
from services.dice.roller import dice_thrown, recorded_dice, recording, replayed, roll

__all__ = [
    "DEFAULT_LIMITS",
    "TABLE_ROLL_LIMITS",
    "CheckResult",
    "DiceError",
    "DiceEvaluationError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DiceValueError",
    "Die",
    "DistributionUnsupported",
    "Expression",
    "HmacRng",
    "Limits",
    "ProbabilityReport",
    "Quote",
    "Rng",
    "RollResult",
    "SimRng",
    "SystemRng",
    "VectorRng",
    "check_rollable",
    "dice_thrown",
    "new_seed",
    "parse",
    "probability",
    "quote",
    "recorded_dice",
    "recording",
    "render_canonical",
    "render_dice_so_nice",
    "render_foundry",
    "replayed",
    "roll",
    "seeded_rng",
]
