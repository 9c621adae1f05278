"""Sigil generator: an effect or element combined with a form, from one realm's tables."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from services.dice import Rng
from services.mazerats.errors import MazeRatsError
from services.mazerats.tables import magic as t
from services.mazerats.tables.d66 import d66_index

MAX_SIGILS = 36
# An empty 6-6 slot rerolls ("modifying or rerolling if the results are confusing or
# dull"); a fair stream gets a filled slot within a handful of tries.
MAX_REROLLS = 1000


class Realm(StrEnum):
    """Corporeal or ethereal: which set of tables a sigil comes from."""

    CORPOREAL = "corporeal"
    ETHEREAL = "ethereal"


class Part(StrEnum):
    """Which table the first word of a sigil comes from."""

    EFFECT = "effect"
    ELEMENT = "element"


TABLES: dict[tuple[Realm, str], tuple[str, ...]] = {
    (Realm.CORPOREAL, "effect"): t.CORPOREAL_EFFECTS,
    (Realm.CORPOREAL, "element"): t.CORPOREAL_ELEMENTS,
    (Realm.CORPOREAL, "form"): t.CORPOREAL_FORMS,
    (Realm.ETHEREAL, "effect"): t.ETHEREAL_EFFECTS,
    (Realm.ETHEREAL, "element"): t.ETHEREAL_ELEMENTS,
    (Realm.ETHEREAL, "form"): t.ETHEREAL_FORMS,
}


class MazeRatsTableRoll(BaseModel):
    """A d66 roll on one of the sigil tables and the entry it read."""

    model_config = ConfigDict(frozen=True)

    table: str
    dice: tuple[int, ...]
    entry: str


class MazeRatsSigil(BaseModel):
    """A generated sigil: name, realm, first table and the d66 rolls."""

    model_config = ConfigDict(frozen=True)

    name: str
    realm: Realm
    part: Part
    rolls: tuple[MazeRatsTableRoll, ...]


def roll_table(rng: Rng, realm: Realm, table: str) -> MazeRatsTableRoll:
    """Roll d66 on one table: first die the group, second the entry; rerolls an empty slot."""
    entries = TABLES[(realm, table)]
    for _ in range(MAX_REROLLS):
        first, second = rng.below(6) + 1, rng.below(6) + 1
        entry = entries[d66_index(first, second)]
        if entry != t.MISSING:
            return MazeRatsTableRoll(
                table=f"{realm.value} {table}s", dice=(first, second), entry=entry
            )
    raise AssertionError("the generator never left the empty slot")  # pragma: no cover


def generate_sigil(
    rng: Rng, realm: Realm | None = None, part: Part | None = None, mix_realms: bool = False
) -> MazeRatsSigil:
    """An effect or element with a form; realm and part by a d2 each unless given."""
    chosen = realm if realm is not None else (Realm.CORPOREAL, Realm.ETHEREAL)[rng.below(2)]
    kind = part if part is not None else (Part.EFFECT, Part.ELEMENT)[rng.below(2)]
    first = roll_table(rng, chosen, kind.value)
    form_realm = chosen
    if mix_realms:
        # "other combinations are possible": the form's realm is rolled on its own.
        form_realm = (Realm.CORPOREAL, Realm.ETHEREAL)[rng.below(2)]
    form = roll_table(rng, form_realm, "form")
    return MazeRatsSigil(
        name=f"{first.entry} {form.entry}", realm=chosen, part=kind, rolls=(first, form)
    )


def generate_sigils(
    rng: Rng,
    count: int,
    realm: Realm | None = None,
    part: Part | None = None,
    mix_realms: bool = False,
) -> list[MazeRatsSigil]:
    """The several sigils a shop offers."""
    if not 1 <= count <= MAX_SIGILS:
        raise MazeRatsError(f"count must be within 1..{MAX_SIGILS}", code="count_out_of_range")
    return [generate_sigil(rng, realm, part, mix_realms) for _ in range(count)]
