"""The Maze use cases: one request model in, one result model out.

`roll_check`, `odds_of_check`, ... answer the domain's outcomes (campaigns and tests use
them); `check`, `check_odds`, ... are the use-case table's services (api/usecases/maze.py),
answering the result models of services/maze/results.py. A rolling service takes the
seed the API chose (or the caller gave): the same seed always rolls the same dice.
"""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng, seeded_rng
from services.maze import results
from services.maze.catalog import Catalog, ContentPack, default_catalog, extend
from services.maze.character import Character, Issue
from services.maze.checks import CheckOutcome, CheckSpec, resolve_check
from services.maze.damage import DamageOdds, DamageOutcome, damage_odds_with_half, resolve_damage
from services.maze.errors import WRONG_ENDPOINT, MazeError
from services.maze.group import GroupOutcome, resolve_group
from services.maze.group_odds import GroupOdds, group_odds
from services.maze.loot import LootOutcome, loot_odds, resolve_loot
from services.maze.odds import CheckOdds
from services.maze.odds import check_odds as exact_check_odds
from services.maze.opposed import OpposedOdds, OpposedOutcome, opposed_odds, resolve_opposed
from services.maze.requests import (
    CheckRequest,
    CheckRoll,
    DamageRequest,
    GroupRequest,
    LootRequest,
    LootRoll,
    OpposedRequest,
    ValidateRequest,
)
from services.maze.rules import DEFAULT_RULES, MazeRules
from services.maze.traits import CheckKind
from services.maze.validation import validate_character, validate_party

DEFAULT_CATALOG: Catalog = default_catalog()
# Kinds with their own use case: a loot class, a collective DC (REST path, GraphQL field).
OWN_ENDPOINT = {
    CheckKind.LOOT: ("loot-checks", "mazeLootCheck"),
    CheckKind.GROUP: ("group-checks", "mazeGroupCheck"),
}


def catalog_for(pack: ContentPack | None, base: Catalog = DEFAULT_CATALOG) -> Catalog:
    """The catalog with the request's content pack added (names must be new)."""
    return base if pack is None else extend(base, pack)


def _check_spec(request: CheckRequest, catalog: Catalog | None) -> CheckSpec:
    if request.kind in OWN_ENDPOINT:
        path, field = OWN_ENDPOINT[request.kind]
        raise MazeError(
            f"a {request.kind.value} check has its own use: POST /v1/maze/{path} (GraphQL {field})",
            code=WRONG_ENDPOINT,
        )
    return request.spec(catalog or catalog_for(request.content_pack))


def roll_check(request: CheckRequest, rng: Rng, catalog: Catalog | None = None) -> CheckOutcome:
    """Resolve the requested check with `rng` (loot and group kinds are refused)."""
    spec = _check_spec(request, catalog)
    return resolve_check(spec, rng, request.tokens, request.take_half, request.rules)


def odds_of_check(request: CheckRequest, catalog: Catalog | None = None) -> CheckOdds:
    """The exact odds of the requested check."""
    return exact_check_odds(_check_spec(request, catalog), request.rules)


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
    party = [c.sheet() for c in request.party]
    catalog = catalog or catalog_for(request.content_pack)
    return validate_sheet(
        request.character.sheet(), party, catalog, request.rules, request.creation
    )


def validate_sheet(
    character: Character,
    party: list[Character] | None = None,
    catalog: Catalog = DEFAULT_CATALOG,
    rules: MazeRules = DEFAULT_RULES,
    creation: bool = False,
) -> list[Issue]:
    """Every rule a character sheet (and its party, if given) breaks."""
    issues = validate_character(character, catalog, rules, creation)
    if party:
        names = {c.name for c in party}
        issues += validate_party(party if character.name in names else [character, *party], catalog)
    return issues


# The use-case table's services: `call` (what else the API knows of the request) is unused.


def check(request: CheckRoll, seed: str) -> results.MazeCheck:
    """A check rolled with `seed`: its band, tokens awarded and tokens to better bands."""
    return results.check(roll_check(request, seeded_rng(seed)), seed)


def check_odds(request: CheckRequest, call: object = None) -> results.MazeCheckOdds:
    """Exact P(success), P(each band), taking half against rolling."""
    return results.check_odds(odds_of_check(request))


def damage(request: DamageRequest, seed: str) -> results.MazeDamage:
    """A damage roll rolled with `seed`, its injury, the odds of each injury and of half."""
    return results.damage(*roll_damage(request, seeded_rng(seed)), seed)


def loot(request: LootRoll, seed: str) -> results.MazeLoot:
    """A loot check rolled with `seed` and the class of loot it gives."""
    return results.loot(roll_loot(request, seeded_rng(seed)), seed)


def loot_class_odds(request: LootRequest, call: object = None) -> results.MazeLootOdds:
    """The exact probability of each class of loot."""
    return results.loot_odds(odds_of_loot(request))


def group(request: GroupRequest, seed: str) -> results.MazeGroup:
    """A group check rolled with `seed`: the group meets its DC or not, with its odds."""
    return results.group(*roll_group(request, seeded_rng(seed)), seed)


def opposed(request: OpposedRequest, seed: str) -> results.MazeOpposed:
    """An opposed roll rolled with `seed`, with the tie rules and each side's chances."""
    return results.opposed(*roll_opposed(request, seeded_rng(seed)), seed)


def validation(request: ValidateRequest, call: object = None) -> results.MazeValidation:
    """Every rule the character (and its party) breaks."""
    return results.validation(validate(request))


def skills(request: None, call: object = None) -> results.MazeSkills:
    """The default skills and the abilities they roll."""
    return results.skills(DEFAULT_CATALOG.skills.values())


def traits(request: None, call: object = None) -> results.MazeTraits:
    """The default traits (their effects are neutral)."""
    return results.traits(DEFAULT_CATALOG.traits.values())
