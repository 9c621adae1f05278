"""The Maze use cases the API calls: one request model in, one result model out."""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng
from services.maze.catalog import Catalog, default_catalog
from services.maze.character import Issue
from services.maze.checks import CheckOutcome, resolve_check
from services.maze.damage import DamageOutcome, damage_odds, resolve_damage
from services.maze.injuries import Injury
from services.maze.odds import CheckOdds, check_odds
from services.maze.opposed import OpposedOdds, OpposedOutcome, opposed_odds, resolve_opposed
from services.maze.requests import CheckRequest, DamageRequest, OpposedRequest, ValidateRequest
from services.maze.validation import validate_character, validate_party

DEFAULT_CATALOG: Catalog = default_catalog()


def roll_check(request: CheckRequest, rng: Rng, catalog: Catalog = DEFAULT_CATALOG) -> CheckOutcome:
    """Resolve the requested check with `rng`."""
    return resolve_check(
        request.spec(catalog), rng, request.tokens, request.take_half, request.rules
    )


def odds_of_check(request: CheckRequest, catalog: Catalog = DEFAULT_CATALOG) -> CheckOdds:
    """The exact odds of the requested check."""
    return check_odds(request.spec(catalog), request.rules)


def roll_damage(
    request: DamageRequest, rng: Rng, catalog: Catalog = DEFAULT_CATALOG
) -> tuple[DamageOutcome, dict[Injury, Fraction]]:
    """Resolve a damage roll, with the exact odds of each injury."""
    spec = request.spec(catalog)
    return resolve_damage(spec, rng, request.tokens, request.take_half), damage_odds(spec)


def roll_opposed(request: OpposedRequest, rng: Rng) -> tuple[OpposedOutcome, OpposedOdds]:
    """Resolve an opposed roll, with each side's chances."""
    return (
        resolve_opposed(request.first, request.second, rng),
        opposed_odds(request.first, request.second),
    )


def validate(request: ValidateRequest, catalog: Catalog = DEFAULT_CATALOG) -> list[Issue]:
    """Every rule the character (and its party, if given) breaks."""
    issues = validate_character(request.character, catalog, request.rules, request.creation)
    if request.party:
        names = {c.name for c in request.party}
        party = (
            request.party
            if request.character.name in names
            else [
                request.character,
                *request.party,
            ]
        )
        issues += validate_party(party, catalog)
    return issues
