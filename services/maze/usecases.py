"""The Maze use cases the API calls: one request model in, one result model out."""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng
from services.maze.catalog import Catalog, ContentPack, default_catalog, extend
from services.maze.character import Issue
from services.maze.checks import CheckOutcome, CheckSpec, resolve_check
from services.maze.damage import DamageOdds, DamageOutcome, damage_odds_with_half, resolve_damage
from services.maze.errors import WRONG_ENDPOINT, MazeError
from services.maze.group import GroupOutcome, resolve_group
from services.maze.group_odds import GroupOdds, group_odds
from services.maze.loot import LootOutcome, loot_odds, resolve_loot
from services.maze.odds import CheckOdds, check_odds
from services.maze.opposed import OpposedOdds, OpposedOutcome, opposed_odds, resolve_opposed
from services.maze.requests import (
    CheckRequest,
    DamageRequest,
    GroupRequest,
    LootRequest,
    OpposedRequest,
    ValidateRequest,
)
from services.maze.traits import CheckKind
from services.maze.validation import validate_character, validate_party

DEFAULT_CATALOG: Catalog = default_catalog()
# Kinds with their own use case (and endpoint): a loot class, a collective DC.
OWN_ENDPOINT = {CheckKind.LOOT: "loot-checks", CheckKind.GROUP: "group-checks"}


def catalog_for(pack: ContentPack | None, base: Catalog = DEFAULT_CATALOG) -> Catalog:
    """The catalog with the request's content pack added (names must be new)."""
    return base if pack is None else extend(base, pack)


def _check_spec(request: CheckRequest, catalog: Catalog | None) -> CheckSpec:
    if request.kind in OWN_ENDPOINT:
        raise MazeError(
            f"a {request.kind.value} check has its own use: /v1/maze/{OWN_ENDPOINT[request.kind]}",
            code=WRONG_ENDPOINT,
        )
    return request.spec(catalog or catalog_for(request.content_pack))


def roll_check(request: CheckRequest, rng: Rng, catalog: Catalog | None = None) -> CheckOutcome:
    """Resolve the requested check with `rng` (loot and group kinds are refused)."""
    spec = _check_spec(request, catalog)
    return resolve_check(spec, rng, request.tokens, request.take_half, request.rules)


def odds_of_check(request: CheckRequest, catalog: Catalog | None = None) -> CheckOdds:
    """The exact odds of the requested check."""
    return check_odds(_check_spec(request, catalog), request.rules)


def roll_damage(
    request: DamageRequest, rng: Rng, catalog: Catalog | None = None
) -> tuple[DamageOutcome, DamageOdds]:
    """Resolve a damage roll, with the exact odds of each injury and of taking half."""
    spec = request.spec(catalog or catalog_for(request.content_pack))
    outcome = resolve_damage(spec, rng, request.tokens, request.take_half, request.rules)
    return outcome, damage_odds_with_half(spec)


def roll_loot(request: LootRequest, rng: Rng) -> LootOutcome:
    """Roll a loot check and read the class of loot from the chart."""
    spec = request.spec(catalog_for(request.content_pack))
    return resolve_loot(spec, rng, request.rules.loot_chart)


def odds_of_loot(request: LootRequest) -> dict[str, Fraction]:
    """P(each class of loot), exactly."""
    return loot_odds(request.spec(catalog_for(request.content_pack)), request.rules.loot_chart)


def roll_group(request: GroupRequest, rng: Rng) -> tuple[GroupOutcome, GroupOdds]:
    """Roll a group check, with the group's odds under the table's group mode."""
    specs = request.specs(catalog_for(request.content_pack))
    return (
        resolve_group(specs, request.dc, rng, request.rules),
        group_odds(specs, request.dc, request.rules),
    )


def roll_opposed(request: OpposedRequest, rng: Rng) -> tuple[OpposedOutcome, OpposedOdds]:
    """Resolve an opposed roll, with each side's exact chances."""
    return (
        resolve_opposed(request.first, request.second, rng),
        opposed_odds(request.first, request.second),
    )


def validate(request: ValidateRequest, catalog: Catalog | None = None) -> list[Issue]:
    """Every rule the character (and its party, if given) breaks."""
    catalog = catalog or catalog_for(request.content_pack)
    issues = validate_character(request.character, catalog, request.rules, request.creation)
    if request.party:
        names = {c.name for c in request.party}
        party = (
            request.party
            if request.character.name in names
            else [request.character, *request.party]
        )
        issues += validate_party(party, catalog)
    return issues
