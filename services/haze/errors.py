"""The Haze package's root error and its specific, stable codes."""

from __future__ import annotations

from services.errors import DomainError


class HazeError(DomainError):
    """A Haze rules request that the rules refuse (HTTP 422)."""

    code = "haze_error"
    http_status = 422


class NoRelatedSkill(HazeError):
    """An unskilled action without a related skill to fall back on."""

    code = "no_related_skill"


class NoArbitrarySuccess(HazeError):
    """Arbitrary success asked for while the skill is not above the difficulty."""

    code = "no_arbitrary_success"


class WindTooStrong(HazeError):
    """A cross wind past the table's maximum difficulty for a ranged shot."""

    code = "wind_too_strong"


class WindOnMelee(HazeError):
    """Wind given for a melee weapon: it only counts for ranged shots."""

    code = "wind_on_melee"


class TooManyEffectDice(HazeError):
    """More effect dice than the service rolls or enumerates in one request."""

    code = "too_many_effect_dice"


class Exhausted(HazeError):
    """An action whose exhaustion cost the aspect cannot pay this round."""

    code = "exhausted"


class ComplexActionOver(HazeError):
    """A round played on a complex action that has already ended."""

    code = "complex_action_over"


class NoParticipants(HazeError):
    """A complex-action round with nobody taking part."""

    code = "no_participants"


class UnknownCombatant(HazeError):
    """An ambusher or combatant name that is missing or given twice."""

    code = "unknown_combatant"


class UnknownSkill(HazeError):
    """A character sheet asked for a skill it does not list."""

    code = "unknown_skill"


class ComplexOddsTooCostly(HazeError):
    """Complex-action odds whose chain would take more steps than one request may."""

    code = "complex_odds_too_costly"


class SpellTooDifficult(HazeError):
    """A spell or prayer whose difficulty is not below the AE's score in its school."""

    code = "spell_too_difficult"


class CannotBefriend(HazeError):
    """Befriending a creature the AE cannot communicate with or of unlike mind and culture."""

    code = "cannot_befriend"
