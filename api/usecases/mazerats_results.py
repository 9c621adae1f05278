"""The Maze Rats use cases' result models: every key the server answers, typed.

A result is the services' own outcome model (`services/mazerats/*.py`); a rolled one
adds the `seed` that replays it and, when the request asked for `render`, `dice_rolls`.
What is left here has no services model yet: odds built from exact Fractions.
"""

from __future__ import annotations

from api.usecases import dice_results
from api.usecases.table import Result
from services.chance import Chance
from services.mazerats.casting import SpellCast
from services.mazerats.combat import Attack
from services.mazerats.encounters import InitiativeOutcome
from services.mazerats.healing import Healing
from services.mazerats.magic import MazeRatsSigil
from services.mazerats.market import MazeRatsHireling, MazeRatsWare
from services.mazerats.opposed import OpposedSave
from services.mazerats.saves import MazeRatsSaveRoll
from services.mazerats.usecases import MoraleOutcome, ReactionOutcome


class MazeRatsRolled(Result):
    """A rolled result: the seed replays it; `dice_rolls` only when `render` was given."""

    seed: str
    dice_rolls: list[dice_results.RollResult] | None = None


class MazeRatsSave(MazeRatsSaveRoll, MazeRatsRolled):
    """A rolled save and its seed."""


class MazeRatsSaveOdds(Result):
    """The save bonus and the exact chance that the save succeeds."""

    bonus: int
    success: Chance


class MazeRatsOpposedSave(OpposedSave, MazeRatsRolled):
    """An opposed save: every exchange (more than one when ties reroll) and the winner."""


class MazeRatsAttack(Attack, MazeRatsRolled):
    """An attack: 2d6 + Combat Bonus must exceed AC; the damage dealt."""


class MazeRatsDamagePoint(Result):
    """An amount of damage (0 is a miss) and its exact chance."""

    damage: int
    fraction: str
    float: float


class MazeRatsAttackOdds(Result):
    """The exact chance to hit, the mean damage and the damage distribution."""

    ac: int
    hit: Chance
    mean_damage: Chance
    damage: list[MazeRatsDamagePoint]


class MazeRatsReaction(ReactionOutcome, MazeRatsRolled):
    """A reaction roll: the leader's WIL save; success means cooperative."""


class MazeRatsMorale(MoraleOutcome, MazeRatsRolled):
    """Whether a check was due; the check if due (or forced); the chance it holds."""


class MazeRatsInitiative(InitiativeOutcome, MazeRatsRolled):
    """Who acts first, whether by surprise, and the surprised characters' saves."""


class MazeRatsHealing(Healing, MazeRatsRolled):
    """A healing attempt: the WIL save (bandage), HP healed and now, the day's uses."""


class MazeRatsSigils(Result):
    """The sigils a shop offers, reproducible from the seed."""

    seed: str
    sigils: list[MazeRatsSigil]


class MazeRatsSpellCast(SpellCast, MazeRatsRolled):
    """A cast spell: its price, HP after it, death, and the corruption save if risked."""


class MazeRatsMarket(Result):
    """The market's wares and prices."""

    wares: list[MazeRatsWare]


class MazeRatsHirelings(Result):
    """The hirelings for hire."""

    hirelings: list[MazeRatsHireling]
