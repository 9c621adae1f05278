"""The catalog of skills and traits: the defaults, extended by validated content packs."""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import Field

from services.maze.errors import DUPLICATE_DEFINITION, UNKNOWN_SKILL, UNKNOWN_TRAIT, MazeError
from services.maze.model import MazeModel
from services.maze.skills import DEFAULT_SKILLS, Skill
from services.maze.trait_data import DEFAULT_TRAITS
from services.maze.traits import Trait


class ContentPack(MazeModel):
    """Skills and traits a table adds to the defaults (from a dict or JSON text)."""

    name: Annotated[str, Field(min_length=1, max_length=64)]
    skills: list[Skill] = Field(default_factory=list, max_length=500)
    traits: list[Trait] = Field(default_factory=list, max_length=500)


class Catalog(MazeModel):
    """Every skill and trait a character may use, by name."""

    skills: dict[str, Skill]
    traits: dict[str, Trait]

    def skill(self, name: str) -> Skill:
        """The named skill, or MazeError(unknown_skill)."""
        found = self.skills.get(name)
        if found is None:
            raise MazeError(f"no skill named {name!r}", code=UNKNOWN_SKILL)
        return found

    def trait(self, name: str) -> Trait:
        """The named trait, or MazeError(unknown_trait)."""
        found = self.traits.get(name)
        if found is None:
            raise MazeError(f"no trait named {name!r}", code=UNKNOWN_TRAIT)
        return found


def default_catalog() -> Catalog:
    """The skills and traits shipped with the engine."""
    return Catalog(
        skills={s.name: s for s in DEFAULT_SKILLS}, traits={t.name: t for t in DEFAULT_TRAITS}
    )


def load_pack(data: dict[str, Any] | str | bytes) -> ContentPack:
    """Validate a content pack from a dict or JSON text (pydantic errors propagate)."""
    if isinstance(data, str | bytes):
        return ContentPack.model_validate(json.loads(data))
    return ContentPack.model_validate(data)


def extend(catalog: Catalog, pack: ContentPack) -> Catalog:
    """A catalog with the pack's skills and traits added; a name already used is refused."""
    skills = dict(catalog.skills)
    traits = dict(catalog.traits)
    for skill in pack.skills:
        if skill.name in skills:
            raise MazeError(
                f"pack {pack.name!r} redefines skill {skill.name!r}", code=DUPLICATE_DEFINITION
            )
        skills[skill.name] = skill
    for trait in pack.traits:
        if trait.name in traits:
            raise MazeError(
                f"pack {pack.name!r} redefines trait {trait.name!r}", code=DUPLICATE_DEFINITION
            )
        traits[trait.name] = trait
    for trait in pack.traits:
        if trait.parent is not None and trait.parent not in traits:
            raise MazeError(
                f"trait {trait.name!r} names an unknown parent {trait.parent!r}",
                code=UNKNOWN_TRAIT,
            )
    return Catalog(skills=skills, traits=traits)
