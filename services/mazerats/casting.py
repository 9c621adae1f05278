"""Casting a spell: "lose HP equal to the cost of the effect you want to create", and the
corruption WIL save when the caster asked for a lower cost."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from services.chance import Chance
from services.dice import Rng
from services.mazerats.character import MazeRatsCharacter
from services.mazerats.errors import MazeRatsError
from services.mazerats.play_requests import CastRequest
from services.mazerats.saves import MazeRatsSaveRoll, save_odds
from services.mazerats.spells import MazeRatsSpellCost, cast, spell_cost

# "Casting a spell takes two actions."
CAST_ACTIONS = 2


class SpellCast(BaseModel):
    """A cast spell: its price, the caster's HP after it, death, and corruption."""

    model_config = ConfigDict(frozen=True)

    price: MazeRatsSpellCost
    actions: int
    hp_before: int
    hp: int
    dead: bool
    corruption_save: MazeRatsSaveRoll | None
    corrupted: bool
    # The exact chance the corruption save succeeds (None when no discount was asked).
    resist_odds: Chance | None
    character: MazeRatsCharacter | None


def cast_spell(request: CastRequest, rng: Rng) -> SpellCast:
    """Price the spell, take its cost from the caster's HP and roll the corruption save.

    The caster is `hp` and `will`, or a `character` sheet, whose `sigil` must be one it
    bears ("Magic is encoded in ... spell sigils"); the sheet comes back with its HP.
    """
    price = spell_cost(request.spell)
    hp, will, sheet = request.hp, request.will, request.character
    if sheet is not None:
        if request.sigil not in sheet.sigils:
            raise MazeRatsError(
                f"{sheet.name or 'the character'} bears no sigil {request.sigil!r} "
                f"(borne: {', '.join(sheet.sigils) or 'none'})",
                code="sigil_not_borne",
            )
        hp, will = sheet.hp, sheet.abilities.will
    assert hp is not None  # the request gives hp or a character
    casting = cast(rng, hp, price, will, request.path_covers)
    odds = save_odds(will, request.path_covers)
    # The sheet comes back whole (every field given, defaults too) with the HP left.
    after = None if sheet is None else sheet.model_dump() | {"hp": casting.hp}
    return SpellCast(
        price=price,
        actions=CAST_ACTIONS,
        hp_before=hp,
        hp=casting.hp,
        dead=casting.dead,
        corruption_save=casting.corruption_save,
        corrupted=casting.corrupted,
        resist_odds=Chance.of(odds) if price.corruption_save else None,
        character=None if after is None else MazeRatsCharacter.model_validate(after),
    )
