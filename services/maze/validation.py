"""The rules a character sheet and a party must keep: dice, skills, trait limits, Buddy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from services.maze.abilities import ABILITY_DICE, Ability
from services.maze.catalog import Catalog
from services.maze.character import Character, Issue
from services.maze.rules import DEFAULT_RULES, MazeRules
from services.maze.traits import Trait, TraitKind

BUDDY = "Buddy"


def _dice_issues(character: Character, rules: MazeRules) -> list[Issue]:
    missing = [a.value for a in Ability if a not in character.abilities]
    out = []
    if missing:
        out.append(Issue(code="missing_ability", message=f"no die for {', '.join(missing)}"))
    dice = sorted(character.abilities.values(), reverse=True)
    if rules.distinct_dice and not missing and tuple(dice) != ABILITY_DICE:
        out.append(
            Issue(
                code="dice_not_distinct",
                message="each of d12, d10, d8 and d6 must be assigned to exactly one ability",
            )
        )
    return out


def _trait_issues(held: list[Trait], rules: MazeRules, creation: bool) -> list[Issue]:
    out: list[Issue] = []
    names = {t.name for t in held}
    counts = Counter(t.kind for t in held)
    if creation:
        bg, pers = counts[TraitKind.BACKGROUND], counts[TraitKind.PERSONALITY]
        if not 1 <= bg <= rules.max_background_traits:
            out.append(
                Issue(
                    code="background_trait_count",
                    message=f"pick 1 to {rules.max_background_traits} background traits, not {bg}",
                )
            )
        if not 1 <= pers <= rules.max_personality_traits:
            out.append(
                Issue(
                    code="personality_trait_count",
                    message=f"pick 1 to {rules.max_personality_traits} personality traits, "
                    f"not {pers}",
                )
            )
        earned = counts[TraitKind.RUNNER] + counts[TraitKind.CLEARING]
        if earned and not rules.runner_traits_at_creation:
            out.append(
                Issue(
                    code="earned_trait_at_creation",
                    message="runner and clearing traits are gained through gameplay",
                )
            )
    # An exclusion stated on either trait binds both ("Mutually exclusive"), once per pair.
    pairs = sorted({tuple(sorted((t.name, other))) for t in held for other in t.excludes & names})
    for first, second in pairs:
        out.append(
            Issue(
                code="exclusive_traits",
                message=f"{first} is mutually exclusive with {second}",
            )
        )
    subs = [t for t in held if t.parent is not None]
    if len(subs) > 1:
        out.append(
            Issue(
                code="too_many_subtraits",
                message="a character may have up to one subtrait: "
                + ", ".join(t.name for t in subs),
            )
        )
    for sub in subs:
        if sub.parent not in names:
            out.append(
                Issue(
                    code="subtrait_without_parent",
                    message=f"{sub.name} is a subtrait of {sub.parent}, which is not held",
                )
            )
    return out


def validate_character(
    character: Character,
    catalog: Catalog,
    rules: MazeRules = DEFAULT_RULES,
    creation: bool = False,
) -> list[Issue]:
    """Every rule the sheet breaks (empty when valid); `creation` adds the starting limits."""
    out = _dice_issues(character, rules)
    for skill in character.skills:
        if skill not in catalog.skills:
            out.append(Issue(code="unknown_skill", message=f"no skill named {skill!r}"))
    held: list[Trait] = []
    for name in dict.fromkeys(character.traits):
        trait = catalog.traits.get(name)
        if trait is None:
            out.append(Issue(code="unknown_trait", message=f"no trait named {name!r}"))
        else:
            held.append(trait)
    if len(set(character.traits)) != len(character.traits):
        out.append(Issue(code="duplicate_trait", message="a trait is listed twice"))
    return out + _trait_issues(held, rules, creation)


def validate_party(party: Sequence[Character], catalog: Catalog) -> list[Issue]:
    """Party-wide rules: a trait held by fewer partners than it needs (Buddy needs 2+)."""
    out: list[Issue] = []
    by_name = {c.name: c for c in party}
    for character in party:
        for name in character.traits:
            trait = catalog.traits.get(name)
            if trait is None or trait.min_holders <= 1:
                continue
            partners = [
                p
                for p in character.buddies
                if p in by_name and p != character.name and name in by_name[p].traits
            ]
            if len(partners) + 1 < trait.min_holders:
                out.append(
                    Issue(
                        code="too_few_holders",
                        message=f"{character.name}'s {name} must be had by "
                        f"{trait.min_holders} or more partners",
                    )
                )
    return out


def lose_partner(party: Sequence[Character], partner: str) -> list[Character]:
    """A partner died, is incapacitated or fell out: their Buddies lose the trait.

    The partner loses it too (a falling out ends it on both sides; the dead and the
    incapacitated no longer share it).
    """
    return [drop_buddy(c) if bonded_to(c, partner) else c for c in party]


def bonded_to(character: Character, partner: str) -> bool:
    """Whether losing `partner` (a character name) ends this character's Buddy trait."""
    return partner in character.buddies or (character.name == partner and BUDDY in character.traits)


def drop_buddy(character: Character) -> Character:
    """The character without the Buddy trait and its partners."""
    return character.model_copy(
        update={"traits": [t for t in character.traits if t != BUDDY], "buddies": []}
    )
