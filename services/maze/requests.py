"""Validated inputs of the use cases: a check from raw dice or from a character sheet."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator, model_validator

from services.maze.abilities import Ability, AbilityDie, AnyDie
from services.maze.catalog import Catalog, ContentPack
from services.maze.character import Character
from services.maze.checks import (
    CheckSpec,
    Score,
    Tokens,
    build_check,
    check_for,
    check_tokens,
)
from services.maze.damage import DamageSpec, damage_for
from services.maze.effects import Effect, active_effects
from services.maze.errors import AUTOMATIC_OUTCOME, HALF_NOT_ALLOWED, MazeError
from services.maze.injuries import Injury, InjuryRecord, cap_for
from services.maze.model import MazeModel
from services.maze.opposed import Side
from services.maze.rules import DEFAULT_RULES, MazeRules
from services.maze.skills import Name
from services.maze.traits import CheckKind, Modifier

# A roll's seed: without one the API picks one and answers it, so a roll can be replayed.
Seed = Annotated[str, Field(min_length=1, max_length=256)]


class MazeAbilityDice(MazeModel):
    """The die of each ability (a sheet that leaves one out is refused where it matters:
    `missing_ability`, or by validation)."""

    ready: AbilityDie | None = None
    interaction: AbilityDie | None = None
    surroundings: AbilityDie | None = None
    navigation: AbilityDie | None = None


class MazeSkillModifier(MazeModel):
    """A skill the character has and its modifier."""

    name: Name
    modifier: Modifier


class MazeCharacter(MazeModel):
    """A character sheet as the API takes it: the rules' `Character`, with its skills as a
    list (each named once) so both transports carry the same shape."""

    name: Name
    abilities: MazeAbilityDice
    skills: Annotated[list[MazeSkillModifier], Field(max_length=200)] = Field(default_factory=list)
    traits: Annotated[list[Name], Field(max_length=50)] = Field(default_factory=list)
    buddies: Annotated[list[Name], Field(max_length=16)] = Field(default_factory=list)
    effects: frozenset[Effect] = frozenset()
    injuries: Annotated[list[InjuryRecord], Field(max_length=50)] = Field(default_factory=list)
    checked_this_run: frozenset[Ability] = frozenset()
    is_pc: bool = True

    @classmethod
    def of(cls, character: Character) -> MazeCharacter:
        """The API's sheet of the rules' character (a campaign's runner)."""
        skills = [{"name": n, "modifier": m} for n, m in character.skills.items()]
        return cls.model_validate(
            {**dict(character), "abilities": dict(character.abilities), "skills": skills}
        )

    @field_validator("skills")
    @classmethod
    def _each_skill_once(cls, skills: list[MazeSkillModifier]) -> list[MazeSkillModifier]:
        names = [s.name for s in skills]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"each skill is listed once: {', '.join(twice)} listed twice")
        return skills

    def sheet(self) -> Character:
        """The rules' character."""
        dice = {Ability(a): d for a, d in dict(self.abilities).items() if d is not None}
        skills = {s.name: s.modifier for s in self.skills}
        return Character.model_validate({**dict(self), "abilities": dice, "skills": skills})


class MazeRoller(MazeModel):
    """Who rolls: `die` + `modifier` (+ effects), or a `character` and a `skill`."""

    die: AnyDie | None = None
    modifier: Score = 0
    ability: Ability = Ability.READY
    effects: frozenset[Effect] = frozenset()
    checked_this_run: frozenset[Ability] = frozenset()
    character: MazeCharacter | None = None
    skill: Name | None = None
    claim_tunnel_vision: bool = True
    # Accepted on every kind so loot and group checks refuse them by rule
    # (tokens_not_allowed, half_not_allowed), not as unknown fields.
    tokens: Tokens = 0
    take_half: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> MazeRoller:
        by_sheet = self.character is not None or self.skill is not None
        if by_sheet == (self.die is not None) or (
            by_sheet and (self.character is None or self.skill is None)
        ):
            raise ValueError("give either die (and modifier) or character and skill")
        return self

    def build(self, catalog: Catalog, dc: int, kind: CheckKind) -> CheckSpec:
        """The check after traits and effects."""
        if self.character is not None and self.skill is not None:
            return check_for(
                self.character.sheet(), self.skill, catalog, dc, kind, self.claim_tunnel_vision
            )
        assert self.die is not None
        return build_check(
            self.die,
            self.modifier,
            self.ability,
            dc,
            kind,
            self.effects,
            checked_this_run=self.checked_this_run,
            claim_tunnel_vision=self.claim_tunnel_vision,
        )

    def rolled(self, catalog: Catalog, dc: int, kind: CheckKind) -> CheckSpec:
        """The check for kinds without bands (loot, group): no tokens, no half, and an
        automatic outcome is refused."""
        check_tokens(kind, self.tokens)
        if self.take_half:
            raise MazeError(
                f"taking half is only for normal and damage rolls, not {kind.value}",
                code=HALF_NOT_ALLOWED,
            )
        spec = self.build(catalog, dc, kind)
        if spec.automatic is not None:
            raise MazeError(
                f"an effect makes this check an automatic {spec.automatic.value}, which a "
                f"{kind.value} check cannot use (claim_tunnel_vision false rolls Tunnel-vision)",
                code=AUTOMATIC_OUTCOME,
            )
        return spec


class CheckRequest(MazeRoller):
    """A normal, snap or damage-kind check against a DC (loot and group have endpoints)."""

    dc: Score = 0
    kind: CheckKind = CheckKind.NORMAL
    rules: MazeRules = DEFAULT_RULES
    content_pack: ContentPack | None = None

    def spec(self, catalog: Catalog) -> CheckSpec:
        """The check after traits and effects."""
        return self.build(catalog, self.dc, self.kind)


class CheckRoll(CheckRequest):
    """A check to roll; without a seed the API picks one and answers it."""

    seed: Seed | None = None


class LootRequest(MazeRoller):
    """A loot check: no DC, no tokens or half (refused); the class comes from `rules.loot_chart`."""

    rules: MazeRules = DEFAULT_RULES
    content_pack: ContentPack | None = None

    def spec(self, catalog: Catalog) -> CheckSpec:
        """The loot check, luck traits added."""
        return self.rolled(catalog, 0, CheckKind.LOOT)


class LootRoll(LootRequest):
    """A loot check to roll; without a seed the API picks one and answers it."""

    seed: Seed | None = None


class GroupRequest(MazeModel):
    """A group check: each member rolls for themself against the collective `dc`."""

    members: Annotated[list[MazeRoller], Field(min_length=1, max_length=16)]
    dc: Score = 0
    tokens: Tokens = 0
    rules: MazeRules = DEFAULT_RULES
    content_pack: ContentPack | None = None
    seed: Seed | None = None

    def specs(self, catalog: Catalog) -> list[CheckSpec]:
        """Each member's check (tokens on the group or a member: tokens_not_allowed)."""
        check_tokens(CheckKind.GROUP, self.tokens)
        return [m.rolled(catalog, self.dc, CheckKind.GROUP) for m in self.members]


class DamageRequest(MazeModel):
    """A damage roll from `die` + Hardy `modifier`, or from a `character`'s sheet."""

    die: AnyDie | None = None
    modifier: Score = 0
    ability: Ability = Ability.READY
    effects: frozenset[Effect] = frozenset()
    untreated: Annotated[list[Injury], Field(max_length=50)] = Field(default_factory=list)
    character: MazeCharacter | None = None
    tokens: Tokens = 0
    take_half: bool = False
    rules: MazeRules = DEFAULT_RULES
    content_pack: ContentPack | None = None
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_source(self) -> DamageRequest:
        if (self.character is None) == (self.die is None):
            raise ValueError("give either die (and modifier) or character")
        return self

    def spec(self, catalog: Catalog) -> DamageSpec:
        """The damage roll with Hardy, effects and the cap of untreated injuries."""
        if self.character is not None:
            return damage_for(self.character.sheet(), catalog)
        assert self.die is not None
        check = build_check(
            self.die, self.modifier, self.ability, kind=CheckKind.DAMAGE, effects=self.effects
        )
        tunnel = Effect.TUNNEL_VISION in active_effects(self.effects)
        return DamageSpec(check=check, cap=cap_for(self.untreated, tunnel))


class OpposedRequest(MazeModel):
    """Two sides of an opposed roll."""

    first: Side
    second: Side
    seed: Seed | None = None


class ValidateRequest(MazeModel):
    """A character (and optionally its party) to check against the rules."""

    character: MazeCharacter
    party: Annotated[list[MazeCharacter], Field(max_length=16)] = Field(default_factory=list)
    creation: bool = False
    rules: MazeRules = DEFAULT_RULES
    content_pack: ContentPack | None = None
