"""Semantic checks of one dice term: modifiers that cannot stop or make no sense."""

from __future__ import annotations

from services.dice.ast import Dice
from services.dice.errors import DiceLimitError, DiceValueError
from services.dice.limits import Limits


def validate_dice(d: Dice, limits: Limits) -> None:
    """Refuse dice whose rerolls or explosions cannot terminate, or keep more than exist."""
    values = d.face_values()
    faces = set(values)
    reachable = faces
    if d.clamp_min is not None and d.clamp_max is not None and d.clamp_min > d.clamp_max:
        raise DiceValueError(
            f"{d.notation()}: the per-die minimum {d.clamp_min} is above the maximum {d.clamp_max}",
            code="invalid_dice",
            position=d.pos,
        )
    if d.reroll is not None:
        rerolled = d.reroll.when.passing(values)
        if not d.reroll.once:
            if rerolled >= faces:
                raise DiceValueError(
                    f"{d.notation()} rerolls every face and would never stop",
                    code="infinite_reroll",
                    position=d.pos,
                )
            q = sum(1 for v in values if v in rerolled) / d.sides
            if q**limits.max_rerolls > limits.runaway_probability:
                raise DiceLimitError(
                    f"{d.notation()} would too often need more than {limits.max_rerolls} rerolls",
                    code="reroll_limit",
                    position=d.pos,
                )
            reachable = faces - rerolled
    if d.explode is not None:
        if d.kind != "standard":
            raise DiceValueError(
                f"{d.notation()}: Fate, custom and d66t dice do not explode "
                "(only numbered dice dN have a highest face to explode on)",
                code="invalid_explosion",
                position=d.pos,
            )
        _validate_explosion(d, reachable, limits)
    if d.keep is not None and d.keep.n > d.count and d.explode is None:
        raise DiceValueError(
            f"{d.notation()} keeps or drops {d.keep.n} of only {d.count} dice",
            code="invalid_keep",
            position=d.pos,
        )


def _validate_explosion(d: Dice, reachable: set[int], limits: Limits) -> None:
    exploding = d.explode_faces() & reachable
    if not exploding:
        raise DiceValueError(
            f"{d.notation()} can never explode (no face it can show meets the threshold); "
            "to count successes on exploding dice write the count first, e.g. 5d10>=8!",
            code="invalid_explosion",
            position=d.pos,
        )
    if exploding >= reachable:
        raise DiceValueError(
            f"{d.notation()} explodes on every face it can show and would never stop",
            code="infinite_explosion",
            position=d.pos,
        )
    # Chance one throw explodes, weighted as reroll-once shapes the face.
    q = len(exploding) / len(reachable)
    if d.reroll is not None and d.reroll.once:
        hit = d.reroll.when.faces(d.sides)
        q = sum(d.sides * (f not in hit) + len(hit) for f in exploding) / d.sides**2
    if q ** (limits.max_explosions + 1) > limits.runaway_probability:
        raise DiceLimitError(
            f"{d.notation()} would too often explode more than {limits.max_explosions} times",
            code="explosion_limit",
            position=d.pos,
        )
